import { pollEvery, type PollLoop } from '../../platform/jobs/poll-every.js';
import type { TransparencyLog } from './transparency-log.js';

/**
 * Signs and keeps a checkpoint of the log every `intervalMs` (VIGIL_LOG_CHECKPOINT_INTERVAL_MS,
 * docs/log.md), besides the ones signed on demand. A tree that did not grow keeps its checkpoint:
 * log_checkpoints holds one note per size. It only keeps: the witnesses' cosignatures are read when a
 * checkpoint is served, not here.
 */
export function checkpointEvery(log: Pick<TransparencyLog, 'keepCheckpoint'>, intervalMs: number, onError: (error: unknown) => void, now: () => number = Date.now): PollLoop {
  return pollEvery(intervalMs, () => log.keepCheckpoint(now()), onError);
}
