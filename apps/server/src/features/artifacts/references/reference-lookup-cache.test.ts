import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test-support/databases.js';
import { T0 } from '../../../test-support/fixtures.js';
import { OPERATOR } from '../../../platform/audit-log.js';
import { createAccount } from '../../accounts/accounts.js';
import { registerArtifact } from '../register-artifact.js';
import { TRUSTED_CLAIMS_ONLY } from './reference-claims.js';
import { openRound } from '../../network/rounds/rounds.js';
import { createVerifyCache } from './reference-lookup-cache.js';

const PURL = 'pkg:npm/left-pad@1.3.0';

describeEachDialect('verify cache', (ctx) => {
  it('answers from memory for its lifetime, then reads again; forget drops one reference at once', async () => {
    const db = ctx.db();
    let clock = T0;
    const cache = createVerifyCache(db, { ttlMs: 5_000, now: () => clock });
    const account = await createAccount(db, { name: 'acme', kind: 'organization', plan: 'paid', now: T0, actor: OPERATOR });
    const acme = { accountId: account.account_id };
    expect((await cache.verify(acme, [PURL]))[0]).toMatchObject({ state: 'pending', queued: false });

    // Another instance stores the package and a round decides it.
    const artifact = await registerArtifact(db, { track: 'packages', label: 'npm', sourceId: PURL, contentHash: `sha256:${'ab'.repeat(32)}`, kind: 'live', now: T0 });
    await db
      .insertInto('artifact_packages')
      .values({ artifact_id: artifact.id, purl: PURL, ecosystem: 'npm', namespace: null, name: 'left-pad', version: '1.3.0', uploaded_by: account.account_id, size: 1, media_type: 'application/octet-stream', created_at: T0 })
      .execute();
    const round = await openRound(db, { track: 'packages', now: T0, submissionMs: 1, evaluationMs: 1, policyVersion: 'p' });
    await db.insertInto('published_verdicts').values({ artifact_id: artifact.id, verdict: 'BLOCK', risk_score: 70, round_id: round.round_id, updated_at: T0 }).execute();

    // Within the lifetime: the remembered answer.
    clock += 4_999;
    expect((await cache.verify(acme, [PURL]))[0]).toMatchObject({ state: 'pending' });
    // Past it: read again.
    clock += 2;
    expect(await cache.verify(acme, [PURL, 'pkg:npm/other@1.0.0'])).toMatchObject([{ state: 'decided', verdict: 'BLOCK' }, { state: 'pending' }]);

    // An upload on this instance forgets the reference: the next answer is read afresh.
    await db.updateTable('published_verdicts').set({ verdict: 'WARN' }).where('artifact_id', '=', artifact.id).execute();
    expect((await cache.verify(acme, [PURL]))[0]).toMatchObject({ verdict: 'BLOCK' });
    cache.forget(PURL);
    expect((await cache.verify(acme, [PURL]))[0]).toMatchObject({ verdict: 'WARN' });
  });

  it("keeps each account's answer apart from another's and from the trusted-only one", async () => {
    const db = ctx.db();
    const cache = createVerifyCache(db, { ttlMs: 5_000, now: () => T0 });
    const acme = await createAccount(db, { name: 'acme', kind: 'organization', plan: 'paid', now: T0, actor: OPERATOR });
    const globex = await createAccount(db, { name: 'globex', kind: 'organization', plan: 'paid', now: T0, actor: OPERATOR });
    const artifact = await registerArtifact(db, { track: 'packages', label: 'npm', sourceId: PURL, contentHash: `sha256:${'cd'.repeat(32)}`, kind: 'live', now: T0 });
    await db
      .insertInto('artifact_packages')
      .values({ artifact_id: artifact.id, purl: PURL, ecosystem: 'npm', namespace: null, name: 'left-pad', version: '1.3.0', uploaded_by: acme.account_id, size: 1, media_type: 'application/octet-stream', created_at: T0 })
      .execute();

    // Only acme claimed the reference: acme sees its upload queued, nobody else sees anything.
    expect((await cache.verify({ accountId: acme.account_id }, [PURL]))[0]).toMatchObject({ state: 'pending', queued: true });
    expect((await cache.verify({ accountId: globex.account_id }, [PURL]))[0]).toMatchObject({ state: 'pending', queued: false, artifact_id: null });
    expect(await cache.verifyJson(TRUSTED_CLAIMS_ONLY, PURL)).toContain('"queued":false');
    // A forget drops every view of the reference.
    await db.updateTable('accounts').set({ trusted: 1 }).where('account_id', '=', acme.account_id).execute();
    expect((await cache.verify({ accountId: globex.account_id }, [PURL]))[0]).toMatchObject({ queued: false });
    cache.forget(PURL);
    expect((await cache.verify({ accountId: globex.account_id }, [PURL]))[0]).toMatchObject({ queued: true });
    expect(JSON.parse(await cache.verifyJson(TRUSTED_CLAIMS_ONLY, PURL))).toMatchObject({ queued: true });
  });
});
