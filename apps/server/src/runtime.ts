import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { createBlobStore, type BlobStore } from './platform/blobs/index.js';
import { openDatabase, type VigilDatabase } from './platform/db/database.js';
import { connectRedis } from './platform/http/connect-redis.js';
import { createProcessLog, type ProcessLog } from './platform/log/process-log.js';
import { databaseInstrumentation } from './platform/metrics/index.js';
import { createSecretBox, type SecretBox } from './platform/secrets/secret-box.js';
import { loadServerIdentity, type ServerIdentity } from './platform/secrets/server-identity.js';
import { createSignal, type Signal } from './platform/signal.js';
import { createTransparencyLog, defaultLogOrigin, type TransparencyLog } from './features/log/index.js';
import { createMetagraph, type CachedMetagraph } from './features/network/index.js';
import type { HostResolver } from './features/webhooks/index.js';
import { createPolicyInputSources, type PolicyInputSources } from './features/policies/index.js';
import { createReferenceFetches } from './features/registries/index.js';
import type { ReferenceFetches } from './features/artifacts/index.js';

/**
 * What a test may put in place of the runtime's own (everything else is built from the config, as
 * `serve` builds it). Whatever is passed here the runtime uses but does not close.
 */
export interface RuntimeOverrides {
  /** The server's clock in epoch ms (default `Date.now`); tests pin and move it. */
  clock?: () => number;
  /** Where the app logs (default stdout); tests capture the lines here. */
  logStream?: NodeJS.WritableStream;
  /** An open, migrated database (a test's SQLite or PostgreSQL schema) instead of the configured one. */
  database?: VigilDatabase;
  /** A blob store instead of the configured one (a test's S3 stand-in, a store that counts reads). */
  blobs?: BlobStore;
  /** A Redis client instead of one opened from `config.redisUrl`. */
  redis?: Redis;
  /** A metagraph instead of the one `config.metagraph` selects (a test's snapshot, its staleness). */
  metagraph?: CachedMetagraph;
  /** How webhook endpoint host names resolve for the URL check (default: the system resolver). */
  webhookResolver?: HostResolver;
  /** Count and time requests and statements (default: whether `config.metrics.port` is set). */
  metrics?: boolean;
}

/** Everything a `vigil-server` process shares between its app and its workers, built once. */
export interface Runtime {
  readonly config: Config;
  readonly database: VigilDatabase;
  readonly blobs: BlobStore;
  readonly identity: ServerIdentity;
  /** Seals webhook secrets (and the stored answers that show them) with the server key. */
  readonly secrets: SecretBox;
  /**
   * The transparency log (docs/log.md), signed with the server key under VIGIL_LOG_ORIGIN and keeping
   * VIGIL_LOG_WITNESSES' cosignatures: the one its routes serve and the periodic checkpoints sign.
   */
  readonly transparencyLog: TransparencyLog;
  /** The permit checks' metagraph; `serve` keeps it refreshed (`startRefreshing`). */
  readonly metagraph: CachedMetagraph;
  /** Shared state for rate limits, the response cache and signed-request replays; absent without VIGIL_REDIS_URL. */
  readonly redis: Redis | undefined;
  /** The one clock, epoch ms. */
  readonly clock: () => number;
  /** The app logger's destination; absent, stdout. */
  readonly logStream: NodeJS.WritableStream | undefined;
  /** Until an app exists, stdout/stderr; then the app's logger (buildApp attaches it). */
  readonly log: ProcessLog;
  /** Whether requests and statements are counted in the process's metrics (docs/operations.md). */
  readonly metrics: boolean;
  readonly webhookResolver: HostResolver | undefined;
  /** Wake-ups from routes to this process's workers. */
  readonly signals: { repositoryPushQueued: Signal; registryFetchQueued: Signal };
  /** What policy evaluation in a request reads beyond verdicts (advisories, artifact facts), on the runtime's clock. */
  readonly policySources: PolicyInputSources;
  /**
   * On-demand registry fetching (docs/registries.md) when VIGIL_REGISTRY_FETCH is on: verification
   * queues fetches of unseen references and wakes this process's fetch worker; absent, nothing is fetched.
   */
  readonly referenceFetches: ReferenceFetches | undefined;
  /** Releases what the runtime opened, in order: metagraph refresh, Redis, database, blob store. */
  close(): Promise<void>;
}

