import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetagraphSnapshot } from '@vigil/core';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../platform/blobs/index.js';
import { loadConfig, type Config } from '../config.js';
import type { VigilDatabase } from '../platform/db/database.js';
import { CachedMetagraph, FileMetagraphSource } from '../features/network/metagraph/index.js';
import type { Runtime } from '../runtime.js';
import { startTestApp } from './test-app.js';

export interface NetworkApp {
  dir: string;
  runtime: Runtime;
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
  const signedAuth = options.config?.signedAuth ?? loadConfig({}, dir).signedAuth;
  const config: Partial<Config> = {
    bundleLimitBytes: options.bundleLimitBytes ?? 1 << 20,
    ...options.config,
    signedAuth: { ...signedAuth, ...(options.validatorRegistration ? { validatorRegistration: options.validatorRegistration } : {}) },
  };
  const env = { dir, metagraphFile, clock: options.clock ?? null } as NetworkApp;
  const now = () => env.clock ?? Date.now();
  const metagraph = new CachedMetagraph({
    source: new FileMetagraphSource(metagraphFile),
    ...(options.maxStalenessSeconds !== undefined ? { ttlSeconds: 60, maxStalenessSeconds: options.maxStalenessSeconds, retryIntervalSeconds: 1 } : {}),
    now,
  });
  const server = await startTestApp({
    env: { LOG_LEVEL: 'warn' },
    config,
    dataDir: dir,
    ...(options.database ? { database: options.database } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    overrides: { clock: now, metagraph },
  });
  Object.assign(env, { runtime: server.runtime, database: server.database, blobs: server.runtime.blobs, app: server.app, baseUrl: server.url });
  env.close = async () => {
    await server.close();
    if (ownDir) await rm(dir, { recursive: true, force: true });
  };
  return env;
}
