import type { BlobStore } from '../../platform/blobs/index.js';
import type { WorkerEntry, WorkerHost } from '../../platform/jobs/background-worker.js';
import type { Signal } from '../../platform/signal.js';
import { createFetchWorker, createRegistryConnectors } from './fetch-worker.js';
import type { RegistryFetchSettings } from './fetch-settings.js';
import { createWatcher } from './watcher.js';

interface RegistriesWorkerHost extends WorkerHost {
  readonly config: { readonly registries: RegistryFetchSettings; readonly artifactLimitBytes: number };
  readonly blobs: BlobStore;
  readonly signals: { readonly registryFetchQueued: Signal };
}

/**
 * On-demand registry fetching (docs/registries.md) and the release watcher (docs/watches.md), where
 * fetching is on: `worker` always, `serve` unless VIGIL_REGISTRY_WORKER=false. The watcher has its
 * own connectors: it keeps ETags in the database, so they hold no packuments in memory.
 */
const registryFetches: WorkerEntry<RegistriesWorkerHost> = (host, place) => {
  const { config, database, log } = host;
  const registries = config.registries;
  if (!registries.enabled || (place === 'serve' && !registries.runInServe)) return undefined;
  const connectors = createRegistryConnectors(registries, { maxArtifactBytes: config.artifactLimitBytes, onRefused: (event) => log.error({ refused: event }, 'registry fetch refused') });
  const fetchWorker = createFetchWorker({ db: database.db, blobs: host.blobs, settings: registries, connectors, maxArtifactBytes: config.artifactLimitBytes, logger: log, now: host.clock });
  const watchConnectors = createRegistryConnectors(registries, { maxArtifactBytes: config.artifactLimitBytes, overrides: { metadataCacheEntries: 0, concurrency: Math.max(8, registries.watch.concurrency) } });
  const watcher = createWatcher({ db: database.db, settings: registries, connectors: watchConnectors, onQueued: () => fetchWorker.nudge(), logger: log, now: host.clock });
  const unlisten = host.signals.registryFetchQueued.listen(() => fetchWorker.nudge());
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

export const registriesWorkers: readonly WorkerEntry<RegistriesWorkerHost>[] = [registryFetches];
