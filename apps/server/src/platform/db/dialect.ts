import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';

// The one place where SQLite and PostgreSQL are told apart: services and the scheduler say what they
// need (a row lock, a claim that skips rows others hold, one runner at a time) and these helpers
// pick the dialect's way of doing it. An eslint rule keeps `dialectOf` inside platform/db/.

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

/** First key of the transaction advisory locks of takeTurnsOn ('VIG2'): apart from the scheduler's session locks ('VIG1'). */
export const TRANSACTION_LOCK_NAMESPACE = 0x56494732;

/**
 * Inside a transaction: transactions calling this with the same `key` take turns until each ends,
 * so a read-then-insert under the key (does an artifact with these bytes exist in this track?) sees
 * what the previous holder committed, where no unique index can say it. PostgreSQL: a
 * transaction-scoped advisory lock on a hash of the schema and the key (a hash collision only makes
 * two keys share turns). SQLite: nothing, for the reason given at lockForUpdate.
 */
export async function takeTurnsOn(trx: AnyDb, key: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${TRANSACTION_LOCK_NAMESPACE}::integer, hashtext(current_schema() || '/' || ${key}::text))`.execute(trx);
}

/**
 * `column IN (values)` with the whole list bound as one parameter, so a lookup of 2,000 keys (or
 * 200,000) is one statement of fixed size, under any bound-parameter limit, and still an index probe
 * per key. PostgreSQL: `column = any($1::text[])`. SQLite: `column in (select value from
 * json_each($1))`, the list sent as a JSON array.
 */
export function inTextList(db: AnyDb, column: string, values: readonly string[]): RawBuilder<SqlBool> {
  if (dialectOf(db) === 'postgres') return sql<SqlBool>`${sql.ref(column)} = any(${[...values]}::text[])`;
  return sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(values)}))`;
}

/**
 * The text value of a top-level `key` of the JSON object stored as text in `column` (null when the
 * key is absent). PostgreSQL: `(column::jsonb ->> key)`. SQLite: `json_extract(column, '$.key')`.
 * `key` must be a plain identifier (letters, digits, `_`).
 */
export function jsonTextField(db: AnyDb, column: string, key: string): RawBuilder<string | null> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new TypeError(`key: expected a plain identifier, got ${JSON.stringify(key)}`);
  if (dialectOf(db) === 'postgres') return sql<string | null>`(${sql.ref(column)}::jsonb ->> ${sql.lit(key)})`;
  return sql<string | null>`json_extract(${sql.ref(column)}, ${sql.lit(`$.${key}`)})`;
}

/**
 * `column` for ORDER BY in byte order (code point order of the UTF-8 text: `-` < `0` < `B` < `_` < `a`),
 * whatever collation the database was created with, so a documented order holds on every deployment.
 * PostgreSQL: `column collate "C"`. SQLite: the column itself (its default BINARY collation).
 */
export function byteOrder(db: AnyDb, column: string): RawBuilder<string> {
  return dialectOf(db) === 'postgres' ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
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
 * kysely's migration lock on PostgreSQL (its PostgresAdapter takes `pg_advisory_lock` of this key
 * before migrating, and older Vigil versions rely on that alone). One key per database, whatever
 * the schema: deployments in different schemas of one database migrate one at a time.
 */
export const POSTGRES_MIGRATION_LOCK_KEY = 3853314791062309107n;

/** How often a migration waiting for the lock asks again. */
const MIGRATION_LOCK_POLL_MS = 50;

