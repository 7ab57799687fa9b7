import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { VigilDatabase } from '../platform/db/database.js';
// eslint-disable-next-line no-restricted-imports -- a test may hand in a bare Kysely; the runtime's VigilDatabase names its dialect
import { dialectOf } from '../platform/db/dialect.js';
import type { Database } from '../platform/db/schema.js';
import { openMigratedSqlite } from './migrated-sqlite.js';
import { createRuntime, type Runtime, type RuntimeOverrides } from '../runtime.js';
import type { DialectContext } from './databases.js';

export interface TestAppOptions {
  /** Variables as `loadConfig` reads them, over the test defaults (LOG_LEVEL=silent, VIGIL_REGISTRY_FETCH=false). */
  env?: Record<string, string>;
  /** Settings over the loaded configuration. */
  config?: Partial<Config>;
  /** The data directory (server key, blobs/, metagraph.json); absent, a fresh one removed at close. */
  dataDir?: string;
  /**
   * The database served: a dialect context's (describeEachDialect), an open one or its Kysely, left
   * open at close; absent, a fresh migrated in-memory SQLite closed at close.
   */
  database?: VigilDatabase | DialectContext | Kysely<Database>;
  /** What the test puts in place of the runtime's own (clock, log stream, blobs, metagraph, …). */
  overrides?: Omit<RuntimeOverrides, 'database'>;
  /** Registers test-only routes before the server starts listening. */
  register?: (app: FastifyInstance) => void;
  /** Listen on this port (default: a free one). */
  port?: number;
  /** Whether to listen at all (default true); `false` leaves `app.inject` only. */
  listen?: boolean;
}

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  config: Config;
  dataDir: string;
  database: VigilDatabase;
  /** `http://127.0.0.1:<port>`; empty when not listening. */
  url: string;
  port: number;
  /** Closes the app, then the runtime, then what the helper made (database, data directory). */
  close(): Promise<void>;
}

/** The test's database as the runtime takes it; closing it is left to whoever opened it. */
function borrowed(database: VigilDatabase | DialectContext | Kysely<Database>): VigilDatabase {
  if ('selectFrom' in database) return { db: database, dialect: dialectOf(database), close: async () => {} };
  if (typeof database.db === 'function') return { db: database.db(), dialect: database.dialect, close: async () => {} };
  return database as VigilDatabase;
}

/**
 * The production app, built by `buildApp` on a runtime from `createRuntime`, as `serve` builds it,
 * over the test's database: the one way tests start a Vigil server.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'vigil-test-'));
  // Registry fetching off unless a test turns it on: a test server never reaches the public
  // registries (the registry tests point it at a local Verdaccio and PyPI stand-in).
  // Everything under the data directory (blobs/, metagraph.json), as `serve` keeps it with VIGIL_DATA_DIR set.
  const config: Config = { ...loadConfig({ LOG_LEVEL: 'silent', VIGIL_REGISTRY_FETCH: 'false', VIGIL_DATA_DIR: dataDir, ...options.env }, dataDir), ...options.config };
  const given = options.database;
  const ownsDatabase = given === undefined;
  const database = given === undefined ? await openMigratedSqlite() : borrowed(given);
  try {
    const runtime = await createRuntime(config, { ...options.overrides, database });
    const app = await buildApp(runtime).catch(async (error: unknown) => {
      await runtime.close();
      throw error;
    });
    options.register?.(app);
    let port = 0;
    if (options.listen !== false) {
      await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('server did not bind a TCP port');
      port = address.port;
    }
    return {
      app,
      runtime,
      config,
      dataDir,
      database,
      url: port === 0 ? '' : `http://127.0.0.1:${port}`,
      port,
      close: async () => {
        await app.close();
        await runtime.close();
        if (ownsDatabase) await database.close();
        if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (ownsDatabase) await database.close();
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
