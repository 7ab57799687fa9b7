import { workers as logWorkers } from './features/log/index.js';
import { workers as networkWorkers } from './features/network/index.js';
import { workers as registriesWorkers } from './features/registries/index.js';
import { workers as repositoriesWorkers } from './features/repositories/index.js';
import { workers as webhooksWorkers } from './features/webhooks/index.js';
import {
  ATTESTATION_PARTITION_CHECK_INTERVAL_MS,
  ATTESTATION_PARTITION_MONTHS_AHEAD,
  hasAttestationPartitions,
  partitionUpkeepEvery,
} from './platform/db/attestation-partitions.js';
import type { BackgroundWorker, WorkerEntry, WorkerPlace } from './platform/jobs/background-worker.js';
import type { Runtime } from './runtime.js';

export type { BackgroundWorker, WorkerPlace } from './platform/jobs/background-worker.js';

/**
 * PostgreSQL: keeps the attestation partitions of the coming months created (docs/storage.md,
 * "Attestation partitions"); every serve and worker process runs it, taking turns on a lock. It is
 * the storage's upkeep, not a feature's, so it lives here beside the features' lists.
 */
const attestationPartitions: WorkerEntry = ({ database, log, clock }) => {
  if (!hasAttestationPartitions(database.db)) return undefined;
  const loop = partitionUpkeepEvery(database.db, ATTESTATION_PARTITION_CHECK_INTERVAL_MS, {
    created: (names) => log.info({ partitions: names }, 'created attestation partitions'),
    failed: (error) => log.warn({ err: error }, 'creating attestation partitions failed; retried at the next check'),
  }, clock);
  return {
    name: 'partitions',
    summary: `creating attestation partitions ${ATTESTATION_PARTITION_MONTHS_AHEAD} months ahead, checked every ${ATTESTATION_PARTITION_CHECK_INTERVAL_MS / 3_600_000} h`,
    start: () => loop.start(),
    stop: async () => loop.stop(),
  };
};

/**
 * Every feature's background work, in start order (stopped in the same order): log checkpoints,
 * the round scheduler, repository pushes, webhook deliveries, registry fetches and watches, then
 * the attestation partitions' upkeep. Each
 * entry reads of the runtime only what its feature's `workers` declare.
 */
const WORKERS: readonly WorkerEntry<Runtime>[] = [...logWorkers, ...networkWorkers, ...repositoriesWorkers, ...webhooksWorkers, ...registriesWorkers, attestationPartitions];

/** The workers `place` runs under the runtime's settings. */
export function createWorkers(runtime: Runtime, place: WorkerPlace): BackgroundWorker[] {
  return WORKERS.flatMap((entry) => entry(runtime, place) ?? []);
}

/** Stops each worker in turn, the first to start first. */
export async function stopWorkers(workers: readonly BackgroundWorker[]): Promise<void> {
  for (const worker of workers) await worker.stop();
}
