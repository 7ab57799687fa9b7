import type { CreateTableBuilder, Kysely, RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely';

// What SQLite and PostgreSQL do differently, as one capability object per dialect (like kysely's
// DialectAdapter): postgres-dialect.ts and sqlite-dialect.ts implement it, dialect.ts picks one per
// database when it opens and offers the intent-named helpers services call. What follows the
// interface is what both implementations share.

export type DialectName = 'sqlite' | 'postgres';

// Helpers take any schema: migrations describe tables that the current Database interface may no
// longer match.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySelect = SelectQueryBuilder<any, any, any>;

/** One dialect's way of doing each thing the two databases do differently (documented at the helpers in dialect.ts). */
export interface SqlDialect {
  readonly name: DialectName;
  lockForUpdate<Q extends AnySelect>(query: Q): Q;
  shareLock<Q extends AnySelect>(query: Q, table: string): Q;
  skipLockedClause(alias: string): RawBuilder<unknown>;
  takeTurnsOn(trx: AnyDb, key: string): Promise<void>;
  inTextList(column: string, values: readonly string[]): RawBuilder<SqlBool>;
  jsonTextField(column: string, key: string): RawBuilder<string | null>;
  byteOrder(column: string): RawBuilder<string>;
  readonly singleRunnerStrategy: 'advisory-lock' | 'lease-row';
  withMigrationLock<T>(db: AnyDb, timeoutMs: number, work: (conn: AnyDb) => Promise<T>): Promise<T>;
  migrationTableSchema(db: AnyDb): Promise<string | undefined>;
  addIdColumn<T extends string, C extends string>(table: CreateTableBuilder<T, never>, column: C): CreateTableBuilder<T, C>;
  createFullTextIndex(db: AnyDb, index: FullTextIndex): Promise<void>;
  dropFullTextIndex(db: AnyDb, index: FullTextIndex): Promise<void>;
  createFieldedTextIndex(db: AnyDb, index: FieldedTextIndex): Promise<void>;
  dropFieldedTextIndex(db: AnyDb, index: FieldedTextIndex): Promise<void>;
  rankedTextMatches(index: FieldedTextIndex, words: readonly string[], options: { restricted: boolean; limit: number }): RawBuilder<{ id: number; score: number }>;
}

/** First key of the transaction advisory locks of takeTurnsOn ('VIG2'): apart from the scheduler's session locks ('VIG1'). */
export const TRANSACTION_LOCK_NAMESPACE = 0x56494732;

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

/** Waits one poll for the migration lock, or throws MigrationLockTimeoutError once `timeoutMs` from now has passed. */
export function migrationLockWaiter(timeoutMs: number): () => Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return async () => {
    if (Date.now() >= deadline) {
      throw new MigrationLockTimeoutError(`another process held the migration lock for over ${timeoutMs} ms (VIGIL_MIGRATION_LOCK_TIMEOUT_MS)`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(MIGRATION_LOCK_POLL_MS, Math.max(1, deadline - Date.now()))));
  };
}

/** A full-text index over some text columns of a table with an integer `id` primary key. */
export interface FullTextIndex {
  table: string;
  /** Weighted in this order: the first ranks highest (at most 4). */
  columns: readonly string[];
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

/** Relative weight of a match per column of a FieldedTextIndex, first column first (SQLite's bm25 weights). */
export const FIELD_WEIGHTS = [10, 2, 1, 1] as const;

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
