import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ProcessLog } from '../log/process-log.js';

/** `serve` runs the workers its settings keep in it; `worker` runs all of them. */
export type WorkerPlace = 'serve' | 'worker';

/** One background loop of the process, started after the app listens and stopped before the runtime closes. */
export interface BackgroundWorker {
  /** A short fixed name (`scheduler`, `webhooks`, …). */
  name: string;
  /** What it does, as the `worker` command's start line says it. */
  summary: string;
  /** The lease holder id it claims work under, where it has one. */
  holderId?: string;
  start(): void;
  stop(): Promise<void>;
}

/**
 * What every feature's worker may read of the process's runtime. A feature's worker entry names the
 * rest it needs (its settings, the blob store, a signal) in its own `Host`; the runtime has them all.
 */
export interface WorkerHost {
  readonly database: { readonly db: Kysely<Database> };
  readonly log: ProcessLog;
  /** The runtime's one clock (epoch ms): every worker's leases, retries and timestamps read it. */
  readonly clock: () => number;
}

/**
 * A feature's background work on the runtime, or undefined where `place` does not run it (a setting
 * keeps it out of `serve`, or turns it off). Features export a list of these as `workers`.
 */
export type WorkerEntry<Host extends WorkerHost = WorkerHost> = (host: Host, place: WorkerPlace) => BackgroundWorker | undefined;
