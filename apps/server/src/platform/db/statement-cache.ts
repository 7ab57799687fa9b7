import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many distinct statements stay prepared: the server's queries, with room for `IN (…)` lists of several lengths. */
export const STATEMENT_CACHE_SIZE = 512;

/**
 * Longer SQL is prepared afresh every time and never kept: multi-row inserts (up to 30,000
 * parameters a statement, `chunkRows`) and long `IN (…)` lists get a new text for every row count,
 * and one such statement prepared holds about 3 MB, so keeping 512 of them could hold gigabytes and
 * push the hot reads out.
 */
export const MAX_CACHED_SQL_LENGTH = 4096;

/**
 * The better-sqlite3 connection as Kysely's SQLite driver sees it, with its prepared statements
 * kept for reuse. Kysely's driver calls `prepare` for every query it runs, and better-sqlite3
 * compiles the SQL again each time: for a read such as `GET /v1/attestations/{hash}` compiling was
 * the largest single cost of the request after the socket write (docs/benchmarks.md, "Prepared
 * statements"). Kysely sends the same SQL text for the same query shape (values travel as
 * parameters), so a cache keyed by the text hits on every request after the first; texts longer
 * than MAX_CACHED_SQL_LENGTH (batch inserts, long `IN` lists, whose text changes with their length)
 * are compiled each time as before.
 *
 * The least recently used statement goes first once `size` are kept. A statement still being
 * iterated (a streamed select not yet finished) cannot run a second query, so such a one is never
 * handed out: the caller gets a fresh statement instead. SQLite recompiles a kept statement by
 * itself when the schema changes under it (a migration), as it does for any prepared statement.
 */
export function cachingStatements(sqlite: BetterSqlite3.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const kept = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      if (sql.length > MAX_CACHED_SQL_LENGTH) return sqlite.prepare(sql);
      const hit = kept.get(sql);
      if (hit !== undefined && !hit.busy) {
        // Map order is insertion order: moved to the end, it is the most recently used.
        kept.delete(sql);
        kept.set(sql, hit);
        return hit;
      }
      const statement = sqlite.prepare(sql);
      if (hit !== undefined) return statement;
      kept.set(sql, statement);
      if (kept.size > size) kept.delete(kept.keys().next().value!);
      return statement;
    },
  };
}
