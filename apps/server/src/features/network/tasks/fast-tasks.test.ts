import { contentHash } from '@vigil/core';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import type { Database } from '../../../platform/db/schema.js';
import { registerArtifact, type ArtifactRow } from '../../artifacts/register-artifact.js';
import { describeEachDialect } from '../../../test-support/databases.js';
import { HOUR, T0, attest, bundle, newKey, seedRound, signedEnvelope, type SeededRound, type TestKey } from '../../../test-support/fixtures.js';
import { closeRound, openRound, startEvaluation } from '../rounds/rounds.js';
import { artifactStored } from './fast-tasks.js';
import { claimTasks, recordLeasedAttestations } from './leases.js';

const WINNER = newKey();
const LOSER = newKey();
const VALIDATORS = [newKey(), newKey()] as [TestKey, TestKey];
const LABELED = [
  { label: 'npm', sourceId: 'pkg:npm/bad@1.0.0', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
  { label: 'npm', sourceId: 'pkg:npm/ok@1.0.0', kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
];
const CLOSED_AT = T0 + 3 * HOUR;

/** A closed round of the packages track that WINNER won (right on both labeled artifacts) and LOSER lost (allows everything). */
async function closedRound(db: Kysely<Database>): Promise<SeededRound> {
  const seeded = await seedRound(db, { track: 'packages', now: T0, miners: [WINNER, LOSER], validators: VALIDATORS, artifacts: LABELED });
  for (const v of VALIDATORS) {
    for (const spec of LABELED) {
      await attest(db, seeded, WINNER, bundle('packages', spec), v, { verdict: spec.groundTruth, now: T0 + HOUR });
      await attest(db, seeded, LOSER, bundle('packages', spec), v, { verdict: 'ALLOW', now: T0 + HOUR });
    }
  }
  expect((await closeRound(db, { roundId: seeded.round.round_id, now: CLOSED_AT })).winners).toEqual([WINNER.hotkey]);
  return seeded;
}

async function stored(db: Kysely<Database>, seeded: SeededRound, sourceId: string, kind: 'live' | 'labeled', now: number): Promise<ArtifactRow> {
  const base = { track: 'packages' as const, label: 'npm', sourceId, contentHash: contentHash(sourceId), now };
  const row = await registerArtifact(db, kind === 'labeled' ? { ...base, kind, groundTruth: 'BLOCK' } : { ...base, kind });
  seeded.artifacts.set(row.bundle_hash, row);
  return row;
}

/** Each validator claims what it is offered and submits it in one batch, the incumbent answering `verdict`. */
async function runFastTasks(db: Kysely<Database>, seeded: SeededRound, now: number, verdict: 'BLOCK' | 'ALLOW') {
  for (const v of VALIDATORS) {
    const claim = await claimTasks(db, { validatorHotkey: v.hotkey, track: 'packages', max: 10, now });
    expect(claim.round?.round_id).toBe(seeded.round.round_id);
    const envelopes = claim.tasks.map((t) =>
      signedEnvelope(seeded, { taskId: t.taskId, hotkey: t.minerHotkey, bundleHash: t.bundleHash }, v, { verdict, createdAt: now }),
    );
    const results = await recordLeasedAttestations(db, envelopes, { validatorHotkey: v.hotkey, now });
    expect(results.every((r) => r.status === 'submitted' && r.outcome === 'created')).toBe(true);
  }
}

describeEachDialect('fast tasks', (ctx) => {
  it('are made once per incumbent, and a batch of attestations publishes a live artifact’s verdict with its event', async () => {
    const db = ctx.db();
    const seeded = await closedRound(db);
    const now = CLOSED_AT + 60_000;
    const live = await stored(db, seeded, 'pkg:npm/fresh@1.0.0', 'live', now);
    const made = await artifactStored(db, { artifactId: Number(live.id), now });
    expect(made.plan).toEqual({ status: 'planned', roundId: seeded.round.round_id, hotkeys: [WINNER.hotkey] });
    expect(made.taskIds).toHaveLength(1);
    // Storing it again makes nothing.
    expect(await artifactStored(db, { artifactId: Number(live.id), now })).toEqual({ plan: { status: 'none', reason: 'already_tasked' }, taskIds: [] });

    await runFastTasks(db, seeded, now + 1_000, 'BLOCK');
    expect(await db.selectFrom('published_verdicts').selectAll().where('artifact_id', '=', live.id).executeTakeFirst()).toMatchObject({
      verdict: 'BLOCK',
      round_id: seeded.round.round_id,
      updated_at: now + 1_000,
    });
    const changed = await db.selectFrom('outbox_events').select('payload').where('kind', '=', 'verdict.changed').where('resource', '=', `artifact:${live.bundle_hash}`).execute();
    expect(changed.map((e) => JSON.parse(e.payload) as { verdict: string; round_id: string })).toMatchObject([{ verdict: 'BLOCK', round_id: seeded.round.round_id }]);
    // The closed round's scores did not move.
    const results = await db.selectFrom('round_results').select(['hotkey', 'score', 'attestations']).where('round_id', '=', seeded.round.round_id).orderBy('hotkey').execute();
    expect(results.find((r) => r.hotkey === WINNER.hotkey)).toMatchObject({ score: 1, attestations: 4 });
  });

  it('run for a labeled artifact like a live one, and publish nothing for it', async () => {
    const db = ctx.db();
    const seeded = await closedRound(db);
    const now = CLOSED_AT + 60_000;
    const labeled = await stored(db, seeded, 'pkg:npm/new-bench@1.0.0', 'labeled', now);
    expect((await artifactStored(db, { artifactId: Number(labeled.id), now })).taskIds).toHaveLength(1);
    await runFastTasks(db, seeded, now + 1_000, 'BLOCK');
    expect(await db.selectFrom('attestations').selectAll().where('artifact_id', '=', labeled.id).execute()).toHaveLength(2);
    expect(await db.selectFrom('published_verdicts').selectAll().where('artifact_id', '=', labeled.id).executeTakeFirst()).toBeUndefined();
  });

  it('stop deciding once a newer round of the track has closed: its winners are the incumbents then', async () => {
    const db = ctx.db();
    const seeded = await closedRound(db);
    const now = CLOSED_AT + 60_000;
    const live = await stored(db, seeded, 'pkg:npm/late@1.0.0', 'live', now);
    await artifactStored(db, { artifactId: Number(live.id), now });
    // One validator runs the fast task before a second round (with no artifacts of its own) closes.
    const [first] = VALIDATORS;
    const claim = await claimTasks(db, { validatorHotkey: first.hotkey, track: 'packages', max: 10, now });
    expect(claim.tasks).toHaveLength(1);
    const round2 = await openRound(db, { track: 'packages', now: now + 1, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: seeded.round.policy_version });
    await startEvaluation(db, { roundId: round2.round_id, now: now + 2 });
    await closeRound(db, { roundId: round2.round_id, now: now + 3 });
    // Its attestation is still taken (the lease is live) but decides nothing; nothing is handed out any more.
    const envelope = signedEnvelope(seeded, { taskId: claim.tasks[0]!.taskId, hotkey: WINNER.hotkey, bundleHash: live.bundle_hash }, first, { verdict: 'BLOCK', createdAt: now + 4 });
    expect((await recordLeasedAttestations(db, [envelope], { validatorHotkey: first.hotkey, now: now + 4 }))[0]).toMatchObject({ status: 'submitted', outcome: 'created' });
    expect(await claimTasks(db, { validatorHotkey: VALIDATORS[1].hotkey, track: 'packages', max: 10, now: now + 5 })).toEqual({ round: null, tasks: [] });
    expect(await db.selectFrom('published_verdicts').selectAll().where('artifact_id', '=', live.id).executeTakeFirst()).toBeUndefined();
    // Round 2 had no winner, so an artifact stored now gets no fast task.
    const later = await stored(db, seeded, 'pkg:npm/later@1.0.0', 'live', now + 3 * HOUR);
    expect((await artifactStored(db, { artifactId: Number(later.id), now: now + 3 * HOUR })).plan).toEqual({ status: 'none', reason: 'no_incumbents' });
  });
});
