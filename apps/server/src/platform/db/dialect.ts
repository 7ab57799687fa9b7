import { PostgresAdapter, type CreateTableBuilder, type DialectAdapter, type RawBuilder, type SqlBool } from 'kysely';
import { postgresDialect } from './postgres-dialect.js';
import { sqliteDialect } from './sqlite-dialect.js';
import type { AnyDb, AnySelect, DialectName, FieldedTextIndex, FullTextIndex, SqlDialect } from './sql-dialect.js';

// The one place where SQLite and PostgreSQL are told apart: services and the scheduler say what they
// need (a row lock, a claim that skips rows others hold, one runner at a time) and these helpers
// hand it to the database's SqlDialect (postgres-dialect.ts, sqlite-dialect.ts), the capability
// object chosen once when the database opens. None of them branches on the dialect. An eslint rule
// keeps `dialectOf` inside platform/db/.

export {
  EXACT_MATCH_BOOST,
  MigrationLockTimeoutError,
  MIN_PREFIX_WORD_LENGTH,
  normalizeSearchWords,
  POSTGRES_MIGRATION_LOCK_KEY,
  searchWordMatches,
  TRANSACTION_LOCK_NAMESPACE,
  type DialectName,
  type FieldedTextIndex,
  type FullTextIndex,
  type SqlDialect,
} from './sql-dialect.js';

/**
 * The dialect of each open database, by its kysely adapter: a transaction, a connection or a
 * `withSchema` view of a database shares its adapter, so they all find the dialect chosen for it.
 */
const chosen = new WeakMap<DialectAdapter, SqlDialect>();

/** Chooses `db`'s dialect: openDatabase calls it once, as the database opens. */
export function chooseDialect(db: AnyDb, name: DialectName): SqlDialect {
  const dialect = name === 'postgres' ? postgresDialect : sqliteDialect;
  chosen.set(db.getExecutor().adapter, dialect);
  return dialect;
}

/**
 * The dialect of a Kysely instance (or transaction). One that openDatabase did not open (a test's
 * own instance) gets its dialect chosen here, from its adapter, on first use.
 */
export function sqlDialectOf(db: AnyDb): SqlDialect {
  const adapter = db.getExecutor().adapter;
  return chosen.get(adapter) ?? chooseDialect(db, adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');
}

/** Which SQL dialect a Kysely instance (or transaction) speaks. */
export function dialectOf(db: AnyDb): DialectName {
  return sqlDialectOf(db).name;
}

/**
 * Locks the selected rows until the transaction ends, so a read-then-write sees one writer at a time.
 * Use with `$call`: `trx.selectFrom(…).$call(lockForUpdate(trx))`. PostgreSQL: FOR UPDATE. SQLite:
 * nothing, because a write transaction already excludes every other writer (and SQLite has no
 * FOR UPDATE).
 */
export function lockForUpdate(db: AnyDb): <Q extends AnySelect>(query: Q) => Q {
  const dialect = sqlDialectOf(db);
  return (query) => dialect.lockForUpdate(query);
}

/**
 * Share-locks the rows of `table` (one of the query's tables) until the transaction ends: other
 * readers proceed, a writer taking them FOR UPDATE waits (and makes this wait). Use with `$call`.
 * PostgreSQL: FOR SHARE OF the table. SQLite: nothing, for the reason given at lockForUpdate.
 */
export function shareLock(db: AnyDb, table: string): <Q extends AnySelect>(query: Q) => Q {
  const dialect = sqlDialectOf(db);
  return (query) => dialect.shareLock(query, table);
}

/**
 * The closing clause of a raw `select` that claims work: the rows of `alias` are locked, and rows
 * another transaction has locked are skipped rather than waited for, so concurrent claimers take
 * different rows. PostgreSQL: FOR UPDATE OF alias SKIP LOCKED. SQLite: empty, since its single
 * writer cannot meet a row locked by someone else.
 */
export function skipLockedClause(db: AnyDb, alias: string): RawBuilder<unknown> {
  return sqlDialectOf(db).skipLockedClause(alias);
}

/**
 * Inside a transaction: transactions calling this with the same `key` take turns until each ends,
 * so a read-then-insert under the key (does an artifact with these bytes exist in this track?) sees
 * what the previous holder committed, where no unique index can say it. PostgreSQL: a
 * transaction-scoped advisory lock on a hash of the schema and the key (a hash collision only makes
 * two keys share turns). SQLite: nothing, for the reason given at lockForUpdate.
 */
export function takeTurnsOn(trx: AnyDb, key: string): Promise<void> {
  return sqlDialectOf(trx).takeTurnsOn(trx, key);
}

/**
 * `column IN (values)` with the whole list bound as one parameter, so a lookup of 2,000 keys (or
 * 200,000) is one statement of fixed size, under any bound-parameter limit, and still an index probe
 * per key. PostgreSQL: `column = any($1::text[])`. SQLite: `column in (select value from
 * json_each($1))`, the list sent as a JSON array.
 */
export function inTextList(db: AnyDb, column: string, values: readonly string[]): RawBuilder<SqlBool> {
  return sqlDialectOf(db).inTextList(column, values);
}

/**
 * The text value of a top-level `key` of the JSON object stored as text in `column` (null when the
 * key is absent). PostgreSQL: `(column::jsonb ->> key)`. SQLite: `json_extract(column, '$.key')`.
 * `key` must be a plain identifier (letters, digits, `_`).
 */
export function jsonTextField(db: AnyDb, column: string, key: string): RawBuilder<string | null> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new TypeError(`key: expected a plain identifier, got ${JSON.stringify(key)}`);
  return sqlDialectOf(db).jsonTextField(column, key);
}

