import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, TrackName } from '../../../../platform/db/schema.js';
import { advanceRounds, type RoundTransition } from './advance-rounds.js';
import type { SchedulerSettings } from './settings.js';
import { runExclusively } from './single-runner.js';
import { pollEvery } from '../../../../platform/jobs/poll-every.js';

/** The part of a pino / fastify logger the scheduler writes to. */
export interface SchedulerLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SchedulerStep {
  /** False when another process held the single-runner lock: this step did nothing. */
  ran: boolean;
  transitions: RoundTransition[];
  failures: { track: TrackName; error: unknown }[];
}

export interface CreateSchedulerOptions {
  db: Kysely<Database>;
  settings: SchedulerSettings;
  /** Epoch-ms clock; Date.now by default. */
  now?: () => number;
  onStep?: (step: SchedulerStep) => void;
  logger?: SchedulerLogger;
  /** Defaults to a random UUID: the SQLite lease holder id. */
  holderId?: string;
  /** SQLite lease lifetime; defaults to the larger of 5 minutes and 4 intervals. */
  leaseMs?: number;
}

export interface Scheduler {
  readonly holderId: string;
  /** Steps now, then every settings.intervalMs until stop(). Idempotent. */
  start(): void;
  /** No more steps; resolves once a step in flight has finished. */
  stop(): Promise<void>;
  /** One step under the single-runner lock; a call while one is in flight joins it. */
  step(): Promise<SchedulerStep>;
}

export const ROUND_SCHEDULER_LOCK = 'round-scheduler';

export function createScheduler(options: CreateSchedulerOptions): Scheduler {
  const { db, settings } = options;
  const now = options.now ?? Date.now;
  const holderId = options.holderId ?? randomUUID();
  const leaseMs = options.leaseMs ?? Math.max(300_000, 4 * settings.intervalMs);
  let inFlight: Promise<SchedulerStep> | undefined;

  async function runStep(): Promise<SchedulerStep> {
    const at = now();
    const failures: SchedulerStep['failures'] = [];
    const run = await runExclusively(db, { name: ROUND_SCHEDULER_LOCK, holderId, now: at, leaseMs }, (locked) =>
      advanceRounds(locked, {
        now: at,
        settings,
        onTrackError: (track, error) => {
          failures.push({ track, error });
          options.logger?.error({ err: error, track }, 'round scheduler: track transition failed');
        },
      }),
    );
    const result: SchedulerStep = run.acquired
      ? { ran: true, transitions: run.value, failures }
      : { ran: false, transitions: [], failures };
    for (const t of result.transitions) {
      options.logger?.info({ ...t }, `round scheduler: ${t.track} round ${t.roundNumber} ${t.action}`);
    }
    options.onStep?.(result);
    return result;
  }

  function step(): Promise<SchedulerStep> {
    inFlight ??= runStep().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  const loop = pollEvery(settings.intervalMs, step, (error) => options.logger?.error({ err: error }, 'round scheduler: step failed'));

  return {
    holderId,
    start: () => loop.start(),
    async stop() {
      loop.stop();
      await inFlight?.catch(() => undefined);
    },
    step,
  };
}
