import { workers as logWorkers } from './features/log/index.js';
import { workers as networkWorkers } from './features/network/index.js';
import { workers as registriesWorkers } from './features/registries/index.js';
import { workers as repositoriesWorkers } from './features/repositories/index.js';
import { workers as webhooksWorkers } from './features/webhooks/index.js';
import type { BackgroundWorker, WorkerEntry, WorkerPlace } from './platform/jobs/background-worker.js';
import type { Runtime } from './runtime.js';

export type { BackgroundWorker, WorkerPlace } from './platform/jobs/background-worker.js';

/**
 * Every feature's background work, in start order (stopped in the same order): log checkpoints,
 * the round scheduler, repository pushes, webhook deliveries, registry fetches and watches. Each
 * entry reads of the runtime only what its feature's `workers` declare.
 */
const WORKERS: readonly WorkerEntry<Runtime>[] = [...logWorkers, ...networkWorkers, ...repositoriesWorkers, ...webhooksWorkers, ...registriesWorkers];

/** The workers `place` runs under the runtime's settings. */
export function createWorkers(runtime: Runtime, place: WorkerPlace): BackgroundWorker[] {
  return WORKERS.flatMap((entry) => entry(runtime, place) ?? []);
}

/** Stops each worker in turn, the first to start first. */
export async function stopWorkers(workers: readonly BackgroundWorker[]): Promise<void> {
  for (const worker of workers) await worker.stop();
}