/** Opens the configured database; connection errors go to `onConnectionError` instead of ending the process. */
export function openConfiguredDatabase(config: Config, onConnectionError?: (error: Error) => void, instrumented = false): Promise<VigilDatabase> {
  return openDatabase({
    ...(instrumented ? { instrument: databaseInstrumentation } : {}),
    url: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    onConnectionError: onConnectionError ?? ((error) => process.stderr.write(`database connection error: ${error.message}\n`)),
  });
}

/**
 * The pool `migrate` applies migrations on (PostgreSQL): statements bounded by
 * VIGIL_DB_MIGRATION_STATEMENT_TIMEOUT_MS. Its statements are timed like the serving pool's
 * (vigil_db_query_duration_seconds, kind `schema` for DDL); its connections stay out of
 * vigil_db_pool_connections, which reports the serving pool.
 */
export function openMigrationDatabase(config: Config): Promise<VigilDatabase> {
  return openDatabase({
    instrument: { ...databaseInstrumentation, watchPool: () => () => undefined },
    url: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbMigrationStatementTimeoutMs,
    onConnectionError: (error) => process.stderr.write(`database connection error: ${error.message}\n`),
  });
}

/** Builds the process's shared parts from `config`; call once per process (`serve`, `worker`) or per test server. */
export async function createRuntime(config: Config, overrides: RuntimeOverrides = {}): Promise<Runtime> {
  const log = createProcessLog();
  const clock = overrides.clock ?? Date.now;
  const metrics = overrides.metrics ?? config.metrics.port !== undefined;
  const closers: (() => unknown)[] = [];
  const closeAll = async () => {
    // Last opened, first closed: nothing is released while something opened after it still uses it.
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    // Until an app logger exists, connection errors go to stderr; the request that hit one answers 502.
    const database =
      overrides.database ??
      (await openConfiguredDatabase(
        config,
        (error) =>
          log.attached
            ? log.warn({ err: error }, 'database connection error; the pool replaces the connection')
            : process.stderr.write(`database connection error: ${error.message}\n`),
        metrics,
      ));
    if (!overrides.database) closers.push(() => database.close());
    // The process's one blob store (local disk or S3, VIGIL_BLOB_STORE).
    const blobs = overrides.blobs ?? (await createBlobStore(config.blobs));
    if (!overrides.blobs) closers.push(() => blobs.close());
    const identity = await loadServerIdentity(config.dataDir);
    let redis = overrides.redis;
    if (!redis && config.redisUrl) {
      const owned = connectRedis(config.redisUrl, config.redisTimeoutMs);
      redis = owned;
      // Without a listener ioredis prints every reconnect failure; one line per 10 s says enough.
      let lastLogged = 0;
      owned.on('error', (error: Error) => {
        if (Date.now() - lastLogged < 10_000) return;
        lastLogged = Date.now();
        log.warn({ err: error }, 'redis connection error; shared state falls back (see docs/configuration.md)');
      });
      closers.push(() => owned.quit().catch(() => owned.disconnect()));
    }
    const metagraph =
      overrides.metagraph ??
      createMetagraph(config.metagraph, {
        ...(overrides.clock ? { now: clock } : {}),
        onRefreshError: (error) => log.warn({ err: error }, 'metagraph refresh failed; permit checks use the last snapshot within VIGIL_METAGRAPH_MAX_STALENESS_S'),
      });
    // Stopping refreshes is harmless when they never started (`worker`, tests).
    closers.push(() => metagraph.stopRefreshing());
    const signals = { repositoryPushQueued: createSignal(), registryFetchQueued: createSignal() };
    return {
      config,
      database,
      blobs,
      identity,
      secrets: createSecretBox(identity.secretKey),
      transparencyLog: createTransparencyLog({
        db: database.db,
        secretKey: identity.secretKey,
        origin: config.logOrigin ?? defaultLogOrigin(identity.publicKeyHex),
        witnesses: config.logWitnesses,
      }),
      metagraph,
      redis,
      clock,
      logStream: overrides.logStream,
      log,
      metrics,
      webhookResolver: overrides.webhookResolver,
      signals,
      policySources: createPolicyInputSources(database.db, blobs, clock),
      referenceFetches: config.registries.enabled
        ? createReferenceFetches({ db: database.db, timings: config.scheduler, now: clock, onQueued: () => signals.registryFetchQueued.notify() })
        : undefined,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