/**
 * `column` for ORDER BY in byte order (code point order of the UTF-8 text: `-` < `0` < `B` < `_` < `a`),
 * whatever collation the database was created with, so a documented order holds on every deployment.
 * PostgreSQL: `column collate "C"`. SQLite: the column itself (its default BINARY collation).
 */
export function byteOrder(db: AnyDb, column: string): RawBuilder<string> {
  return sqlDialectOf(db).byteOrder(column);
}

/**
 * How to make sure only one process runs a job. PostgreSQL has session advisory locks, which the
 * server releases itself when a holder dies. SQLite has none, so the runner takes a lease row that
 * expires.
 */
export function singleRunnerStrategy(db: AnyDb): 'advisory-lock' | 'lease-row' {
  return sqlDialectOf(db).singleRunnerStrategy;
}

/**
 * Runs `work` on one connection of `db` (which `work` must use for everything) while holding the
 * migration lock, so processes migrating one database take turns, each seeing what the one before
 * it applied. The wait is bounded by `timeoutMs` alone: each attempt is one short statement that
 * does not wait, so neither the statement timeout nor the client's query timeout ends it. Past
 * `timeoutMs`, throws MigrationLockTimeoutError.
 *
 * PostgreSQL: the session advisory lock kysely's migrator takes (POSTGRES_MIGRATION_LOCK_KEY),
 * asked for with `pg_try_advisory_lock`; the migrator's own `pg_advisory_lock` on the same session
 * then succeeds at once, and a process of an older version, which waits in `pg_advisory_lock`,
 * takes its turn too. SQLite: a write transaction (`BEGIN IMMEDIATE`, asked for without SQLite's
 * busy wait, which would block the process) around `work`, committed when it succeeds and rolled
 * back when it throws, so a failed migration leaves nothing half-applied.
 */
export function withMigrationLock<T>(db: AnyDb, timeoutMs: number, work: (conn: AnyDb) => Promise<T>): Promise<T> {
  return sqlDialectOf(db).withMigrationLock(db, timeoutMs, work);
}

/**
 * The schema kysely's migration bookkeeping tables belong in. PostgreSQL: the current schema; left
 * to itself kysely looks for them across every schema on the search path and trips over other
 * deployments' (or other test runs') tables in a shared database. SQLite: undefined (no schemas).
 */
