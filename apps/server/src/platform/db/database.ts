import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, type LogEvent, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { redactUrl } from '../log/redact-url.js';
import { chooseDialect, type DialectName } from './dialect.js';
import { EmptyListPlugin } from './empty-list-plugin.js';
import { ImmediateSqliteDialect } from './immediate-sqlite-dialect.js';
import { cachingStatements } from './statement-cache.js';
import type { Database } from './schema.js';

export interface VigilDatabase {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /**
   * `postgres://…` / `postgresql://…` selects PostgreSQL. `sqlite:<file>` opens that SQLite file (its
   * directory created if missing) and `:memory:` (or `sqlite::memory:`) an in-memory one. Unset or
   * empty selects `<dataDir>/vigil.db`. Any other scheme is refused rather than silently falling
   * back to SQLite.
   */
  url?: string;
  /** SQLite: the file is `<dataDir>/vigil.db` (the directory is created). `:memory:` opens an in-memory database. */
  dataDir?: string;
  /**
   * PostgreSQL: called when a pooled connection fails (server restart, network cut, reset), idle or
   * in the middle of a query. The query in flight fails (the request answers 502) and the pool
   * drops that connection; without a listener pg would turn the event into an uncaught exception
   * and end the process.
   */
  onConnectionError?: (error: Error) => void;
  /** PostgreSQL: how long to wait for a connection before the request fails (VIGIL_DB_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL: the longest a statement may run, enforced by the server (`statement_timeout`) and,
   * for a server that stops answering, by the client a second later (VIGIL_DB_STATEMENT_TIMEOUT_MS).
   */
  statementTimeoutMs?: number;
  /** Metrics hooks (platform/metrics); absent, nothing is timed. */
  instrument?: DatabaseInstrumentation;
}

/** What `openDatabase` reports when asked to: each statement, each wait for a pooled connection, the pool. */
export interface DatabaseInstrumentation {
  /** One statement: kysely's node kind (`SelectQueryNode`, `RawNode`, …), whether it failed, its time. */
  query(nodeKind: string, failed: boolean, seconds: number): void;
  /** PostgreSQL: how long a connection took to come from the pool. */
  acquire(seconds: number): void;
  /** PostgreSQL: reports the pool's counters until the returned function is called. */
  watchPool(pool: { totalCount: number; idleCount: number; waitingCount: number }): () => void;
}

/** kysely's `log` option timing every statement, or nothing. */
function queryLog(instrument: DatabaseInstrumentation | undefined): { log?: (event: LogEvent) => void } {
  if (instrument === undefined) return {};
  return { log: (event) => instrument.query(event.query.query.kind, event.level === 'error', event.queryDurationMillis / 1000) };
}

export const DEFAULT_DB_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_DB_STATEMENT_TIMEOUT_MS = 30_000;
/**
 * Migrations' statement bound: ten minutes, for an index built or a column rewritten over a large
 * table, where a request's bound (seconds) would fail a migration that is only slow.
 */
export const DEFAULT_DB_MIGRATION_STATEMENT_TIMEOUT_MS = 600_000;
/** The client gives a silent server this much longer than the server's own statement timeout. */
const CLIENT_QUERY_TIMEOUT_MARGIN_MS = 1_000;
/**
 * How long `close` waits for queries still holding a connection. A request that timed out (504)
 * may have left its query on a server that stopped answering; the pool's `end` would wait for it
 * up to the statement timeout, past the shutdown grace. The server rolls such a transaction back
 * when the connection goes away with the process.
 */
export const POSTGRES_CLOSE_BOUND_MS = 2_000;

const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;

// Scoped to this pool's clients (not pg's process-wide `types`): epoch-millisecond times are
// bigint and counts come back as int8/numeric, and all of them fit in a JS number.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === PG_INT8_OID || oid === PG_NUMERIC_OID) {
      return (value: string) => Number(value);
    }
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
};

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(?:ql)?:\/\//i.test(url);
}

