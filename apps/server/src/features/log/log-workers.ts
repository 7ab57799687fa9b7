import type { WorkerEntry, WorkerHost } from '../../platform/jobs/background-worker.js';
import { checkpointEvery } from './checkpoint-every.js';
import type { TransparencyLog } from './transparency-log.js';

interface LogWorkerHost extends WorkerHost {
  readonly config: { readonly logCheckpointIntervalMs: number };
  readonly transparencyLog: Pick<TransparencyLog, 'keepCheckpoint'>;
}

/**
 * Checkpoints at a fixed interval as well as on demand (docs/log.md): witnesses and the startup
 * check have a kept checkpoint at most one interval behind the tree. `serve` only.
 */
const logCheckpoints: WorkerEntry<LogWorkerHost> = (host, place) => {
  if (place !== 'serve') return undefined;
  const loop = checkpointEvery(host.transparencyLog, host.config.logCheckpointIntervalMs, (error) =>
    host.log.warn({ err: error }, 'signing the periodic log checkpoint failed; retried at the next interval'),
    host.clock,
  );
  return { name: 'checkpoints', summary: 'signing log checkpoints', start: () => loop.start(), stop: async () => loop.stop() };
};

export const logWorkers: readonly WorkerEntry<LogWorkerHost>[] = [logCheckpoints];
