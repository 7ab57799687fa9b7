import { sql, type RawBuilder, type SqlBool } from 'kysely';
import {
  EXACT_MATCH_BOOST,
  FIELD_WEIGHTS,
  MIN_PREFIX_WORD_LENGTH,
  migrationLockWaiter,
  POSTGRES_MIGRATION_LOCK_KEY,
  TRANSACTION_LOCK_NAMESPACE,
  type AnyDb,
  type FieldedTextIndex,
  type SqlDialect,
} from './sql-dialect.js';
import { withSchemaScopedIntrospection } from './schema-scoped-introspection.js';

// PostgreSQL's side of SqlDialect: row locks, advisory locks, tsvector full-text search.

const TSVECTOR_COLUMN = 'search_vector';
const FULL_VECTOR = 'full_vector';
const RESTRICTED_VECTOR = 'restricted_vector';
const PG_WEIGHTS = ['A', 'B', 'C', 'D'] as const;

/**
 * The same weights for PostgreSQL's ts_rank, which lists them {D, C, B, A} (A is the first column)
 * and takes them in [0, 1]: the first column 1.0, the second 0.2, the third and fourth 0.1.
 */
const PG_RANK_WEIGHTS = `{${[...FIELD_WEIGHTS].reverse().map((w) => w / FIELD_WEIGHTS[0]).join(', ')}}`;

function weightedVector(columns: readonly string[]): RawBuilder<unknown> {
  return sql.join(
    columns.map((column, i) => sql`setweight(to_tsvector('simple'::regconfig, ${sql.ref(column)}), ${sql.lit(PG_WEIGHTS[i]!)})`),
    sql` || `,
  );
}

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  lockForUpdate: (query) => query.forUpdate() as typeof query,
  shareLock: (query, table) => query.modifyEnd(sql`for share of ${sql.ref(table)}`) as typeof query,
  skipLockedClause: (alias) => sql`for update of ${sql.ref(alias)} skip locked`,
  async takeTurnsOn(trx, key) {
    await sql`select pg_advisory_xact_lock(${TRANSACTION_LOCK_NAMESPACE}::integer, hashtext(current_schema() || '/' || ${key}::text))`.execute(trx);
  },
  inTextList: (column, values) => sql<SqlBool>`${sql.ref(column)} = any(${[...values]}::text[])`,
  jsonTextField: (column, key) => sql<string | null>`(${sql.ref(column)}::jsonb ->> ${sql.lit(key)})`,
  byteOrder: (column) => sql<string>`${sql.ref(column)} collate "C"`,
  singleRunnerStrategy: 'advisory-lock',
  withMigrationLock(db, timeoutMs, work) {
    const waitOrGiveUp = migrationLockWaiter(timeoutMs);
    return db.connection().execute(async (conn) => {
      for (;;) {
        const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${sql.lit(POSTGRES_MIGRATION_LOCK_KEY)}) as locked`.execute(conn);
        if (rows[0]?.locked === true) break;
        await waitOrGiveUp();
      }
      try {
        // kysely's migrator, given this connection, then looks for its tables in this schema alone
        // (schema-scoped-introspection.ts); a search_path naming no existing schema leaves it as it is.
        const schema = await postgresDialect.migrationTableSchema(conn);
        return await work(schema === undefined || schema === null ? conn : withSchemaScopedIntrospection(conn, schema));
      } finally {
        // A connection that broke meanwhile took the lock with it.
        await sql`select pg_advisory_unlock(${sql.lit(POSTGRES_MIGRATION_LOCK_KEY)})`.execute(conn).catch(() => undefined);
      }
    });
  },
  async migrationTableSchema(db: AnyDb) {
    const row = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    return row.rows[0]?.schema;
  },
  addIdColumn: (table, column) => table.addColumn(column, 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity()),
  async createFullTextIndex(db, index) {
    const table = sql.table(index.table);
    const vector = sql.join(
      index.columns.map((column, i) => sql`setweight(to_tsvector('simple'::regconfig, ${sql.ref(column)}), ${sql.lit(PG_WEIGHTS[i]!)})`),
      sql` || `,
    );
    await sql`alter table ${table} add column ${sql.ref(TSVECTOR_COLUMN)} tsvector generated always as (${vector}) stored`.execute(db);
    await sql`create index ${sql.ref(`${index.table}_fts_idx`)} on ${table} using gin (${sql.ref(TSVECTOR_COLUMN)})`.execute(db);
  },
  async dropFullTextIndex(db, index) {
    await sql`drop index ${sql.ref(`${index.table}_fts_idx`)}`.execute(db);
    await sql`alter table ${sql.table(index.table)} drop column ${sql.ref(TSVECTOR_COLUMN)}`.execute(db);
  },
  async createFieldedTextIndex(db, index: FieldedTextIndex) {
    const table = sql.table(index.table);
    const restricted = weightedVector(index.columns.slice(0, index.restrictedColumns));
    await sql`alter table ${table} add column ${sql.ref(FULL_VECTOR)} tsvector generated always as (${weightedVector(index.columns)}) stored`.execute(db);
    await sql`alter table ${table} add column ${sql.ref(RESTRICTED_VECTOR)} tsvector generated always as (${restricted}) stored`.execute(db);
    await sql`create index ${sql.ref(`${index.table}_full_idx`)} on ${table} using gin (${sql.ref(FULL_VECTOR)})`.execute(db);
    await sql`create index ${sql.ref(`${index.table}_restricted_idx`)} on ${table} using gin (${sql.ref(RESTRICTED_VECTOR)})`.execute(db);
  },
  async dropFieldedTextIndex(db, index) {
    for (const suffix of ['full', 'restricted']) await sql`drop index ${sql.ref(`${index.table}_${suffix}_idx`)}`.execute(db);
    for (const column of [FULL_VECTOR, RESTRICTED_VECTOR]) await sql`alter table ${sql.table(index.table)} drop column ${sql.ref(column)}`.execute(db);
  },
  rankedTextMatches(index, words, options) {
    const prefix = (w: string) => w.length >= MIN_PREFIX_WORD_LENGTH;
    const vector = sql.ref(options.restricted ? RESTRICTED_VECTOR : FULL_VECTOR);
    const query = words.map((w) => (prefix(w) ? `'${w}':*` : `'${w}'`)).join(' & ');
    const phrase = words.map((w) => `'${w}'`).join(' <-> ');
    // to_tsquery, not a cast: the words go through the parser that built the vector, which splits
    // some of what normalizeSearchWords keeps whole (`3e7fab12` is the number `3e7` and `fab12`), so
    // a hash holding such a run is found (as adjacent parts, each a prefix when the word is).
    return sql<{ id: number; score: number }>`select id, (ts_rank(${sql.lit(PG_RANK_WEIGHTS)}, ${vector}, to_tsquery('simple'::regconfig, ${query}), 1)
        + case when ts_filter(${vector}, '{a}') @@ to_tsquery('simple'::regconfig, ${phrase}) then ${sql.lit(EXACT_MATCH_BOOST)} else 0 end)::float8 as score
      from ${sql.table(index.table)} where ${vector} @@ to_tsquery('simple'::regconfig, ${query}) order by score desc, id limit ${sql.lit(options.limit)}`;
  },
};
