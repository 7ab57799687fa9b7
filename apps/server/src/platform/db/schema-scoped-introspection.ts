import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, sql, type DatabaseIntrospector, type DatabaseMetadataOptions, type TableMetadata } from 'kysely';
import type { AnyDb } from './sql-dialect.js';

// kysely's migrator asks its database's introspector for every table (`getTables()`) to learn
// whether its own two tables exist, three to four times a migration. PostgreSQL's introspector
// answers with every column of every table of every schema the role can use, calling
// `pg_get_serial_sequence` on each: its cost grows with the rest of the database, not with the
// schema being migrated. In a database holding many schemas (a test run's files, one schema per
// tenant) on a loaded machine that listing alone took up to 450 ms, several times a migration,
// each under the statement timeout (VIGIL_DB_STATEMENT_TIMEOUT_MS). The migrator only ever looks
// for tables of the migration schema, so the listing it is given names that schema's tables alone.

interface ColumnRow {
  table: string;
  table_type: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  column_description: string | null;
  auto_incrementing: boolean;
}

/** The tables and views of `schema`, with their columns, as kysely's PostgreSQL introspector describes them. */
export function schemaScopedIntrospector(db: AnyDb, schema: string): DatabaseIntrospector {
  const getTables = async (options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> => {
    const internal = options.withInternalKyselyTables ? sql`` : sql`and c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE})`;
    const { rows } = await sql<ColumnRow>`
      select a.attname as "column", a.attnotnull as not_null, a.atthasdef as has_default, c.relname as "table",
        c.relkind as table_type, typ.typname as "type", dtns.nspname as type_schema,
        col_description(a.attrelid, a.attnum) as column_description,
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) is not null as auto_incrementing
      from pg_catalog.pg_attribute a
        join pg_catalog.pg_class c on a.attrelid = c.oid
        join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
        join pg_catalog.pg_type typ on a.atttypid = typ.oid
        join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
      where ns.nspname = ${schema} and c.relkind in ('r', 'v', 'p') and a.attnum >= 0 and not a.attisdropped ${internal}
      order by c.relname, a.attnum`.execute(db);
    const tables = new Map<string, { name: string; schema: string; isView: boolean; columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      let table = tables.get(row.table);
      if (table === undefined) {
        table = { name: row.table, schema, isView: row.table_type === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        isAutoIncrementing: row.auto_incrementing,
        hasDefaultValue: row.has_default,
        ...(row.column_description === null ? {} : { comment: row.column_description }),
      });
    }
    return [...tables.values()];
  };
  return {
    // One schema is all this introspector sees.
    getSchemas: async () => {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    getTables,
    getMetadata: async (options) => ({ tables: await getTables(options) }),
  };
}

/**
 * `db` (a Kysely instance), except that its `introspection` is `schemaScopedIntrospector(db,
 * schema)`. Every other member is `db`'s own: methods are called on `db` itself (kysely keeps its
 * state in private fields, which a method called on the proxy could not read), and what a getter
 * answers is passed on as it is (`fn` is a function carrying helpers of its own).
 */
export function withSchemaScopedIntrospection<D extends AnyDb>(db: D, schema: string): D {
  const introspection = schemaScopedIntrospector(db, schema);
  return new Proxy(db, {
    get(target, key) {
      if (key === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' && isMethod(target, key) ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Whether `key` is a method of `object` (a function-valued data property on it or its prototypes), not a getter. */
function isMethod(object: object, key: string | symbol): boolean {
  for (let at: object | null = object; at !== null; at = Object.getPrototypeOf(at) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(at, key);
    if (descriptor !== undefined) return 'value' in descriptor;
  }
  return false;
}