/** Opens (does not migrate) the database selected by `url` / `dataDir`. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<VigilDatabase> {
  if (isPostgresUrl(options.url)) {
    const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_DB_STATEMENT_TIMEOUT_MS;
    const pool = new pg.Pool({
      connectionString: options.url,
      types: pgTypes,
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_DB_CONNECT_TIMEOUT_MS,
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + CLIENT_QUERY_TIMEOUT_MARGIN_MS,
      keepAlive: true,
    });
    const onError = (error: Error) => options.onConnectionError?.(error);
    // pg-pool listens for errors of idle clients only; a client checked out by a query that loses
    // its socket emits 'error' with no listener, which would end the process.
    pool.on('connect', (client) => client.on('error', onError));
    pool.on('error', onError);
    // Fail now, with the connection error, rather than on the first request.
    const client = await pool.connect().catch(async (error: unknown) => {
      await pool.end();
      throw new Error(`options.url: cannot connect to PostgreSQL at ${redactUrl(options.url ?? '')}: ${(error as Error).message}`, {
        cause: error,
      });
    });
    client.release();
    const instrument = options.instrument;
    const unwatch = instrument?.watchPool(pool);
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: droppingBrokenConnections(pool, instrument) }),
      plugins: [new EmptyListPlugin()],
      ...queryLog(instrument),
    });
    const close = async () => {
      unwatch?.();
      let bound: NodeJS.Timeout | undefined;
      const abandoned = new Promise<void>((resolve) => {
        bound = setTimeout(resolve, POSTGRES_CLOSE_BOUND_MS);
      });
      await Promise.race([db.destroy(), abandoned]).finally(() => clearTimeout(bound));
    };
    chooseDialect(db, 'postgres');
    return { db, dialect: 'postgres', close };
  }

  const sqlite = new BetterSqlite3(sqliteFile(options));
  return openSqliteHandle(sqlite, options.instrument);
}

/**
 * The pool kysely uses, handing back to pg's pool a connection whose query failed without an answer
 * from PostgreSQL as broken (`release(error)`), so the pool destroys it instead of lending it again.
 * After pg's client-side `Query read timeout` the connection still waits for the lost answer, and
 * every query later sent on it would queue behind that answer and time out in turn: a network that
 * dropped bytes for a few seconds would poison the pool for as long as those sockets stay open.
 * Once a query failed that way, the connection also refuses the rest of its transaction (kysely's
 * rollback included) at once rather than waiting out another timeout. An error PostgreSQL itself
 * reported (a constraint, a statement timeout) leaves the connection usable.
 */
function droppingBrokenConnections(pool: pg.Pool, instrument: DatabaseInstrumentation | undefined): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const started = instrument ? performance.now() : 0;
      const client = await pool.connect();
      instrument?.acquire((performance.now() - started) / 1000);
      let broken: Error | undefined;
      const query = async (text: string, parameters: readonly unknown[]) => {
        if (broken !== undefined) throw broken;
        try {
          return await client.query(text, [...parameters]);
        } catch (error) {
          if (!(error instanceof pg.DatabaseError)) broken = error as Error;
          throw error;
        }
      };
      return {
        // kysely calls only query(sql, parameters): no cursor is configured (nothing streams rows).
        query: query as unknown as PostgresPoolClient['query'],
        release: () => client.release(broken),
      };
    },
    end: () => pool.end(),
  };
}

function sqliteFile(options: OpenDatabaseOptions): string {
  const url = options.url ?? '';
  if (url === ':memory:' || url === 'sqlite::memory:') return ':memory:';
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file === '') throw new Error('options.url: sqlite: needs a file path');
    // Like the data directory: created if missing, rather than an exit over a missing folder.
    mkdirSync(dirname(file), { recursive: true });
    return file;
  }
  if (url !== '') {
    throw new Error(`options.url: unsupported database url (expected postgres://, postgresql://, sqlite:<file> or :memory:)`);
  }
  const dataDir = options.dataDir;
  if (dataDir === undefined || dataDir === '') {
    throw new Error('options.dataDir: required for SQLite when no url is given');
  }
  if (dataDir === ':memory:') return ':memory:';
  mkdirSync(dataDir, { recursive: true });
  return join(dataDir, 'vigil.db');
}

/**
 * A Vigil database over a better-sqlite3 connection already open: a file, `:memory:`, or a
 * serialized image (`new BetterSqlite3(buffer)`, which the tests use to start each test from one
 * migrated copy instead of migrating again). Closing the database closes the connection.
 */
export function openSqliteHandle(sqlite: BetterSqlite3.Database, instrument?: DatabaseInstrumentation): VigilDatabase {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // WAL makes NORMAL durable against application crashes; only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: cachingStatements(sqlite) }), plugins: [new EmptyListPlugin()], ...queryLog(instrument) });
  chooseDialect(db, 'sqlite');
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