export function migrationTableSchema(db: AnyDb): Promise<string | undefined> {
  return sqlDialectOf(db).migrationTableSchema(db);
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
  return sqlDialectOf(db).addIdColumn(table, column);
}

/**
 * Creates the dialect's own full-text index over `index.columns`, kept in sync by the database
 * itself on every insert, update and delete of the table. The columns must hold normalized words
 * (see normalizeSearchWords): lowercase letters and digits separated by single spaces, so both
 * tokenizers cut them into the same terms. PostgreSQL: a stored generated tsvector column (the
 * `simple` configuration, weights A, B, … by column order) with a GIN index. SQLite: an FTS5 table
 * with external content (`<table>_fts`, rowid = id) and the three triggers that keep it in sync.
 * Applied migrations call this, so what it emits must never change: a different index needs a new helper.
 */
export function createFullTextIndex(db: AnyDb, index: FullTextIndex): Promise<void> {
  return sqlDialectOf(db).createFullTextIndex(db, index);
}

/** Undoes createFullTextIndex. */
export function dropFullTextIndex(db: AnyDb, index: FullTextIndex): Promise<void> {
  return sqlDialectOf(db).dropFullTextIndex(db, index);
}

/**
 * Creates the dialect's index for `index` (columns of normalized words, see normalizeSearchWords),
 * kept in sync by the database on every insert, update and delete. PostgreSQL: two stored
 * generated tsvectors (`simple` configuration, weights A, B, … by column order), one over every
 * column and one over the restricted columns, each with a GIN index. SQLite: an FTS5 table with
 * external content (`<table>_fts`, rowid = id) with prefix indexes for 1 to 3 characters, so a
 * one-letter prefix reads one doclist rather than every term starting with it, and its triggers.
 * Applied migrations call this, so what it emits must never change: a different index needs a new helper.
 */
export function createFieldedTextIndex(db: AnyDb, index: FieldedTextIndex): Promise<void> {
  return sqlDialectOf(db).createFieldedTextIndex(db, index);
}

/** Undoes createFieldedTextIndex. */
export function dropFieldedTextIndex(db: AnyDb, index: FieldedTextIndex): Promise<void> {
  return sqlDialectOf(db).dropFieldedTextIndex(db, index);
}

/**
 * The `limit` best rows of `index.table` matching every word (a word of three or more characters as
 * a prefix: `e3b0` finds a hash starting so; a shorter one whole), in any column or, when
 * `restricted`, in the restricted columns only; as a query with columns `id` and `score` (higher is
 * better). The ranking is the same in kind on both dialects: a match counts by the weight of its
 * column (FIELD_WEIGHTS: the first ten times the third, five times the second), more occurrences
 * count more and longer rows less, and a row whose first column holds all the words, whole,
 * adjacent and in order (a full purl or hash) gets EXACT_MATCH_BOOST. The database ranks inside its
 * index and hands over `limit` rows at most, so what the caller joins and reads is bounded whatever
 * the words. PostgreSQL: ts_rank with those weights, normalized by 1 + the logarithm of the row's
 * length (as float8, so a score round-trips through JavaScript exactly); the exact match is a
 * phrase query over the first column's lexemes (ts_filter, weight A). SQLite: FTS5 MATCH ranked by
 * bm25 (negated) with those weights; the exact match is a phrase query on the first column.
 * `words` must come from normalizeSearchWords and be non-empty (letters and digits only: nothing
 * in them is an operator of either query language).
 */
export function rankedTextMatches(
  db: AnyDb,
  index: FieldedTextIndex,
  words: readonly string[],
  options: { restricted: boolean; limit: number },
): RawBuilder<{ id: number; score: number }> {
  if (words.length === 0) throw new TypeError('words: expected at least one word');
  return sqlDialectOf(db).rankedTextMatches(index, words, options);
}
