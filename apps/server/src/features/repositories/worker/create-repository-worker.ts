import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { claimDueJob, type ClaimedJob } from '../repository-jobs.js';
import { pollEvery } from '../../../platform/jobs/poll-every.js';
import { singleFlightDrain } from '../../../platform/jobs/single-flight-drain.js';

/** The part of a pino / fastify logger the worker writes to. */
export interface RepositoryWorkerLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CreateRepositoryWorkerOptions {
  db: Kysely<Database>;
  /** Fetches, verifies and stores one claimed job, recording its failure itself; a throw is logged and the claim left to expire. */
  process: (claim: ClaimedJob) => Promise<void>;
  /** How often an idle worker looks for due jobs (a retry's time, another instance's hook). */
  pollMs: number;
  /** Epoch-ms clock; Date.now by default. */
  now?: () => number;
  logger?: RepositoryWorkerLogger;
}

export interface RepositoryWorker {
  /** Works now, then every pollMs until stop(). Idempotent. */
  start(): void;
  /** No more work; resolves once the job in hand is finished. */
  stop(): Promise<void>;
  /** Claims and processes due jobs until none is left; resolves to how many it processed. A call while one runs joins it. */
  drain(): Promise<number>;
  /** A job was just queued in this process: drain now instead of at the next poll. */
  nudge(): void;
}

/**
 * The repository push worker: claims due jobs one at a time (durably, in the database: any number of
 * processes may run one, each job is claimed by one of them) and processes them. It runs inside
 * `serve` and `worker` alike; a hook answered by this process nudges it, others find the job on
 * their next poll.
 */
export function createRepositoryWorker(options: CreateRepositoryWorkerOptions): RepositoryWorker {
  const now = options.now ?? Date.now;
  // Set by stop(): a drain in progress finishes its job in hand and claims no more.
  let stopped = false;

  async function drainOnce(): Promise<number> {
    let processed = 0;
    for (;;) {
      if (stopped) break;
      const claim = await claimDueJob(options.db, now());
      if (claim === undefined) break;
      processed += 1;
      try {
        await options.process(claim);
      } catch (error) {
        // The claim expires (JOB_LEASE_MS) and the job is retried then, by this process or another.
        options.logger?.error({ err: error, job: claim.job.job_id, repository: claim.job.repository_id }, 'repository worker: job failed unexpectedly');
      }
    }
    return processed;
  }

  const drains = singleFlightDrain(drainOnce, () => stopped);
  const drain = drains.drain;

  const logError = (error: unknown) => options.logger?.error({ err: error }, 'repository worker: could not claim jobs');
  const loop = pollEvery(options.pollMs, drain, logError);

  return {
    start() {
      if (loop.running) return;
      stopped = false;
      loop.start();
    },
    async stop() {
      stopped = true;
      loop.stop();
      await drains.inFlight?.catch(() => undefined);
    },
    drain,
    nudge() {
      if (!loop.running) return;
      drain().catch(logError);
    },
  };
}
