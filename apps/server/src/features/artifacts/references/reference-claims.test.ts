import { CompiledQuery, sql } from 'kysely';
import { expect, it } from 'vitest';
import { OPERATOR } from '../../../platform/audit-log.js';
import { describeEachDialect } from '../../../test-support/databases.js';
import { T0 } from '../../../test-support/fixtures.js';
import { createAccount, updateAccount } from '../../accounts/accounts.js';
import { registerArtifact } from '../register-artifact.js';
import { verifyReferences } from '../customer-artifacts.js';
import { referenceViewOf, TRUSTED_CLAIMS_ONLY } from './reference-claims.js';
import { openRound } from '../../network/rounds/rounds.js';

describeEachDialect('package reference claims', (ctx) => {
  async function setup() {
    const db = ctx.db();
    const acme = await createAccount(db, { name: 'acme', kind: 'organization', plan: 'paid', now: T0, actor: OPERATOR });
    const mallory = await createAccount(db, { name: 'mallory', kind: 'organization', plan: 'free', now: T0, actor: OPERATOR });
    const ops = await createAccount(db, { name: 'vigil-ops', kind: 'organization', plan: 'free', now: T0, actor: OPERATOR });
    await updateAccount(db, { accountId: ops.account_id, trusted: true, now: T0, actor: OPERATOR });
    const round = await openRound(db, { track: 'packages', now: T0, submissionMs: 1, evaluationMs: 1, policyVersion: 'p' });
    let n = 0;
    /** A decided live artifact claimed as `purl` by `by`. */
    const claim = async (purl: string, by: string, decided: { verdict: 'ALLOW' | 'WARN' | 'BLOCK'; risk: number; at: number } | null) => {
      n += 1;
      const artifact = await registerArtifact(db, { track: 'packages', label: 'npm', sourceId: `${purl}#${n}`, contentHash: `sha256:${n.toString(16).padStart(64, '0')}`, kind: 'live', now: T0 });
      await db
        .insertInto('artifact_packages')
        .values({ artifact_id: artifact.id, purl, ecosystem: 'npm', namespace: null, name: 'x', version: '1.0.0', uploaded_by: by, size: 1, media_type: 'application/octet-stream', created_at: T0 + n })
        .execute();
      if (decided) {
        await db.insertInto('published_verdicts').values({ artifact_id: artifact.id, verdict: decided.verdict, risk_score: decided.risk, round_id: round.round_id, updated_at: decided.at }).execute();
      }
      return `art_${artifact.id}`;
    };
    return { db, acme: acme.account_id, mallory: mallory.account_id, ops: ops.account_id, claim };
  }

  it('resolves conflicting counted claims by severity, then risk, then the later decision; uncounted ones never take part', async () => {
    const { db, acme, mallory, ops, claim } = await setup();
    const purl = 'pkg:npm/x@1.0.0';
    const warnLow = await claim(purl, ops, { verdict: 'WARN', risk: 40, at: T0 });
    const warnHigh = await claim(purl, acme, { verdict: 'WARN', risk: 60, at: T0 });
    await claim(purl, mallory, { verdict: 'BLOCK', risk: 99, at: T0 + 10 });
    const view = referenceViewOf({ accountId: acme, trusted: false });
    expect((await verifyReferences(db, [purl], view))[0]).toMatchObject({ verdict: 'WARN', risk_score: 60, artifact_id: warnHigh });
    expect((await verifyReferences(db, [purl], TRUSTED_CLAIMS_ONLY))[0]).toMatchObject({ verdict: 'WARN', risk_score: 40, artifact_id: warnLow });
    // Mallory's own BLOCK answers for Mallory.
    expect((await verifyReferences(db, [purl], { accountId: mallory }))[0]).toMatchObject({ verdict: 'BLOCK', risk_score: 99 });
    // Equal severity and risk: the later decision.
    const later = await claim(purl, ops, { verdict: 'WARN', risk: 60, at: T0 + 5 });
    expect((await verifyReferences(db, [purl], view))[0]).toMatchObject({ artifact_id: later });
    // Undecided claims never outrank a decided one; with none decided, the first counted claim is the queued one.
    const pendingPurl = 'pkg:npm/y@1.0.0';
    await claim(pendingPurl, mallory, null);
    const mine = await claim(pendingPurl, acme, null);
    expect((await verifyReferences(db, [pendingPurl], view))[0]).toMatchObject({ state: 'pending', queued: true, artifact_id: mine });
  });

  it('verifies 2,000 references in one statement that reads claims through the purl index', async () => {
    const { db, acme, mallory, claim } = await setup();
    await claim('pkg:npm/dep-7@1.0.0', mallory, { verdict: 'BLOCK', risk: 90, at: T0 });
    await claim('pkg:npm/dep-8@1.0.0', acme, null);
    // Enough other claims that a planner weighs the indexes as it would on a real table.
    const other = await claim('pkg:npm/other@0.0.0', mallory, null);
    const rows = Array.from({ length: 4_000 }, (_, i) => ({
      artifact_id: Number(other.slice('art_'.length)),
      purl: `pkg:npm/other-${i}@1.0.0`,
      ecosystem: 'npm',
      namespace: null,
      name: `other-${i}`,
      version: '1.0.0',
      uploaded_by: i % 2 === 0 ? mallory : acme,
      size: 1,
      media_type: 'application/octet-stream',
      created_at: T0,
    }));
    for (let i = 0; i < rows.length; i += 1_000) await db.insertInto('artifact_packages').values(rows.slice(i, i + 1_000)).execute();
    await sql`analyze`.execute(db);
    const statements: CompiledQuery[] = [];
    const recording = db.withPlugin({
      transformQuery: (args) => {
        statements.push(db.getExecutor().compileQuery(args.node, args.queryId));
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const purls = Array.from({ length: 2_000 }, (_, i) => `pkg:npm/dep-${i}@1.0.0`);
    const results = await verifyReferences(recording, purls, { accountId: acme });
    expect(results[7]).toMatchObject({ state: 'pending', queued: false });
    expect(results[8]).toMatchObject({ state: 'pending', queued: true });
    // Nothing decided counts for acme, so no attestation is read: the claims query is the only one.
    expect(statements).toHaveLength(1);
    // The plan: 2,000 references would be half this test table, a shape no real table has, so the
    // planner is asked about 20 against its 4,000 claims. Each purl is an index search.
    await verifyReferences(recording, purls.slice(0, 20), { accountId: acme });
    const compiled = statements[1]!;
    if (ctx.dialect === 'sqlite') {
      const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
      const details = plan.rows.map((r) => r.detail).join('\n');
      expect(details).toMatch(/SEARCH artifact_packages USING (COVERING )?INDEX artifact_packages_purl_idx \(purl=\?/);
      expect(details).toMatch(/accounts USING COVERING INDEX accounts_trusted_idx \(trusted=\?\)/);
    } else {
      const plan = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
        return trx.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]));
      });
      const text = JSON.stringify(plan.rows[0]!['QUERY PLAN']);
      expect(text).toContain('"Index Name":"artifact_packages_purl_idx"');
      expect(text).toContain('"Index Name":"accounts_trusted_idx"');
    }
  });
});
