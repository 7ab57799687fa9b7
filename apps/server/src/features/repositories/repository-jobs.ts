import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { skipLockedClause } from '../../platform/db/dialect.js';
import type { Database, SourceRepositoryJobsTable } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';

export type SourceRepositoryJob = Selectable<SourceRepositoryJobsTable>;

/** Attempts before a push whose provider keeps failing is given up (`failed`). */
export const MAX_JOB_ATTEMPTS = 8;
/** The wait after the first failed attempt; each further failure waits four times longer, up to MAX_RETRY_DELAY_MS. */
export const FIRST_RETRY_DELAY_MS = 30_000;
export const MAX_RETRY_DELAY_MS = 3_600_000;
/** How long a claim holds: a worker that died mid-job leaves it to be taken over after this. */
export const JOB_LEASE_MS = 5 * 60_000;

/** The wait before attempt `attempts + 1`, given `attempts` failed ones (and what the provider asked for). */
export function retryDelayMs(attempts: number, providerWaitMs?: number): number {
  const backoff = Math.min(FIRST_RETRY_DELAY_MS * 4 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
  return Math.min(Math.max(backoff, providerWaitMs ?? 0), MAX_RETRY_DELAY_MS);
}

/** The job registration queues: the default branch as it is now, every lockfile read. */
export async function enqueueInitialJob(trx: Kysely<Database>, repositoryId: string, now: number): Promise<SourceRepositoryJob> {
  return trx
    .insertInto('source_repository_jobs')
    .values({
      repository_id: repositoryId,
      delivery_id: `initial:${repositoryId}`,
      kind: 'initial',
      ref: null,
      before_commit: null,
      commit_sha: null,
      state: 'queued',
      attempts: 0,
      next_attempt_at: now,
      claim_token: null,
      locked_until: null,
      last_error: null,
      verification_id: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface PushJobInput {
  repositoryId: string;
  deliveryId: string;
  ref: string;
  before: string;
  after: string;
  now: number;
}

/**
 * Queues a push once per delivery: a redelivery of the same X-GitHub-Delivery finds the job already
 * there and changes nothing, except that a push that was given up (`failed`) is queued again, which
 * is what "Redeliver" in GitHub's settings is for.
 */
export async function enqueuePushJob(db: Kysely<Database>, input: PushJobInput): Promise<SourceRepositoryJob> {
  return inTransaction(db, async (trx) => {
    await trx
      .insertInto('source_repository_jobs')
      .values({
        repository_id: input.repositoryId,
        delivery_id: input.deliveryId,
        kind: 'push',
        ref: input.ref,
        before_commit: input.before,
        commit_sha: input.after,
        state: 'queued',
        attempts: 0,
        next_attempt_at: input.now,
        claim_token: null,
        locked_until: null,
        last_error: null,
        verification_id: null,
        created_at: input.now,
        updated_at: input.now,
      })
      .onConflict((oc) => oc.columns(['repository_id', 'delivery_id']).doNothing())
      .execute();
    await trx
      .updateTable('source_repository_jobs')
      .set({ state: 'queued', attempts: 0, next_attempt_at: input.now, last_error: null, updated_at: input.now })
      .where('repository_id', '=', input.repositoryId)
      .where('delivery_id', '=', input.deliveryId)
      .where('state', '=', 'failed')
      .execute();
    return trx
      .selectFrom('source_repository_jobs')
      .selectAll()
      .where('repository_id', '=', input.repositoryId)
      .where('delivery_id', '=', input.deliveryId)
      .executeTakeFirstOrThrow();
  });
}

export interface ClaimedJob {
  job: SourceRepositoryJob;
  /** Proves the claim when the job is finished: a claim taken over by another worker no longer finishes it. */
  token: string;
}

/**
 * Claims the next due job, if any. Per repository only its newest job runs (a verification of an
 * older commit would be outdated by the time it is stored), and never beside another running job of
 * the same repository; older queued jobs are marked `superseded` when a newer one is claimed.
 * Concurrent claimers take different rows (skip-locked on PostgreSQL; the conditional update
 * decides on SQLite), and a `running` job whose lease expired (its worker died) is due again.
 */
export async function claimDueJob(db: Kysely<Database>, now: number): Promise<ClaimedJob | undefined> {
  return inTransaction(db, async (trx) => {
    const candidate = await sql<{ job_id: number }>`
      select j.job_id from source_repository_jobs j
      where ((j.state = 'queued' and j.next_attempt_at <= ${now}) or (j.state = 'running' and j.locked_until <= ${now}))
        and not exists (select 1 from source_repository_jobs n
          where n.repository_id = j.repository_id and n.job_id > j.job_id and n.state in ('queued', 'running'))
        and not exists (select 1 from source_repository_jobs r
          where r.repository_id = j.repository_id and r.job_id <> j.job_id and r.state = 'running' and r.locked_until > ${now})
      order by j.next_attempt_at, j.job_id
      limit 1
      ${skipLockedClause(trx, 'j')}`.execute(trx);
    const jobId = candidate.rows[0]?.job_id;
    if (jobId === undefined) return undefined;
    const token = randomUUID();
    const claimed = await trx
      .updateTable('source_repository_jobs')
      .set((eb) => ({
        state: 'running',
        claim_token: token,
        locked_until: now + JOB_LEASE_MS,
        attempts: eb('attempts', '+', 1),
        updated_at: now,
      }))
      .where('job_id', '=', Number(jobId))
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'running'), eb('locked_until', '<=', now)]),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
    if (claimed === undefined) return undefined;
    await trx
      .updateTable('source_repository_jobs')
      .set({ state: 'superseded', claim_token: null, locked_until: null, last_error: `superseded by delivery ${claimed.delivery_id}`, updated_at: now })
      .where('repository_id', '=', claimed.repository_id)
      .where('job_id', '<', claimed.job_id)
      .where('state', 'in', ['queued', 'running'])
      .execute();
    return { job: claimed, token };
  });
}

/** Thrown inside a finishing transaction when the claim was lost (taken over after the lease): nothing it wrote is kept. */
export class JobClaimLostError extends Error {
  override name = 'JobClaimLostError';
}

/** Marks the claimed job done (in the caller's transaction, with what it stored), or throws JobClaimLostError. */
export async function markJobDone(
  trx: Transaction<Database>,
  claim: ClaimedJob,
  done: { verificationId: number | null; ref: string | null; commit: string | null; now: number },
): Promise<void> {
  const result = await trx
    .updateTable('source_repository_jobs')
    .set({
      state: 'done',
      verification_id: done.verificationId,
      ref: done.ref,
      commit_sha: done.commit,
      claim_token: null,
      locked_until: null,
      last_error: null,
      updated_at: done.now,
    })
    .where('job_id', '=', claim.job.job_id)
    .where('claim_token', '=', claim.token)
    .where('state', '=', 'running')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new JobClaimLostError(`job ${claim.job.job_id}: claim lost`);
}

/**
 * Records a failed attempt: queued again after retryDelayMs while attempts remain and the failure is
 * worth retrying, otherwise `failed` for good. `resolved` keeps what the attempt learned (the
 * default branch and commit of a first verification). No-op when the claim was lost.
 */
export async function recordJobFailure(
  db: Kysely<Database>,
  claim: ClaimedJob,
  failure: { message: string; retryable: boolean; providerWaitMs?: number; now: number; resolved?: { ref: string; commit: string } },
): Promise<'retrying' | 'failed'> {
  const attempts = claim.job.attempts;
  const retry = failure.retryable && attempts < MAX_JOB_ATTEMPTS;
  await db
    .updateTable('source_repository_jobs')
    .set({
      state: retry ? 'queued' : 'failed',
      next_attempt_at: retry ? failure.now + retryDelayMs(attempts, failure.providerWaitMs) : claim.job.next_attempt_at,
      last_error: failure.message.slice(0, 2000),
      claim_token: null,
      locked_until: null,
      updated_at: failure.now,
      ...(failure.resolved ? { ref: failure.resolved.ref, commit_sha: failure.resolved.commit } : {}),
    })
    .where('job_id', '=', claim.job.job_id)
    .where('claim_token', '=', claim.token)
    .where('state', '=', 'running')
    .execute();
  return retry ? 'retrying' : 'failed';
}