/** The migration lock was held by someone else for longer than the caller would wait. */
export class MigrationLockTimeoutError extends Error {
  override name = 'MigrationLockTimeoutError';
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
export async function withMigrationLock<T>(db: AnyDb, timeoutMs: number, work: (conn: AnyDb) => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const waitOrGiveUp = async () => {
    if (Date.now() >= deadline) {
      throw new MigrationLockTimeoutError(`another process held the migration lock for over ${timeoutMs} ms (VIGIL_MIGRATION_LOCK_TIMEOUT_MS)`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(MIGRATION_LOCK_POLL_MS, Math.max(1, deadline - Date.now()))));
  };
  if (dialectOf(db) === 'postgres') {
    return db.connection().execute(async (conn) => {
      for (;;) {
        const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${sql.lit(POSTGRES_MIGRATION_LOCK_KEY)}) as locked`.execute(conn);
        if (rows[0]?.locked === true) break;
        await waitOrGiveUp();
      }
      try {
        return await work(conn);
      } finally {
        // A connection that broke meanwhile took the lock with it.
        await sql`select pg_advisory_unlock(${sql.lit(POSTGRES_MIGRATION_LOCK_KEY)})`.execute(conn).catch(() => undefined);
      }
    });
  }
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(conn);
    const busyTimeout = Number(rows[0]?.timeout ?? 0);
    await sql`pragma busy_timeout = 0`.execute(conn);
    try {
      for (;;) {
        try {
          await sql`begin immediate`.execute(conn);
          break;
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
          await waitOrGiveUp();
        }
      }
    } finally {
      await sql.raw(`pragma busy_timeout = ${busyTimeout}`).execute(conn);
    }
    let result: T;
    try {
      result = await work(conn);
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
    await sql`commit`.execute(conn);
    return result;
  });
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

/** A full-text index over some text columns of a table with an integer `id` primary key. */
export interface FullTextIndex {
  table: string;
  /** Weighted in this order: the first ranks highest (at most 4). */
  columns: readonly string[];
}

function ftsTableName(index: FullTextIndex): string {
  return `${index.table}_fts`;
}

const TSVECTOR_COLUMN = 'search_vector';
const PG_WEIGHTS = ['A', 'B', 'C', 'D'] as const;

/**
 * Creates the dialect's own full-text index over `index.columns`, kept in sync by the database
 * itself on every insert, update and delete of the table. The columns must hold normalized words
 * (see normalizeSearchWords): lowercase letters and digits separated by single spaces, so both
 * tokenizers cut them into the same terms. PostgreSQL: a stored generated tsvector column (the
 * `simple` configuration, weights A, B, … by column order) with a GIN index. SQLite: an FTS5 table
 * with external content (`<table>_fts`, rowid = id) and the three triggers that keep it in sync.
 * Applied migrations call this, so what it emits must never change: a different index needs a new helper.
 */
export async function createFullTextIndex(db: AnyDb, index: FullTextIndex): Promise<void> {
  const table = sql.table(index.table);
  if (dialectOf(db) === 'postgres') {
    const vector = sql.join(
      index.columns.map((column, i) => sql`setweight(to_tsvector('simple'::regconfig, ${sql.ref(column)}), ${sql.lit(PG_WEIGHTS[i]!)})`),
      sql` || `,
    );
    await sql`alter table ${table} add column ${sql.ref(TSVECTOR_COLUMN)} tsvector generated always as (${vector}) stored`.execute(db);
    await sql`create index ${sql.ref(`${index.table}_fts_idx`)} on ${table} using gin (${sql.ref(TSVECTOR_COLUMN)})`.execute(db);
    return;
  }
  const fts = sql.table(ftsTableName(index));
  const columns = sql.join(index.columns.map((c) => sql.ref(c)));
  const newValues = sql.join(index.columns.map((c) => sql`new.${sql.ref(c)}`));
  const oldValues = sql.join(index.columns.map((c) => sql`old.${sql.ref(c)}`));
  await sql`create virtual table ${fts} using fts5(${columns}, content=${sql.lit(index.table)}, content_rowid='id')`.execute(db);
  await sql`create trigger ${sql.ref(`${index.table}_fts_ai`)} after insert on ${table} begin
    insert into ${fts}(rowid, ${columns}) values (new.id, ${newValues}); end`.execute(db);
  await sql`create trigger ${sql.ref(`${index.table}_fts_ad`)} after delete on ${table} begin
    insert into ${fts}(${fts}, rowid, ${columns}) values ('delete', old.id, ${oldValues}); end`.execute(db);
  await sql`create trigger ${sql.ref(`${index.table}_fts_au`)} after update on ${table} begin
    insert into ${fts}(${fts}, rowid, ${columns}) values ('delete', old.id, ${oldValues});
    insert into ${fts}(rowid, ${columns}) values (new.id, ${newValues}); end`.execute(db);
}

/** Undoes createFullTextIndex. */
export async function dropFullTextIndex(db: AnyDb, index: FullTextIndex): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop index ${sql.ref(`${index.table}_fts_idx`)}`.execute(db);
    await sql`alter table ${sql.table(index.table)} drop column ${sql.ref(TSVECTOR_COLUMN)}`.execute(db);
    return;
  }
  for (const suffix of ['ai', 'ad', 'au']) await sql`drop trigger ${sql.ref(`${index.table}_fts_${suffix}`)}`.execute(db);
  await sql`drop table ${sql.table(ftsTableName(index))}`.execute(db);
}

/**
 * Lowercase letters and digits of `text` (diacritics removed), every other character a separator:
 * what the full-text columns hold and what a query is cut into, the same on both dialects.
 */
export function normalizeSearchWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * A full-text index whose searches may leave out trailing columns: `columns` in rank order (at most
 * 4), and a restricted search matches only the first `restrictedColumns` of them (the search index
 * of migration 0016 keeps findings-derived words in its last column, which plans without findings
 * must never match, docs/search.md).
 */
export interface FieldedTextIndex {
  table: string;
  columns: readonly string[];
  restrictedColumns: number;
}

const FULL_VECTOR = 'full_vector';
const RESTRICTED_VECTOR = 'restricted_vector';

function weightedVector(columns: readonly string[]): RawBuilder<unknown> {
  return sql.join(
    columns.map((column, i) => sql`setweight(to_tsvector('simple'::regconfig, ${sql.ref(column)}), ${sql.lit(PG_WEIGHTS[i]!)})`),
    sql` || `,
  );
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
export async function createFieldedTextIndex(db: AnyDb, index: FieldedTextIndex): Promise<void> {
  const table = sql.table(index.table);
  if (dialectOf(db) === 'postgres') {
    const restricted = weightedVector(index.columns.slice(0, index.restrictedColumns));
    await sql`alter table ${table} add column ${sql.ref(FULL_VECTOR)} tsvector generated always as (${weightedVector(index.columns)}) stored`.execute(db);
    await sql`alter table ${table} add column ${sql.ref(RESTRICTED_VECTOR)} tsvector generated always as (${restricted}) stored`.execute(db);
    await sql`create index ${sql.ref(`${index.table}_full_idx`)} on ${table} using gin (${sql.ref(FULL_VECTOR)})`.execute(db);
    await sql`create index ${sql.ref(`${index.table}_restricted_idx`)} on ${table} using gin (${sql.ref(RESTRICTED_VECTOR)})`.execute(db);
    return;
  }
  const fts = sql.table(`${index.table}_fts`);
  const columns = sql.join(index.columns.map((c) => sql.ref(c)));
  const newValues = sql.join(index.columns.map((c) => sql`new.${sql.ref(c)}`));
  const oldValues = sql.join(index.columns.map((c) => sql`old.${sql.ref(c)}`));
  await sql`create virtual table ${fts} using fts5(${columns}, content=${sql.lit(index.table)}, content_rowid='id', prefix='1 2 3')`.execute(db);
  await sql`create trigger ${sql.ref(`${index.table}_fts_ai`)} after insert on ${table} begin
    insert into ${fts}(rowid, ${columns}) values (new.id, ${newValues}); end`.execute(db);
  await sql`create trigger ${sql.ref(`${index.table}_fts_ad`)} after delete on ${table} begin
    insert into ${fts}(${fts}, rowid, ${columns}) values ('delete', old.id, ${oldValues}); end`.execute(db);
  await sql`create trigger ${sql.ref(`${index.table}_fts_au`)} after update on ${table} begin
    insert into ${fts}(${fts}, rowid, ${columns}) values ('delete', old.id, ${oldValues});
    insert into ${fts}(rowid, ${columns}) values (new.id, ${newValues}); end`.execute(db);
}

/** Undoes createFieldedTextIndex. */
export async function dropFieldedTextIndex(db: AnyDb, index: FieldedTextIndex): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    for (const suffix of ['full', 'restricted']) await sql`drop index ${sql.ref(`${index.table}_${suffix}_idx`)}`.execute(db);
    for (const column of [FULL_VECTOR, RESTRICTED_VECTOR]) await sql`alter table ${sql.table(index.table)} drop column ${sql.ref(column)}`.execute(db);
    return;
  }
  for (const suffix of ['ai', 'ad', 'au']) await sql`drop trigger ${sql.ref(`${index.table}_fts_${suffix}`)}`.execute(db);
  await sql`drop table ${sql.table(`${index.table}_fts`)}`.execute(db);
}

/** Relative weight of a match per column of a FieldedTextIndex, first column first (SQLite's bm25 weights). */
const FIELD_WEIGHTS = [10, 2, 1, 1] as const;

/**
 * The same weights for PostgreSQL's ts_rank, which lists them {D, C, B, A} (A is the first column)
 * and takes them in [0, 1]: the first column 1.0, the second 0.2, the third and fourth 0.1.
 */
const PG_RANK_WEIGHTS = `{${[...FIELD_WEIGHTS].reverse().map((w) => w / FIELD_WEIGHTS[0]).join(', ')}}`;

/**
 * Added to the score of a row whose first column (the identifiers) holds every word, whole, in the
 * order given and adjacent: a purl, hash or name searched for in full. It exceeds any score either
 * database gives otherwise (ts_rank is at most 1; bm25 over at most 16 words stays far below), so
 * such rows come first.
 */
export const EXACT_MATCH_BOOST = 10_000;

/** Words this short match whole words only: as prefixes they would match nearly every entry (`2`, `4a`). */
export const MIN_PREFIX_WORD_LENGTH = 3;

/** Whether a search word matches an indexed word: as a prefix, or whole when it is short. */
export function searchWordMatches(word: string, indexed: string): boolean {
  return word.length >= MIN_PREFIX_WORD_LENGTH ? indexed.startsWith(word) : indexed === word;
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
  const prefix = (w: string) => w.length >= MIN_PREFIX_WORD_LENGTH;
  if (dialectOf(db) === 'postgres') {
    const vector = sql.ref(options.restricted ? RESTRICTED_VECTOR : FULL_VECTOR);
    const query = words.map((w) => (prefix(w) ? `'${w}':*` : `'${w}'`)).join(' & ');
    const phrase = words.map((w) => `'${w}'`).join(' <-> ');
    // to_tsquery, not a cast: the words go through the parser that built the vector, which splits
    // some of what normalizeSearchWords keeps whole (`3e7fab12` is the number `3e7` and `fab12`), so
    // a hash holding such a run is found (as adjacent parts, each a prefix when the word is).
    return sql<{ id: number; score: number }>`select id, (ts_rank(${sql.lit(PG_RANK_WEIGHTS)}, ${vector}, to_tsquery('simple'::regconfig, ${query}), 1)
        + case when ts_filter(${vector}, '{a}') @@ to_tsquery('simple'::regconfig, ${phrase}) then ${sql.lit(EXACT_MATCH_BOOST)} else 0 end)::float8 as score
      from ${sql.table(index.table)} where ${vector} @@ to_tsquery('simple'::regconfig, ${query}) order by score desc, id limit ${sql.lit(options.limit)}`;
  }
  const fts = sql.table(`${index.table}_fts`);
  const phrases = words.map((w) => (prefix(w) ? `"${w}"*` : `"${w}"`)).join(' AND ');
  const query = options.restricted ? `{${index.columns.slice(0, index.restrictedColumns).join(' ')}} : (${phrases})` : phrases;
  const exact = `{${index.columns[0]!}} : "${words.join(' ')}"`;
  const weights = sql.join(index.columns.map((_, i) => sql.lit(FIELD_WEIGHTS[i]!)));
  return sql<{ id: number; score: number }>`select rowid as id, -bm25(${fts}, ${weights})
        + case when rowid in (select rowid from ${fts} where ${fts} match ${exact}) then ${sql.lit(EXACT_MATCH_BOOST)} else 0 end as score
    from ${fts} where ${fts} match ${query} order by score desc, rowid limit ${sql.lit(options.limit)}`;
}
