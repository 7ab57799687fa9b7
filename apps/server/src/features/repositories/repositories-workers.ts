import type { BlobStore } from '../../platform/blobs/index.js';
import type { WorkerEntry, WorkerHost } from '../../platform/jobs/background-worker.js';
import type { Signal } from '../../platform/signal.js';
import { createPolicyInputSources } from '../policies/index.js';
import { watchRepositoryDependencies } from '../registries/index.js';
import type { RepositoryWorkerSettings } from './worker/settings.js';
import { createPushWorker } from './worker/start-push-worker.js';

interface RepositoriesWorkerHost extends WorkerHost {
  readonly config: {
    readonly repositories: RepositoryWorkerSettings;
    readonly registries: { readonly enabled: boolean; readonly watch: { readonly maxPerAccount: number } };
  };
  readonly blobs: BlobStore;
  readonly signals: { readonly repositoryPushQueued: Signal };
}

/**
 * A verified push's dependencies are watched for the repository's account (docs/watches.md), when
 * registry fetching is on; a failure to add them is logged and leaves the push verified.
 */
function repositoryWatches(host: RepositoriesWorkerHost): { onVerified?: NonNullable<Parameters<typeof createPushWorker>[0]['onVerified']> } {
  const { config, database, log } = host;
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

/** Repository pushes (docs/repositories.md): `worker` always, `serve` unless VIGIL_REPOSITORY_WORKER=false. */
const repositoryPushes: WorkerEntry<RepositoriesWorkerHost> = (host, place) => {
  const { config, database } = host;
  if (place === 'serve' && !config.repositories.runInServe) return undefined;
  const worker = createPushWorker({
    db: database.db,
    settings: config.repositories,
    sources: createPolicyInputSources(database.db, host.blobs, host.clock),
    logger: host.log,
    now: host.clock,
    ...repositoryWatches(host),
  });
  // A push queued through this process's API starts at once rather than at the next poll.
  const unlisten = host.signals.repositoryPushQueued.listen(() => worker.nudge());
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

export const repositoriesWorkers: readonly WorkerEntry<RepositoriesWorkerHost>[] = [repositoryPushes];
