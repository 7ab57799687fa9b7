import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { createSecretBox } from '../../../platform/secrets/secret-box.js';
import { createAccount } from '../../accounts/accounts.js';
import { recordJobFailure, type ClaimedJob } from '../repository-jobs.js';
import { registerRepository } from '../source-repositories.js';
import { describeEachDialect } from '../../../test-support/databases.js';
import { T0 } from '../../../test-support/fixtures.js';
import { createRepositoryWorker } from './create-repository-worker.js';

describeEachDialect('repository worker', (ctx) => {
  async function repositories(names: string[]): Promise<void> {
    const account = await createAccount(ctx.db(), { name: 'acme', kind: 'organization', plan: 'paid', now: T0, actor: { name: 'operator', sourceIp: null } });
    const box = createSecretBox(randomBytes(32));
    for (const name of names) {
      await registerRepository(ctx.db(), box, { accountId: account.account_id, accountKind: 'organization', url: `https://github.com/acme/${name}`, provider: 'github', policy: null, now: T0 });
    }
  }

  it('drains every due job once, leaving failed attempts for their retry time', async () => {
    await repositories(['a', 'b', 'c']);
    const seen: string[] = [];
    const worker = createRepositoryWorker({
      db: ctx.db(),
      pollMs: 60_000,
      now: () => T0,
      process: async (claim: ClaimedJob) => {
        seen.push(claim.job.repository_id);
        await recordJobFailure(ctx.db(), claim, { message: 'provider down', retryable: true, now: T0 });
      },
    });
    expect(await worker.drain()).toBe(3);
    expect(new Set(seen).size).toBe(3);
    expect(await worker.drain()).toBe(0);
  });

  it('a job whose processing throws is logged and left to its lease; stop waits for the job in hand', async () => {
    await repositories(['a', 'b']);
    const errors: string[] = [];
    let release: () => void = () => {};
    let started: () => void = () => {};
    const inHand = new Promise<void>((resolve) => (started = resolve));
    let finished = 0;
    const worker = createRepositoryWorker({
      db: ctx.db(),
      pollMs: 60_000,
      now: () => T0,
      logger: { info: () => {}, error: (_obj, message) => errors.push(message) },
      process: async (claim) => {
        if (claim.job.job_id === 1) throw new Error('bug');
        started();
        await new Promise<void>((resolve) => (release = resolve));
        finished += 1;
      },
    });
    worker.start();
    await inHand;
    const stopping = worker.stop();
    release();
    await stopping;
    expect(finished).toBe(1);
    expect(errors).toEqual(['repository worker: job failed unexpectedly']);
    const jobs = await ctx.db().selectFrom('source_repository_jobs').select(['job_id', 'state']).orderBy('job_id').execute();
    // Neither finished its job (the stand-in process recorded nothing): both still claimed, until their lease runs out.
    expect(jobs.map((j) => j.state)).toEqual(['running', 'running']);
  });
});
