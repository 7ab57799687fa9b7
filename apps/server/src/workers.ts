import { checkpointEvery } from './features/log/index.js';
import { createScheduler } from './features/network/index.js';
import { createPolicyInputSources } from './features/policies/index.js';
import { createFetchWorker, createRegistryConnectors, createWatcher, watchRepositoryDependencies } from './features/registries/index.js';
import { createPushWorker } from './features/repositories/index.js';
import { createWebhookWorker } from './features/webhooks/index.js';
import type { Runtime } from './runtime.js';

/** `serve` runs the workers its settings keep in it; `worker` runs all of them. */
export type WorkerPlace = 'serve' | 'worker';

/** One background loop of the process, started after the app listens and stopped before the runtime closes. */
export interface BackgroundWorker {
  name: 'checkpoints' | 'scheduler' | 'repository-pushes' | 'webhooks' | 'registries';
  /** What it does, as the `worker` command's start line says it. */
  summary: string;
  /** The lease holder id it claims work under, where it has one. */
  holderId?: string;
  start(): void;
  stop(): Promise<void>;
}

type WorkerEntry = (runtime: Runtime, place: WorkerPlace) => BackgroundWorker | undefined;

/**
 * Checkpoints at a fixed interval as well as on demand (docs/log.md): witnesses and the startup
 * check have a kept checkpoint at most one interval behind the tree. `serve` only.
 */
const logCheckpoints: WorkerEntry = (runtime, place) => {
  if (place !== 'serve') return undefined;
  const loop = checkpointEvery(
    runtime.transparencyLog,
    runtime.config.logCheckpointIntervalMs,
    (error) => runtime.log.warn({ err: error }, 'signing the periodic log checkpoint failed; retried at the next interval'),
  );
  return { name: 'checkpoints', summary: 'signing log checkpoints', start: () => loop.start(), stop: async () => loop.stop() };
};

const roundScheduler: WorkerEntry = (runtime, place) => {
  const { config } = runtime;
  if (place === 'serve' && !config.runScheduler) return undefined;
  const scheduler = createScheduler({ db: runtime.database.db, settings: config.scheduler, logger: runtime.log });
  return {
    name: 'scheduler',
    summary: `advancing rounds every ${config.scheduler.intervalMs / 1000} s`,
    holderId: scheduler.holderId,
    start: () => scheduler.start(),
    stop: () => scheduler.stop(),
  };
};

/**
 * A verified push's dependencies are watched for the repository's account (docs/watches.md), when
 * registry fetching is on; a failure to add them is logged and leaves the push verified.
 */
function repositoryWatches(runtime: Runtime): { onVerified?: NonNullable<Parameters<typeof createPushWorker>[0]['onVerified']> } {
  const { config, database, log } = runtime;
  if (!config.registries.enabled) return {};
  return {
    onVerified: async (accountId, dependencies, now) => {
      try {
        const result = await watchRepositoryDependencies(database.db, accountId, dependencies, { now, limit: config.registries.watch.maxPerAccount });
        if (result.overLimit.length > 0) log.error({ account: accountId, left_out: result.overLimit.length }, 'repository watches: the account reached VIGIL_WATCH_MAX_PER_ACCOUNT; dependencies left unwatched');
      } catch (error) {
        log.error({ err: error, account: accountId }, 'repository watches: could not add the dependencies');
      }
    },
  };
}

const repositoryPushes: WorkerEntry = (runtime, place) => {
  const { config, database } = runtime;
  if (place === 'serve' && !config.repositories.runInServe) return undefined;
  const worker = createPushWorker({
    db: database.db,
    settings: config.repositories,
    sources: createPolicyInputSources(database.db, runtime.blobs),
    logger: runtime.log,
    ...repositoryWatches(runtime),
  });
  // A push queued through this process's API starts at once rather than at the next poll.
  const unlisten = runtime.signals.repositoryPushQueued.listen(() => worker.nudge());
  return {
    name: 'repository-pushes',
    summary: `verifying repository pushes (polling every ${config.repositories.pollMs / 1000} s)`,
    start: () => worker.start(),
    stop: async () => {
      unlisten();
      await worker.stop();
    },
  };
};

const webhookDeliveries: WorkerEntry = (runtime, place) => {
  const { config } = runtime;
  if (place === 'serve' && !config.webhooks.runInServe) return undefined;
  const worker = createWebhookWorker({ db: runtime.database.db, secrets: runtime.secrets, settings: config.webhooks, logger: runtime.log });
  return { name: 'webhooks', summary: `delivering webhooks (${worker.holderId})`, holderId: worker.holderId, start: () => worker.start(), stop: () => worker.stop() };
};

/**
 * On-demand registry fetching (docs/registries.md) and the release watcher (docs/watches.md), where
 * fetching is on: `worker` always, `serve` unless VIGIL_REGISTRY_WORKER=false. The watcher has its
 * own connectors: it keeps ETags in the database, so they hold no packuments in memory.
 */
const registryFetches: WorkerEntry = (runtime, place) => {
  const { config, database, log } = runtime;
  const registries = config.registries;
  if (!registries.enabled || (place === 'serve' && !registries.runInServe)) return undefined;
  const connectors = createRegistryConnectors(registries, { maxArtifactBytes: config.artifactLimitBytes, onRefused: (event) => log.error({ refused: event }, 'registry fetch refused') });
  const fetchWorker = createFetchWorker({ db: database.db, blobs: runtime.blobs, settings: registries, connectors, maxArtifactBytes: config.artifactLimitBytes, logger: log });
  const watchConnectors = createRegistryConnectors(registries, { maxArtifactBytes: config.artifactLimitBytes, overrides: { metadataCacheEntries: 0 } });
  const watcher = createWatcher({ db: database.db, settings: registries, connectors: watchConnectors, onQueued: () => fetchWorker.nudge(), logger: log });
  const unlisten = runtime.signals.registryFetchQueued.listen(() => fetchWorker.nudge());
  return {
    name: 'registries',
    summary: `fetching from registries (polling every ${registries.pollMs / 1000} s) and following watched releases (every ${registries.watch.intervalMs / 1000} s per name)`,
    start: () => {
      fetchWorker.start();
      watcher.start();
    },
    stop: async () => {
      unlisten();
      await watcher.stop();
      await fetchWorker.stop();
      connectors.close();
      watchConnectors.close();
    },
  };
};

/** Every feature's background work, in start order (stopped in the same order). */
const WORKERS: readonly WorkerEntry[] = [logCheckpoints, roundScheduler, repositoryPushes, webhookDeliveries, registryFetches];

/** The workers `place` runs under the runtime's settings. */
export function createWorkers(runtime: Runtime, place: WorkerPlace): BackgroundWorker[] {
  return WORKERS.flatMap((entry) => entry(runtime, place) ?? []);
}

/** Stops each worker in turn, the first to start first. */
export async function stopWorkers(workers: readonly BackgroundWorker[]): Promise<void> {
  for (const worker of workers) await worker.stop();
}

