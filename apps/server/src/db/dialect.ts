import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';

// The one place where SQLite and PostgreSQL are told apart: services and the scheduler say what they
// need (a row lock, a claim that skips rows others hold, one runner at a time) and these helpers
// pick the dialect's way of doing it. An eslint rule keeps `dialectOf` inside db/.

export type DialectName = 'sqlite' | 'postgres';

// Helpers take any schema: migrations describe tables that the current Database interface may no
// longer match.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect = SelectQueryBuilder<any, any, any>;

/** Which SQL dialect a Kysely instance (or transaction) speaks. */
export function dialectOf(db: AnyDb): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Locks the selected rows until the transaction ends, so a read-then-write sees one writer at a time.
 * Use with `$call`: `trx.selectFrom(…).$call(lockForUpdate(trx))`. PostgreSQL: FOR UPDATE. SQLite:
 * nothing, because a write transaction already excludes every other writer (and SQLite has no
 * FOR UPDATE).
 */
export function lockForUpdate(db: AnyDb): <Q extends AnySelect>(query: Q) => Q {
  const postgres = dialectOf(db) === 'postgres';
  return (query) => (postgres ? (query.forUpdate() as typeof query) : query);
}

/**
 * Share-locks the rows of `table` (one of the query's tables) until the transaction ends: other
 * readers proceed, a writer taking them FOR UPDATE waits (and makes this wait). Use with `$call`.
 * PostgreSQL: FOR SHARE OF the table. SQLite: nothing, for the reason given at lockForUpdate.
 */
export function shareLock(db: AnyDb, table: string): <Q extends AnySelect>(query: Q) => Q {
  const postgres = dialectOf(db) === 'postgres';
  return (query) => (postgres ? (query.modifyEnd(sql`for share of ${sql.ref(table)}`) as typeof query) : query);
}

/**
 * The closing clause of a raw `select` that claims work: the rows of `alias` are locked, and rows
 * another transaction has locked are skipped rather than waited for, so concurrent claimers take
 * different rows. PostgreSQL: FOR UPDATE OF alias SKIP LOCKED. SQLite: empty, since its single
 * writer cannot meet a row locked by someone else.
 */
export function skipLockedClause(db: AnyDb, alias: string): RawBuilder<unknown> {
  return dialectOf(db) === 'postgres' ? sql`for update of ${sql.ref(alias)} skip locked` : sql``;
}

/**
 * How to make sure only one process runs a job. PostgreSQL has session advisory locks, which the
 * server releases itself when a holder dies. SQLite has none, so the runner takes a lease row that
 * expires.
 */
export function singleRunnerStrategy(db: AnyDb): 'advisory-lock' | 'lease-row' {
  return dialectOf(db) === 'postgres' ? 'advisory-lock' : 'lease-row';
}

/**
 * The schema kysely's migration bookkeeping tables belong in. PostgreSQL: the current schema; left
 * to itself kysely looks for them across every schema on the search path and trips over other
 * deployments' (or other test runs') tables in a shared database. SQLite: undefined (no schemas).
 */
export async function migrationTableSchema(db: AnyDb): Promise<string | undefined> {
  if (dialectOf(db) !== 'postgres') return undefined;
  const row = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return row.rows[0]?.schema;
}

/**
 * Adds an auto-incrementing integer primary key: a `bigint` identity on PostgreSQL, an `integer`
 * primary key on SQLite (an alias of the rowid, which is what auto-increments there). Applied
 * migrations call this, so what it emits must never change: a different key needs a new helper.
 */
export function addIdColumn<T extends string, C extends string = 'id'>(
  db: AnyDb,
  table: CreateTableBuilder<T, never>,
  column = 'id' as C,
): CreateTableBuilder<T, C> {
  return dialectOf(db) === 'postgres'
    ? table.addColumn(column, 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn(column, 'integer', (c) => c.primaryKey());
}
