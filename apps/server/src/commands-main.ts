import { join } from 'node:path';
import { BlobsCommandError, runBlobsCommand } from './platform/blobs/blobs-command.js';
import { createBlobStore, type BlobStore } from './platform/blobs/index.js';
import { ALL_CONFIG_VARIABLES, ConfigError, loadConfig, type Config } from './config.js';
import { usageText } from './usage.js';
import { openDatabase, type VigilDatabase } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { buildApp, defaultLogOrigin } from './app.js';
import { installGracefulShutdown } from './platform/http/shutdown.js';
import { createMetagraph, createMetagraphSource, exportMetagraphSnapshot } from './features/network/index.js';
import { createPolicyInputSources } from './features/policies/index.js';
import { runValidatorsCommand, ValidatorsCommandError } from './features/network/index.js';
import { KeysCommandError, runKeysCommand } from './features/accounts/index.js';
import { AdvisoriesCommandError, runAdvisoriesCommand } from './features/policies/index.js';
import { FactsCommandError, runFactsCommand } from './features/artifacts/index.js';
import { ArtifactsCommandError, runArtifactsCommand } from './features/artifacts/index.js';
import { reindexSearch, reindexSearchIfNeeded } from './features/search/index.js';
import { createPushWorker } from './features/repositories/index.js';
import { createScheduler } from './features/network/index.js';
import { createSecretBox } from './platform/secrets/secret-box.js';
import { loadServerIdentity } from './platform/secrets/server-identity.js';
import { createWebhookWorker } from './features/webhooks/index.js';
import { createFetchWorker, createWatcher, watchRepositoryDependencies, createReferenceFetches, createRegistryConnectors, RegistriesCommandError, runRegistriesCommand } from './features/registries/index.js';
import { createPublicReadService } from './features/network/index.js';
import { checkpointEvery, checkTransparencyLog, createTransparencyLog } from './features/log/index.js';
import { databaseInstrumentation, startMetricsServer, type MetricsServer } from './platform/metrics/index.js';

const USAGE = usageText(ALL_CONFIG_VARIABLES);

