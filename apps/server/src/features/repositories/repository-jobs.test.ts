import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import type { Database } from '../../platform/db/schema.js';
import { createSecretBox } from '../../platform/secrets/secret-box.js';
import { describeEachDialect } from '../../test-support/databases.js';
import { T0 } from '../../test-support/fixtures.js';
import { createAccount } from '../accounts/accounts.js';
import {
  claimDueJob,
  enqueuePushJob,
  JOB_LEASE_MS,
  JobClaimLostError,
  markJobDone,
  MAX_JOB_ATTEMPTS,
  recordJobFailure,
  retryDelayMs,
} from './repository-jobs.js';
import { registerRepository } from './source-repositories.js';

const box = createSecretBox(randomBytes(32));
const sha = (n: number) => n.toString(16).padStart(40, '0');

async function repository(db: Kysely<Database>, name: string): Promise<string> {
  const account = await createAccount(db, { name: `org-${name}`, kind: 'organization', plan: 'paid', now: T0, actor: { name: 'operator', sourceIp: null } });
  const registered = await registerRepository(db, box, { accountId: account.account_id, accountKind: 'organization', url: `https://github.com/acme/${name}`, provider: 'github', policy: null, now: T0 });
  return registered.repository.id;
}

describeEachDialect('source repository jobs', (ctx) => {
  const enqueue = (repositoryId: string, delivery: string, n: number, now = T0) =>
    enqueuePushJob(ctx.db(), { repositoryId, deliveryId: delivery, ref: 'refs/heads/main', before: sha(n - 1), after: sha(n), now });
  const states = async () =>
    (await ctx.db().selectFrom('source_repository_jobs').select(['delivery_id', 'state', 'attempts']).orderBy('job_id').execute()).map(
      (j) => `${j.delivery_id}:${j.state}:${j.attempts}`,
    );

  it('runs only the newest job of a repository and supersedes the older ones when it is claimed', async () => {
    const id = await repository(ctx.db(), 'widgets');
    await enqueue(id, 'd-1', 1);
    await enqueue(id, 'd-2', 2);
    const claim = await claimDueJob(ctx.db(), T0);
    expect(claim?.job).toMatchObject({ delivery_id: 'd-2', state: 'running', attempts: 1, commit_sha: sha(2) });
    expect(await states()).toEqual([`initial:${id}:superseded:0`, 'd-1:superseded:0', 'd-2:running:1']);
    // Nothing else is due: one job per repository at a time.
    expect(await claimDueJob(ctx.db(), T0)).toBeUndefined();
  });

  it('never runs two jobs of one repository at once; other repositories proceed', async () => {
    const a = await repository(ctx.db(), 'a');
    const b = await repository(ctx.db(), 'b');
    const first = await claimDueJob(ctx.db(), T0);
    await enqueue(first!.job.repository_id, 'd-late', 5, T0 + 1);
    const second = await claimDueJob(ctx.db(), T0 + 2);
    // The push that arrived while the first job of its repository runs waits for it.
    expect(second?.job.repository_id).not.toBe(first!.job.repository_id);
    expect([a, b]).toContain(second?.job.repository_id);
    expect(await claimDueJob(ctx.db(), T0 + 3)).toBeUndefined();
    await ctx.db().transaction().execute((trx) => markJobDone(trx, first!, { verificationId: null, ref: 'refs/heads/main', commit: sha(1), now: T0 + 4 }));
    expect((await claimDueJob(ctx.db(), T0 + 5))?.job.delivery_id).toBe('d-late');
  });

  it('concurrent claimers take different jobs', async () => {
    for (const name of ['a', 'b', 'c']) await repository(ctx.db(), name);
    const claims = await Promise.all([0, 1, 2, 3].map(() => claimDueJob(ctx.db(), T0)));
    const taken = claims.filter((c) => c !== undefined).map((c) => c.job.job_id);
    expect(taken).toHaveLength(3);
    expect(new Set(taken).size).toBe(3);
  });

  it('retries a failed attempt after a growing wait, then gives up after MAX_JOB_ATTEMPTS', async () => {
    await repository(ctx.db(), 'widgets');
    let now = T0;
    for (let attempt = 1; attempt <= MAX_JOB_ATTEMPTS; attempt++) {
      const claim = await claimDueJob(ctx.db(), now);
      expect(claim?.job.attempts).toBe(attempt);
      const outcome = await recordJobFailure(ctx.db(), claim!, { message: `GitHub GET /repos/acme/widgets: 502 Bad Gateway (${attempt})`, retryable: true, now });
      expect(outcome).toBe(attempt < MAX_JOB_ATTEMPTS ? 'retrying' : 'failed');
      if (attempt < MAX_JOB_ATTEMPTS) {
        // Not before its time.
        expect(await claimDueJob(ctx.db(), now + retryDelayMs(attempt) - 1)).toBeUndefined();
        now += retryDelayMs(attempt);
      }
    }
    const job = await ctx.db().selectFrom('source_repository_jobs').selectAll().executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'failed', attempts: MAX_JOB_ATTEMPTS, last_error: `GitHub GET /repos/acme/widgets: 502 Bad Gateway (${MAX_JOB_ATTEMPTS})` });
    expect(await claimDueJob(ctx.db(), now + 86_400_000)).toBeUndefined();
  });

  it('a final failure is not retried; a redelivery of a failed push queues it again', async () => {
    const id = await repository(ctx.db(), 'widgets');
    await enqueue(id, 'd-1', 1);
    const claim = await claimDueJob(ctx.db(), T0);
    expect(await recordJobFailure(ctx.db(), claim!, { message: 'pnpm-lock.yaml: line 3: …', retryable: false, now: T0 })).toBe('failed');
    expect(await claimDueJob(ctx.db(), T0 + 86_400_000)).toBeUndefined();
    const again = await enqueue(id, 'd-1', 1, T0 + 10);
    expect(again).toMatchObject({ state: 'queued', attempts: 0, last_error: null });
    expect((await claimDueJob(ctx.db(), T0 + 10))?.job.delivery_id).toBe('d-1');
  });

  it('a job whose worker died is taken over after its lease, and the dead worker can no longer finish it', async () => {
    await repository(ctx.db(), 'widgets');
    const dead = await claimDueJob(ctx.db(), T0);
    expect(await claimDueJob(ctx.db(), T0 + JOB_LEASE_MS - 1)).toBeUndefined();
    const taken = await claimDueJob(ctx.db(), T0 + JOB_LEASE_MS);
    expect(taken?.job).toMatchObject({ job_id: dead!.job.job_id, attempts: 2 });
    await expect(
      ctx.db().transaction().execute((trx) => markJobDone(trx, dead!, { verificationId: null, ref: null, commit: null, now: T0 + JOB_LEASE_MS + 1 })),
    ).rejects.toBeInstanceOf(JobClaimLostError);
    expect(await recordJobFailure(ctx.db(), dead!, { message: 'late', retryable: true, now: T0 + JOB_LEASE_MS + 1 })).toBe('retrying');
    const job = await ctx.db().selectFrom('source_repository_jobs').selectAll().executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'running', claim_token: taken!.token, last_error: null });
  });

  it('waits what the provider asked for when that is longer than the backoff, capped at an hour', () => {
    expect(retryDelayMs(1)).toBe(30_000);
    expect(retryDelayMs(2)).toBe(120_000);
    expect(retryDelayMs(3)).toBe(480_000);
    expect(retryDelayMs(9)).toBe(3_600_000);
    expect(retryDelayMs(1, 600_000)).toBe(600_000);
    expect(retryDelayMs(1, 86_400_000)).toBe(3_600_000);
  });
});
