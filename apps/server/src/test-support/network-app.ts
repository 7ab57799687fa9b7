import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetagraphSnapshot } from '@vigil/core';
import type { FastifyInstance } from 'fastify';
import { createFileBlobStore, type BlobStore } from '../platform/blobs/index.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type VigilDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { buildApp } from '../app.js';
import { CachedMetagraph, FileMetagraphSource } from '../features/network/metagraph/index.js';
import { createPolicyInputSources } from '../features/policies/create-input-sources.js';
import { createPublicReadService } from '../features/network/public-reads/public-read-service.js';

export interface NetworkApp {
  dir: string;
  database: VigilDatabase;
  blobs: BlobStore;
  app: FastifyInstance;
  baseUrl: string;
  /** The snapshot file the server reads permits from; tests may rewrite it. */
  metagraphFile: string;
  /**
   * The server's clock in epoch ms when `clock` was given (tests move it); `null` means the real
   * clock is used.
   */
  clock: number | null;
  close(): Promise<void>;
}

/**
 * A real, listening Vigil with the public and signed endpoints: in-memory SQLite, a blob store and
 * a metagraph snapshot file in a temp directory, the configured defaults otherwise.
 */
export async function startNetworkApp(options: {
  snapshot: MetagraphSnapshot;
  /** Pins the server's clock (and the metagraph cache's) to a value tests move; real time when absent. */
  clock?: number;
  bundleLimitBytes?: number;
  maxStalenessSeconds?: number;
  /** VIGIL_VALIDATOR_REGISTRATION (default open). */
  validatorRegistration?: 'open' | 'approval';
  /**
   * Serve this database (e.g. describeEachDialect's PostgreSQL one) instead of a fresh in-memory
   * SQLite; the caller keeps it open and closes it.
   */
  database?: VigilDatabase;
  /** Settings over the defaults, e.g. `redisUrl` to share state through a (possibly faulty) Redis. */
  config?: Partial<Config>;
  /**
   * Serve from this data directory (server identity, blobs, metagraph file) and leave it in place
   * on close; with `database` and `port`, a second start is the same server restarted.
   */
  dir?: string;
  /** Listen on this port instead of a free one. */
  port?: number;
}): Promise<NetworkApp> {
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'vigil-network-')));
  const metagraphFile = join(dir, 'metagraph.json');
  await writeFile(metagraphFile, JSON.stringify(options.snapshot));
  const config: Config = { ...loadConfig({ LOG_LEVEL: 'warn' }, dir), dataDir: dir, ...options.config };
  const ownDatabase = options.database === undefined;
  const database = options.database ?? (await openDatabase({ url: ':memory:' }));
  if (ownDatabase) await migrateToLatest(database.db);
  const blobs = createFileBlobStore(join(dir, 'blobs'));
  const env = { dir, database, blobs, metagraphFile, clock: options.clock ?? null } as NetworkApp;
  const now = () => env.clock ?? Date.now();
  const metagraph = new CachedMetagraph({
    source: new FileMetagraphSource(metagraphFile),
    ...(options.maxStalenessSeconds !== undefined ? { ttlSeconds: 60, maxStalenessSeconds: options.maxStalenessSeconds, retryIntervalSeconds: 1 } : {}),
    now,
  });
  env.app = await buildApp({
    config,
    readService: createPublicReadService(database.db),
    now: () => new Date(now()),
    customers: { db: database.db, metagraph, blobs, policySources: createPolicyInputSources(database.db, blobs, now) },
    network: {
      db: database.db,
      blobs,
      metagraph,
      signedAuth: { ...config.signedAuth, ...(options.validatorRegistration ? { validatorRegistration: options.validatorRegistration } : {}) },
      bundleLimitBytes: options.bundleLimitBytes ?? 1 << 20,
    },
  });
  await env.app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = env.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server did not bind a TCP port');
  env.baseUrl = `http://127.0.0.1:${address.port}`;
  env.close = async () => {
    await env.app.close();
    if (ownDatabase) await database.close();
    if (ownDir) await rm(dir, { recursive: true, force: true });
  };
  return env;
}
