import { sql, type Kysely } from 'kysely';
import { singleRunnerStrategy } from '../../../../platform/db/dialect.js';
import type { Database } from '../../../../platform/db/schema.js';

/** First key of every Vigil advisory lock ('VIG1'); the second is hashed from schema and name. */
export const ADVISORY_LOCK_NAMESPACE = 0x56494731;

export interface RunExclusivelyOptions {
  /** What is being run; one runner per name (and, on PostgreSQL, per schema). */
  name: string;
  /** This process's id: the SQLite lease holder. */
  holderId: string;
  /** Epoch ms; the SQLite lease is compared against it. */
  now: number;
  /** SQLite: how long the lease stays valid if its holder dies mid-run. */
  leaseMs: number;
}

export type ExclusiveRun<T> = { acquired: true; value: T } | { acquired: false };

/**
 * Runs `fn` only if no other process is running the same `name`; otherwise returns
 * `{ acquired: false }` at once (never waits). PostgreSQL: a session advisory lock
 * (pg_try_advisory_lock) on one pooled connection, released after `fn` (or by the server when the
 * connection dies); `fn` gets that connection. SQLite: a lease row in scheduler_leases taken with
 * one upsert that succeeds only when the lease is free, expired or already ours (SQLite
 * serialises writers, so two processes cannot both take it), deleted after `fn`.
 */
export async function runExclusively<T>(
  db: Kysely<Database>,
  options: RunExclusivelyOptions,
  fn: (db: Kysely<Database>) => Promise<T>,
): Promise<ExclusiveRun<T>> {
  return singleRunnerStrategy(db) === 'advisory-lock' ? withAdvisoryLock(db, options.name, fn) : withLease(db, options, fn);
}

async function withAdvisoryLock<T>(
  db: Kysely<Database>,
  name: string,
  fn: (db: Kysely<Database>) => Promise<T>,
): Promise<ExclusiveRun<T>> {
  // Keyed by schema too: deployments (or test runs) sharing one PostgreSQL database in separate
  // schemas must not block each other.
  const key = sql`${ADVISORY_LOCK_NAMESPACE}::integer, hashtext(current_schema() || '/' || ${name}::text)`;
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ acquired: boolean }>`select pg_try_advisory_lock(${key}) as acquired`.execute(conn);
    if (rows[0]?.acquired !== true) return { acquired: false };
    try {
      return { acquired: true, value: await fn(conn) };
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}

async function withLease<T>(
  db: Kysely<Database>,
  options: RunExclusivelyOptions,
  fn: (db: Kysely<Database>) => Promise<T>,
): Promise<ExclusiveRun<T>> {
  const { name, holderId, now } = options;
  let taken: boolean;
  try {
    const result = await db
      .insertInto('scheduler_leases')
      .values({ name, holder: holderId, expires_at: now + options.leaseMs })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet((eb) => ({ holder: eb.ref('excluded.holder'), expires_at: eb.ref('excluded.expires_at') }))
          .where((eb) => eb.or([eb('scheduler_leases.expires_at', '<=', now), eb('scheduler_leases.holder', '=', holderId)])),
      )
      .executeTakeFirst();
    taken = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  } catch (error) {
    // Another connection holds the write lock past busy_timeout: it is busy, so is the runner.
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return { acquired: false };
    throw error;
  }
  if (!taken) return { acquired: false };
  try {
    return { acquired: true, value: await fn(db) };
  } finally {
    await db.deleteFrom('scheduler_leases').where('name', '=', name).where('holder', '=', holderId).execute();
  }
}
