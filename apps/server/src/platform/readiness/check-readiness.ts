import { sql, type Kysely } from 'kysely';
import { pendingMigrations } from '../db/migrate.js';
import type { Database } from '../db/schema.js';

export type Readiness = { ready: true } | { ready: false; reason: string };

/** The longest a readiness check waits for the database unless told otherwise (VIGIL_METRICS_QUERY_TIMEOUT_MS). */
export const DEFAULT_READINESS_TIMEOUT_MS = 2_000;

function within<T>(work: Promise<T>, timeoutMs: number, late: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(late)), timeoutMs);
  });
  work.catch(() => undefined);
  return Promise.race([work, bound]).finally(() => clearTimeout(timer));
}

/**
 * Ready to take traffic (docs/operations.md, "Readiness"): the database answers a query within
 * `timeoutMs`, and every migration this code knows is applied. Liveness (`/v1/health`) asks
 * neither: a process that cannot reach its database is alive, only not ready.
 */
export async function checkReadiness(db: Kysely<Database>, timeoutMs = DEFAULT_READINESS_TIMEOUT_MS): Promise<Readiness> {
  const started = Date.now();
  try {
    await within(sql`select 1`.execute(db), timeoutMs, `no answer within ${timeoutMs} ms`);
  } catch (error) {
    return { ready: false, reason: `database unreachable (${(error as Error).message})` };
  }
  let pending: string[];
  try {
    pending = await within(pendingMigrations(db), Math.max(1, timeoutMs - (Date.now() - started)), `no answer within ${timeoutMs} ms`);
  } catch (error) {
    return { ready: false, reason: `migrations unknown: the migration table cannot be read (${(error as Error).message})` };
  }
  if (pending.length > 0) {
    return { ready: false, reason: `migrations behind: ${pending.length} not applied (${pending.join(', ')}); run vigil-server migrate` };
  }
  return { ready: true };
}

/**
 * One readiness check at a time for `db`: probes that arrive while a check runs share its answer,
 * so a flood of probes (load balancers, kubelets, a database stall that makes each check slow)
 * costs the database one check at a time instead of one per probe. Both `GET /v1/ready` and the
 * metrics port's `GET /ready` answer through one of these (docs/operations.md, "Probes").
 */
export function sharedReadinessCheck(db: Kysely<Database>, timeoutMs = DEFAULT_READINESS_TIMEOUT_MS): () => Promise<Readiness> {
  let inFlight: Promise<Readiness> | undefined;
  return () => {
    inFlight ??= checkReadiness(db, timeoutMs).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