class UsageError extends Error {
  override name = 'UsageError';
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * Opens the configured database; connection failures go to `onConnectionError` instead of ending the
 * process. `serve` and `worker` time its statements when they open a metrics listener.
 */
function openConfiguredDatabase(config: Config, onConnectionError?: (error: Error) => void, instrumented = false): Promise<VigilDatabase> {
  return openDatabase({
    ...(instrumented ? { instrument: databaseInstrumentation } : {}),
    url: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    onConnectionError: onConnectionError ?? ((error) => process.stderr.write(`database connection error: ${error.message}\n`)),
  });
}

async function withDatabase<T>(config: Config, work: (database: VigilDatabase) => Promise<T>): Promise<T> {
  const database = await openConfiguredDatabase(config);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** A one-off command's blob store, closed (its sockets released) when `work` ends. */
async function withBlobStore<T>(config: Config, work: (blobs: BlobStore) => Promise<T>): Promise<T> {
  const blobs = await createBlobStore(config.blobs);
  try {
    return await work(blobs);
  } finally {
    blobs.close();
  }
}

async function migrate(database: VigilDatabase, config: Config): Promise<string[]> {
  const results = await migrateToLatest(database.db, { lockTimeoutMs: config.migrationLockTimeoutMs });
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Migrations, then the one-off search rebuild a migration may ask for (docs/search.md): `migrate` and `serve`. */
async function migrateAndRebuild(database: VigilDatabase, config: Config): Promise<string[]> {
  const applied = (await migrate(database, config)).map((name) => `migrated: ${name}`);
  const rebuilt = await reindexSearchIfNeeded(database.db, Date.now);
  if (rebuilt !== null) applied.push(`rebuilt the search index: ${rebuilt.artifacts} artifacts and ${rebuilt.attestations} attestations`);
  return applied;
}

async function countRounds(database: VigilDatabase): Promise<number> {
  const row = await database.db
    .selectFrom('rounds')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

type DemoSeed = typeof import('./seed/demo.js');

/** Imported lazily: the demo data is only needed by `seed --demo` and `serve --seed-demo-if-empty`. */
async function loadDemoSeed(): Promise<DemoSeed> {
  try {
    return await import('./seed/demo.js');
  } catch (error) {
    throw new Error(`the demo seed (seed/demo.js) is not available in this build: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

async function seedDemo(database: VigilDatabase, config: Config, blobs: BlobStore): Promise<void> {
  const demo = await loadDemoSeed();
  const result = await demo.seedDemo(database.db, {
    now: new Date(),
    historyDays: config.demoHistoryDays,
    blobs,
    schedule: { submissionMs: config.scheduler.submissionMs, evaluationMs: config.scheduler.evaluationMs, gapMs: config.scheduler.gapMs },
    progress: (message) => log(`demo: ${message}`),
    // The demo's validators get permits in a snapshot where the server looks by default, unless
    // the operator pointed the metagraph elsewhere.
    ...(config.metagraph.subtensorUrl === undefined && config.metagraph.file === join(config.dataDir, 'metagraph.json')
      ? { metagraphFile: config.metagraph.file }
      : {}),
  });
  log(
    `loaded the demo data: ${result.validators} validators, ${result.miners} miners, ${result.rounds} rounds, ${result.attestations} attestations`,
  );
}

/**
 * A verified push's dependencies are watched for the repository's account (docs/watches.md), when
 * registry fetching is on; a failure to add them is logged and leaves the push verified.
 */
function repositoryWatches(db: VigilDatabase['db'], config: Config, logError: (obj: object, msg: string) => void): { onVerified?: NonNullable<Parameters<typeof createPushWorker>[0]['onVerified']> } {
  if (!config.registries.enabled) return {};
  return {
    onVerified: async (accountId, dependencies, now) => {
      try {
        const result = await watchRepositoryDependencies(db, accountId, dependencies, { now, limit: config.registries.watch.maxPerAccount });
        if (result.overLimit.length > 0) logError({ account: accountId, left_out: result.overLimit.length }, 'repository watches: the account reached VIGIL_WATCH_MAX_PER_ACCOUNT; dependencies left unwatched');
      } catch (error) {
        logError({ err: error, account: accountId }, 'repository watches: could not add the dependencies');
      }
    },
  };
}

async function serve(config: Config, flags: string[]): Promise<void> {
  const seed = flags.includes('--seed-demo-if-empty');
  // Until the app's logger exists, connection errors go to stderr; the request that hit one answers 502.
  let onConnectionError: (error: Error) => void = (error) => process.stderr.write(`database connection error: ${error.message}\n`);
  const metricsPort = config.metrics.port;
  const database = await openConfiguredDatabase(config, (error) => onConnectionError(error), metricsPort !== undefined);
  // The process's one blob store (local disk or S3, VIGIL_BLOB_STORE), handed to everything below.
  const blobs = await createBlobStore(config.blobs);
  let metricsServer: MetricsServer | undefined;
  try {
    for (const line of await migrateAndRebuild(database, config)) log(line);
    // Refuse to serve a log whose stored tree no longer matches its entries or its last checkpoint.
    const logCheck = await checkTransparencyLog(database.db);
    if (logCheck.problem !== null) throw new Error(`transparency log check failed: ${logCheck.problem}`);
    log(
      `transparency log: ${logCheck.size} entries, consistent with ${logCheck.checkpointSize === null ? 'its entries (no checkpoint signed yet)' : `the checkpoint of ${logCheck.checkpointSize} entries`}`,
    );
    if (seed) {
      if ((await countRounds(database)) === 0) await seedDemo(database, config, blobs);
      else log('the database already has rounds; not loading the demo data');
    }
    let logRefreshError: (error: unknown) => void = () => {};
    // Uploads a previous process never finished (killed, or stopped mid-upload) leave staging files.
    // An object store that is down now does not keep the instance from serving (its requests get 502).
    const swept = await blobs.sweep(Date.now()).catch((error: unknown) => {
      process.stderr.write(`could not sweep unfinished uploads from the blob store: ${error instanceof Error ? error.message : String(error)}\n`);
      return 0;
    });
    if (swept > 0) log(`removed ${swept} unfinished upload(s) from the blob store's staging area`);
    const metagraph = createMetagraph(config.metagraph, { onRefreshError: (error) => logRefreshError(error) });
    // Renewed before it expires: a validator request never waits on the chain for a routine refresh.
    metagraph.startRefreshing();
    const policySources = createPolicyInputSources(database.db, blobs);
    let workerLogger: { info(obj: object, msg: string): void; error(obj: object, msg: string): void } = {
      info: (obj, message) => log(`${message} ${JSON.stringify(obj)}`),
      error: (obj, message) => process.stderr.write(`${message} ${JSON.stringify(obj)}\n`),
    };
    const pushWorker = config.repositories.runInServe
      ? createPushWorker({
          db: database.db,
          settings: config.repositories,
          sources: policySources,
          logger: { info: (o, m) => workerLogger.info(o, m), error: (o, m) => workerLogger.error(o, m) },
          ...repositoryWatches(database.db, config, (o, m) => workerLogger.error(o, m)),
        })
      : undefined;
    const webhookWorker = config.webhooks.runInServe
      ? createWebhookWorker({
          db: database.db,
          secrets: createSecretBox((await loadServerIdentity(config.dataDir)).secretKey),
          settings: config.webhooks,
          logger: { info: (o, m) => workerLogger.info(o, m), error: (o, m) => workerLogger.error(o, m) },
        })
      : undefined;
    // On-demand registry fetching (docs/registries.md): verification queues fetches whenever it is
    // on; this process also runs the fetch worker unless VIGIL_REGISTRY_WORKER=false.
    const registries = config.registries;
    const connectors = registries.enabled && registries.runInServe ? createRegistryConnectors(registries, { maxArtifactBytes: config.artifactLimitBytes, onRefused: (event) => workerLogger.error({ refused: event }, 'registry fetch refused') }) : undefined;
    const fetchWorker = connectors
      ? createFetchWorker({ db: database.db, blobs, settings: registries, connectors, maxArtifactBytes: config.artifactLimitBytes, logger: { info: (o, m) => workerLogger.info(o, m), error: (o, m) => workerLogger.error(o, m) } })
      : undefined;
    // The release watcher (docs/watches.md) runs where the fetch worker runs, with its own connectors:
    // it keeps ETags in the database, so they hold no packuments in memory.
    const watchConnectors = fetchWorker ? createRegistryConnectors(registries, { maxArtifactBytes: config.artifactLimitBytes, overrides: { metadataCacheEntries: 0 } }) : undefined;
    const watcher = watchConnectors
      ? createWatcher({ db: database.db, settings: registries, connectors: watchConnectors, onQueued: () => fetchWorker?.nudge(), logger: { info: (o, m) => workerLogger.info(o, m), error: (o, m) => workerLogger.error(o, m) } })
      : undefined;
    const referenceFetches = registries.enabled
      ? createReferenceFetches({ db: database.db, timings: config.scheduler, now: Date.now, ...(fetchWorker ? { onQueued: () => fetchWorker.nudge() } : {}) })
      : undefined;
    const app = await buildApp({
      config,
      readService: createPublicReadService(database.db),
      customers: {
        db: database.db,
        metagraph,
        blobs,
        policySources,
        ...(pushWorker ? { onRepositoryPushQueued: () => pushWorker.nudge() } : {}),
        ...(referenceFetches ? { referenceFetches } : {}),
      },
      metrics: metricsPort !== undefined,
      network: {
        db: database.db,
        blobs,
        metagraph,
        signedAuth: config.signedAuth,
        bundleLimitBytes: config.bundleLimitBytes,
      },
    });
    onConnectionError = (error) => app.log.warn({ err: error }, 'database connection error; the pool replaces the connection');
    logRefreshError = (error) => app.log.warn({ err: error }, 'metagraph refresh failed; permit checks use the last snapshot within VIGIL_METAGRAPH_MAX_STALENESS_S');
    workerLogger = app.log;
    const scheduler = config.runScheduler
      ? createScheduler({ db: database.db, settings: config.scheduler, logger: app.log })
      : undefined;
    // Checkpoints at a fixed interval as well as on demand (docs/log.md): witnesses and the startup
    // check have a kept checkpoint at most one interval behind the tree.
    const identity = await loadServerIdentity(config.dataDir);
    const checkpoints = checkpointEvery(
      createTransparencyLog({ db: database.db, secretKey: identity.secretKey, origin: config.logOrigin ?? defaultLogOrigin(identity.publicKeyHex) }),
      config.logCheckpointIntervalMs,
      (error) => app.log.warn({ err: error }, 'signing the periodic log checkpoint failed; retried at the next interval'),
    );
    installGracefulShutdown({
      app,
      cleanup: async () => {
        checkpoints.stop();
        metagraph.stopRefreshing();
        await scheduler?.stop();
        await pushWorker?.stop();
        await webhookWorker?.stop();
        await watcher?.stop();
        await fetchWorker?.stop();
        connectors?.close();
        await metricsServer?.close();
        watchConnectors?.close();
        await database.close();
        blobs.close();
      },
      exit: (code) => process.exit(code),
      // In-flight requests end within the handler timeout (504), so that bounds the drain.
      graceMs: config.drainIdleMs + config.handlerTimeoutMs + 10_000,
      drainIdleMs: config.drainIdleMs,
    });
    await app.listen({ port: config.port, host: config.host });
    // The metrics port before any background pass: a port already taken ends the start-up here, and
    // a checkpoint pass started first would race the database being closed below (a misleading
    // "TlogError: … driver has already been destroyed" in the log of a failed start).
    if (metricsPort !== undefined) metricsServer = await openMetricsListener(config, metricsPort, database, app.log);
    checkpoints.start();
    scheduler?.start();
    pushWorker?.start();
    webhookWorker?.start();
    fetchWorker?.start();
    watcher?.start();
  } catch (error) {
    await metricsServer?.close();
    await database.close();
    blobs.close();
    throw error;
  }
}

async function worker(config: Config): Promise<void> {
  const metricsPort = config.metrics.port;
  const database = await openConfiguredDatabase(config, undefined, metricsPort !== undefined);
  for (const name of await migrate(database, config)) log(`migrated: ${name}`);
  const blobs = await createBlobStore(config.blobs);
  const logger = {
    info: (obj: object, message: string) => log(`${message} ${JSON.stringify(obj)}`),
    error: (obj: object, message: string) => process.stderr.write(`${message} ${JSON.stringify(obj)}\n`),
  };
  const scheduler = createScheduler({ db: database.db, settings: config.scheduler, logger });
  const pushWorker = createPushWorker({
    db: database.db,
    settings: config.repositories,
    sources: createPolicyInputSources(database.db, blobs),
    logger,
    ...repositoryWatches(database.db, config, (o, m) => logger.error(o, m)),
  });
  const webhookWorker = createWebhookWorker({
    db: database.db,
    secrets: createSecretBox((await loadServerIdentity(config.dataDir)).secretKey),
    settings: config.webhooks,
    logger,
  });
  const connectors = config.registries.enabled ? createRegistryConnectors(config.registries, { maxArtifactBytes: config.artifactLimitBytes, onRefused: (event) => logger.error({ refused: event }, 'registry fetch refused') }) : undefined;
  const fetchWorker = connectors
    ? createFetchWorker({ db: database.db, blobs, settings: config.registries, connectors, maxArtifactBytes: config.artifactLimitBytes, logger })
    : undefined;
  // Before any work starts: a port already taken ends the worker here, with nothing half-done.
  const metricsServer =
    metricsPort === undefined
      ? undefined
      : await openMetricsListener(config, metricsPort, database, {
          warn: (obj, message) => process.stderr.write(`${message} ${JSON.stringify(obj, errorFields)}\n`),
        }).catch(async (error: unknown) => {
          await database.close();
          throw error;
        });
  const watchConnectors = connectors ? createRegistryConnectors(config.registries, { maxArtifactBytes: config.artifactLimitBytes, overrides: { metadataCacheEntries: 0 } }) : undefined;
  const watcher = watchConnectors ? createWatcher({ db: database.db, settings: config.registries, connectors: watchConnectors, onQueued: () => fetchWorker?.nudge(), logger }) : undefined;
  // The scheduler's timer never holds a process open (inside `serve` the HTTP server does); a
  // worker has nothing else, so it holds itself open until a signal.
  const keepAlive = setInterval(() => {}, 1 << 30);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal}: finishing the current step`);
    clearInterval(keepAlive);
    await scheduler.stop();
    await pushWorker.stop();
    await webhookWorker.stop();
    await watcher?.stop();
    await fetchWorker?.stop();
    connectors?.close();
    await metricsServer?.close();
    watchConnectors?.close();
    await database.close();
    blobs.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  scheduler.start();
  pushWorker.start();
  webhookWorker.start();
  fetchWorker?.start();
  watcher?.start();
  log(
    `worker ${scheduler.holderId}: advancing rounds every ${config.scheduler.intervalMs / 1000} s, verifying repository pushes (polling every ${config.repositories.pollMs / 1000} s), delivering webhooks (${webhookWorker.holderId})${fetchWorker ? `, fetching from registries (polling every ${config.registries.pollMs / 1000} s) and following watched releases (every ${config.registries.watch.intervalMs / 1000} s per name)` : ''}`,
  );
}

/** The metrics listener of `serve` and `worker` (docs/operations.md); a port it cannot take is named in the error. */
async function openMetricsListener(config: Config, port: number, database: VigilDatabase, logger: { warn(obj: object, msg: string): void }): Promise<MetricsServer> {
  const server = await startMetricsServer({ settings: { ...config.metrics, port }, db: database.db, logger }).catch((error: unknown) => {
    throw new Error(`metrics listener: cannot listen on ${config.metrics.host}:${port}: ${(error as Error).message}`, { cause: error });
  });
  log(`metrics: http://${formatHost(config.metrics.host)}:${server.address.port}/metrics and /ready`);
  return server;
}

/** An IPv6 address in a URL goes in brackets. */
function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** An Error's message survives JSON.stringify (its own properties are not enumerable). */
function errorFields(_key: string, value: unknown): unknown {
  return value instanceof Error ? { message: value.message } : value;
}

function expectFlags(command: string, flags: string[], allowed: string[]): void {
  const unknown = flags.filter((f) => !allowed.includes(f));
  if (unknown.length > 0) throw new UsageError(`${command}: unknown option ${unknown[0]}`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...flags] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  switch (command) {
    case 'serve': {
      expectFlags(command, flags, ['--seed-demo-if-empty']);
      await serve(loadConfig(), flags);
      return;
    }
    case 'migrate': {
      expectFlags(command, flags, []);
      const config = loadConfig();
      const lines = await withDatabase(config, (database) => migrateAndRebuild(database, config));
      log(lines.length === 0 ? 'database is up to date' : lines.join('\n'));
      return;
    }
    case 'seed': {
      if (flags.length !== 1 || flags[0] !== '--demo') throw new UsageError('seed: expected --demo');
      const config = loadConfig();
      await withDatabase(config, async (database) => {
        await migrate(database, config);
        const rounds = await countRounds(database);
        if (rounds > 0) throw new Error(`seed --demo: the database already has ${rounds} round(s); the demo needs an empty one`);
        await withBlobStore(config, (blobs) => seedDemo(database, config, blobs));
      });
      return;
    }
    case 'worker': {
      expectFlags(command, flags, []);
      await worker(loadConfig());
      return;
    }
    case 'metagraph': {
      if (flags[0] !== 'export' || flags.length !== 2) throw new UsageError('metagraph: expected export <file>');
      const config = loadConfig();
      const snapshot = await exportMetagraphSnapshot(createMetagraphSource(config.metagraph), flags[1]!);
      log(`saved netuid ${snapshot.netuid} at block ${snapshot.block}: ${snapshot.neurons.length} neurons to ${flags[1]}`);
      return;
    }
    case 'validators': {
      const config = loadConfig();
      const lines = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await runValidatorsCommand(database.db, flags, Date.now());
        } catch (error) {
          if (error instanceof ValidatorsCommandError && error.usage) throw new UsageError(`validators: ${error.message}`);
          throw error;
        }
      });
      log(lines.join('\n'));
      return;
    }
    case 'registries': {
      const config = loadConfig();
      const lines = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await runRegistriesCommand(database.db, flags, Date.now(), { watching: config.registries.enabled });
        } catch (error) {
          if (error instanceof RegistriesCommandError && error.usage) throw new UsageError(`registries: ${error.message}`);
          throw error;
        }
      });
      log(lines.join('\n'));
      return;
    }
    case 'search': {
      if (flags.length !== 1 || flags[0] !== 'reindex') throw new UsageError('search: expected reindex');
      const config = loadConfig();
      const result = await withDatabase(config, async (database) => {
        await migrate(database, config);
        return reindexSearch(database.db, Date.now());
      });
      log(`indexed ${result.artifacts} artifacts and ${result.attestations} attestations`);
      return;
    }
    case 'advisories': {
      const config = loadConfig();
      const output = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await runAdvisoriesCommand(database.db, flags, Date.now);
        } catch (error) {
          if (error instanceof AdvisoriesCommandError && error.usage) throw new UsageError(`advisories: ${error.message}`);
          throw error;
        }
      });
      log(output.lines.join('\n'));
      if (output.exitCode !== 0) process.exitCode = output.exitCode;
      return;
    }
    case 'facts': {
      const config = loadConfig();
      const lines = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await withBlobStore(config, (blobs) => runFactsCommand(database.db, blobs, flags, Date.now));
        } catch (error) {
          if (error instanceof FactsCommandError && error.usage) throw new UsageError(`facts: ${error.message}`);
          throw error;
        }
      });
      log(lines.join('\n'));
      return;
    }
    case 'artifacts': {
      const config = loadConfig();
      const code = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await withBlobStore(config, (blobs) =>
            runArtifactsCommand({ db: database.db, blobs, maxBytes: config.artifactLimitBytes, now: Date.now, log }, flags),
          );
        } catch (error) {
          if (error instanceof ArtifactsCommandError && error.usage) throw new UsageError(`artifacts: ${error.message}`);
          throw error;
        }
      });
      if (code !== 0) process.exitCode = code;
      return;
    }
    case 'blobs': {
      // Only VIGIL_DATA_DIR of the configuration matters; the target is on the command line.
      const config = loadConfig();
      const code = await runBlobsCommand(flags, {
        dataDir: config.dataDir,
        env: process.env,
        progress: (line) => process.stderr.write(`${line}\n`),
        log,
      });
      if (code !== 0) process.exitCode = code;
      return;
    }
    case 'keys':
    case 'accounts': {
      const config = loadConfig();
      const lines = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await runKeysCommand(database.db, command, flags, Date.now());
        } catch (error) {
          if (error instanceof KeysCommandError && error.usage) throw new UsageError(`${command}: ${error.message}`);
          throw error;
        }
      });
      log(lines.join('\n'));
      return;
    }
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

/** Runs one `vigil-server` command line (bin.ts imports this module for every command but help). */
export function runCommand(argv: string[]): Promise<void> {
  return main(argv).catch((error: unknown) => {
    if (error instanceof BlobsCommandError && error.usage) error = new UsageError(`blobs: ${error.message}`);
    if (error instanceof UsageError) {
      process.stderr.write(`vigil-server: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`vigil-server: ${error.message}\n`);
      process.exit(1);
    }
    // A command's own error class names the command in front of its message.
    const prefixes: [new (...args: never[]) => Error, string][] = [
      [ValidatorsCommandError, 'validators'],
      [AdvisoriesCommandError, 'advisories'],
      [FactsCommandError, 'facts'],
      [ArtifactsCommandError, 'artifacts'],
      [KeysCommandError, 'keys'],
      [RegistriesCommandError, 'registries'],
      [BlobsCommandError, 'blobs'],
    ];
    const prefix = prefixes.find(([type]) => error instanceof type)?.[1];
    const text = error instanceof Error ? error.message : String(error);
    const message = prefix === undefined ? text : `${prefix}: ${text}`;
    process.stderr.write(`vigil-server: ${message}\n`);
    process.exit(1);
  });
}
