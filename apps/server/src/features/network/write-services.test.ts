import { LIMITS } from '@vigil/core';
import { expect, it } from 'vitest';
import { pendingOutboxEvents } from '../../platform/outbox.js';
import { describeEachDialect } from '../../test-support/databases.js';
import { DAY, HOUR, T0, attest, bundle, codeHash, newKey, seedRound, signedEnvelope, findTask } from '../../test-support/fixtures.js';
import { deleteAgent, submitAgent } from './miners/agents.js';
import { registerArtifact } from '../artifacts/register-artifact.js';
import { recordAttestation } from './attestations/attestations.js';
import { VigilError } from '../../platform/errors.js';
import { deregisterMiner, registerMiner } from './miners/miners.js';
import { closeRound, openRound, startEvaluation } from './rounds/rounds.js';
import { createTasks } from './tasks/tasks.js';
import { registerValidator, setValidatorStatus, findValidator } from './validators/validators.js';

const LABELED = [
  { label: 'bench', sourceId: 'mal-1', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
  { label: 'bench', sourceId: 'mal-2', kind: 'labeled' as const, groundTruth: 'WARN' as const },
  { label: 'bench', sourceId: 'ok-1', kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
  { label: 'bench', sourceId: 'ok-2', kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
];
const LIVE = [{ label: 'clawhub', sourceId: 'weather-skill', kind: 'live' as const }];

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<VigilError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VigilError);
  expect((error as VigilError).code).toBe(code);
  return error as VigilError;
}

describeEachDialect('write services', (ctx) => {
  it('submitAgent: identical submissions racing create one version; the others are answered with it', async () => {
    const db = ctx.db();
    const miner = newKey();
    await registerMiner(db, { hotkey: miner.hotkey, track: 'skills', now: T0 });
    const input = { hotkey: miner.hotkey, track: 'skills' as const, name: 'a', provider: 'p', codeHash: codeHash('race'), now: T0 };
    // On PostgreSQL each call takes its own pooled connection: a real race, not a queue.
    const results = await Promise.all(Array.from({ length: 12 }, () => submitAgent(db, input)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.version))).toEqual(new Set([1]));
    expect(new Set(results.map((r) => r.submitted_at))).toEqual(new Set([T0]));
    const versions = await db.selectFrom('agent_versions').select('version').where('hotkey', '=', miner.hotkey).execute();
    expect(versions).toEqual([{ version: 1 }]);
    // A changed submission is still a new version.
    const changed = await submitAgent(db, { ...input, name: 'b', now: T0 + 1 });
    expect({ created: changed.created, version: changed.version }).toEqual({ created: true, version: 2 });
  });

  it('submitAgent needs a registration and numbers versions per hotkey and track, also after a deletion', async () => {
    const db = ctx.db();
    const miner = newKey();
    await rejectsWith(
      submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a', provider: 'p', codeHash: codeHash('1'), now: T0 }),
      'miner_not_registered',
    );
    await registerMiner(db, { hotkey: miner.hotkey, track: 'skills', now: T0 });
    await registerMiner(db, { hotkey: miner.hotkey, track: 'packages', now: T0 });
    const v1 = await submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a', provider: 'p', codeHash: codeHash('1'), now: T0 });
    const v2 = await submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a2', provider: 'p', codeHash: codeHash('2'), now: T0 + 1 });
    const other = await submitAgent(db, { hotkey: miner.hotkey, track: 'packages', name: 'b', provider: 'p', codeHash: codeHash('3'), now: T0 });
    expect([v1.version, v2.version, other.version]).toEqual([1, 2, 1]);
    expect(v2).toMatchObject({ name: 'a2', code_hash: codeHash('2'), status: 'active', created_at: T0, updated_at: T0 + 1 });

    await deleteAgent(db, { hotkey: miner.hotkey, track: 'skills', now: T0 + 2 });
    await expect(deleteAgent(db, { hotkey: miner.hotkey, track: 'skills', now: T0 + 3 })).rejects.toMatchObject({ code: 'agent_not_found' });
    const v3 = await submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a3', provider: 'p', codeHash: codeHash('4'), now: T0 + 4 });
    expect(v3).toMatchObject({ version: 3, status: 'active' });
    const history = await db.selectFrom('agent_versions').select('version').where('hotkey', '=', miner.hotkey).where('track', '=', 'skills').orderBy('version').execute();
    expect(history.map((h) => h.version)).toEqual([1, 2, 3]);

    const bad = await rejectsWith(
      submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a', provider: 'p', codeHash: 'md5:abc', now: T0 }),
      'invalid_argument',
    );
    expect(bad.message).toMatch(/^codeHash:/);
    expect(await deregisterMiner(db, { hotkey: miner.hotkey, track: 'skills', now: T0 })).toBe(true);
    await rejectsWith(
      submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a', provider: 'p', codeHash: codeHash('5'), now: T0 }),
      'miner_not_registered',
    );
  });

  it('registerValidator keeps a suspension on re-registration and validates IPs', async () => {
    const db = ctx.db();
    const v = newKey();
    const created = await registerValidator(db, { hotkey: v.hotkey, uid: 3, allowedIps: ['10.0.0.1', '10.0.0.1', '::1'], now: T0 });
    expect(created).toMatchObject({ uid: 3, status: 'active', allowedIps: ['10.0.0.1', '::1'], lastSeenAt: null });
    await setValidatorStatus(db, { hotkey: v.hotkey, status: 'suspended', now: T0 });
    const again = await registerValidator(db, { hotkey: v.hotkey, uid: 4, allowedIps: ['10.0.0.2'], now: T0 + 1 });
    expect(again).toMatchObject({ uid: 4, status: 'suspended', allowedIps: ['10.0.0.2'] });
    const error = await rejectsWith(registerValidator(db, { hotkey: v.hotkey, uid: 1, allowedIps: ['nope'], now: T0 }), 'invalid_argument');
    expect(error.message).toMatch(/^allowedIps:/);
  });

  it('submitAgent: at most LIMITS.maxAgentVersionsPerDay new versions per track in any 24 hours, 429 with Retry-After beyond', async () => {
    const db = ctx.db();
    const miner = newKey();
    await registerMiner(db, { hotkey: miner.hotkey, track: 'skills', now: T0 });
    await registerMiner(db, { hotkey: miner.hotkey, track: 'packages', now: T0 });
    const max = LIMITS.maxAgentVersionsPerDay;
    for (let i = 0; i < max; i += 1) {
      await submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a', provider: 'p', codeHash: codeHash(`v${i}`), now: T0 + i * 60_000 });
    }
    const refused = await rejectsWith(
      submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a', provider: 'p', codeHash: codeHash('one-too-many'), now: T0 + max * 60_000 }),
      'agent_submission_limit',
    );
    expect(refused.status).toBe(429);
    // The first version leaves the window one day after it was submitted.
    expect(refused.headers?.['retry-after']).toBe(String((DAY - max * 60_000) / 1000));
    // A repeat of the current version is not a new version: never refused.
    const repeat = await submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a', provider: 'p', codeHash: codeHash(`v${max - 1}`), now: T0 + max * 60_000 });
    expect(repeat.created).toBe(false);
    // Another track has its own budget, and the window slides.
    expect((await submitAgent(db, { hotkey: miner.hotkey, track: 'packages', name: 'b', provider: 'p', codeHash: codeHash('p'), now: T0 })).created).toBe(true);
    const later = await submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a', provider: 'p', codeHash: codeHash('next-day'), now: T0 + DAY + 1 });
    expect(later.version).toBe(max + 1);
  });

  it('startEvaluation freezes at most LIMITS.maxAgentsPerRound agents, the earliest-submitted first', async () => {
    const db = ctx.db();
    const round = await openRound(db, { track: 'mcp_servers', now: T0, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p1' });
    const total = LIMITS.maxAgentsPerRound + 3;
    const miners = Array.from({ length: total }, () => newKey());
    for (const [i, miner] of miners.entries()) {
      await registerMiner(db, { hotkey: miner.hotkey, track: 'mcp_servers', now: T0 });
      // Submitted in reverse order of the list: the last three miners submitted first.
      await submitAgent(db, { hotkey: miner.hotkey, track: 'mcp_servers', name: 'a', provider: 'p', codeHash: codeHash(`m${i}`), now: T0 + (total - i) * 1000 });
    }
    expect(await startEvaluation(db, { roundId: round.round_id, now: T0 + HOUR })).toBe(LIMITS.maxAgentsPerRound);
    const frozen = new Set((await db.selectFrom('round_agents').select('hotkey').where('round_id', '=', round.round_id).execute()).map((r) => r.hotkey));
    // The three latest submissions (the first three miners) are the ones left out.
    expect(miners.slice(0, 3).some((m) => frozen.has(m.hotkey))).toBe(false);
    expect(miners.slice(3).every((m) => frozen.has(m.hotkey))).toBe(true);
  });

  it('opens rounds with sequential numbers per track, one open round per track', async () => {
    const db = ctx.db();
    const r1 = await openRound(db, { track: 'skills', now: T0, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p1' });
    expect(r1).toMatchObject({ round_number: 1, status: 'open', phase: 'submission', submission_closes_at: T0 + HOUR, closes_at: T0 + 2 * HOUR });
    expect(r1.round_id).toMatch(/^[0-9a-f]{16}$/);
    await rejectsWith(openRound(db, { track: 'skills', now: T0, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p1' }), 'round_already_open');
    const other = await openRound(db, { track: 'packages', now: T0, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p1' });
    expect(other.round_number).toBe(1);
    await startEvaluation(db, { roundId: r1.round_id, now: T0 + HOUR });
    await closeRound(db, { roundId: r1.round_id, now: T0 + 2 * HOUR });
    const r2 = await openRound(db, { track: 'skills', now: T0 + 3 * HOUR, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p1' });
    expect(r2.round_number).toBe(2);
    await rejectsWith(closeRound(db, { roundId: r2.round_id, now: T0 }), 'round_wrong_phase');
    await expect(startEvaluation(db, { roundId: 'ffffffffffffffff', now: T0 })).rejects.toMatchObject({ code: 'round_not_found' });
  });

  it('startEvaluation freezes active agents of registered miners; later resubmissions do not change the frozen hash', async () => {
    const db = ctx.db();
    const [a, b, c] = [newKey(), newKey(), newKey()];
    for (const m of [a, b, c]) {
      await registerMiner(db, { hotkey: m.hotkey, track: 'skills', now: T0 });
      await submitAgent(db, { hotkey: m.hotkey, track: 'skills', name: 'n', provider: 'p', codeHash: codeHash(m.hotkey), now: T0 });
    }
    await deleteAgent(db, { hotkey: b.hotkey, track: 'skills', now: T0 });
    await deregisterMiner(db, { hotkey: c.hotkey, track: 'skills', now: T0 });
    const round = await openRound(db, { track: 'skills', now: T0, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p1' });
    expect(await startEvaluation(db, { roundId: round.round_id, now: T0 + HOUR })).toBe(1);
    await submitAgent(db, { hotkey: a.hotkey, track: 'skills', name: 'n', provider: 'p', codeHash: codeHash('new'), now: T0 + HOUR + 1 });
    const frozen = await db.selectFrom('round_agents').selectAll().where('round_id', '=', round.round_id).execute();
    expect(frozen).toEqual([expect.objectContaining({ hotkey: a.hotkey, version: 1, code_hash: codeHash(a.hotkey) })]);
    await rejectsWith(startEvaluation(db, { roundId: round.round_id, now: T0 }), 'round_wrong_phase');
  });

  it('createTasks pairs every frozen agent with every artifact, skipping pairs that exist', async () => {
    const db = ctx.db();
    const miners = [newKey(), newKey()];
    const seeded = await seedRound(db, { now: T0, miners, validators: [newKey()], artifacts: LABELED.slice(0, 2) });
    expect(seeded.tasks).toHaveLength(4);
    const more = await registerArtifact(db, { track: 'skills', label: 'bench', sourceId: 'extra', contentHash: codeHash('x'), kind: 'live', now: T0 });
    const added = await createTasks(db, { roundId: seeded.round.round_id, bundleHashes: [...seeded.artifacts.keys(), more.bundle_hash], now: T0 });
    expect(added.map((t) => t.bundleHash)).toEqual([more.bundle_hash, more.bundle_hash]);
    await rejectsWith(createTasks(db, { roundId: seeded.round.round_id, bundleHashes: ['skills/bench/missing'], now: T0 }), 'artifact_not_found');
    const pkg = await registerArtifact(db, { track: 'packages', label: 'npm', sourceId: 'x', contentHash: codeHash('y'), kind: 'live', now: T0 });
    await rejectsWith(createTasks(db, { roundId: seeded.round.round_id, bundleHashes: [pkg.bundle_hash], now: T0 }), 'invalid_argument');
  });

  it('registerArtifact is idempotent for the same content and refuses other content under the same bundle hash', async () => {
    const db = ctx.db();
    const input = { track: 'skills' as const, label: 'bench', sourceId: 'a', contentHash: codeHash('a'), kind: 'labeled' as const, groundTruth: 'BLOCK' as const, now: T0 };
    const first = await registerArtifact(db, input);
    expect(first.bundle_hash).toBe('skills/bench/a');
    expect((await registerArtifact(db, input)).id).toBe(first.id);
    await rejectsWith(registerArtifact(db, { ...input, groundTruth: 'ALLOW' }), 'artifact_conflict');
    const bad = await rejectsWith(registerArtifact(db, { ...input, label: 'has/slash' }), 'invalid_argument');
    expect(bad.message).toMatch(/^ref\.label/);
  });

  it('recordAttestation stores the row, marks reruns, enqueues attestation.created and is idempotent', async () => {
    const db = ctx.db();
    const miner = newKey();
    const [v1, v2] = [newKey(), newKey()];
    const seeded = await seedRound(db, { now: T0, miners: [miner], validators: [v1, v2], artifacts: [...LABELED, ...LIVE] });
    const live = bundle('skills', LIVE[0]!);
    const labeled = bundle('skills', LABELED[0]!);
    const first = await attest(db, seeded, miner, live, v1, { verdict: 'BLOCK', now: T0 + HOUR });
    expect(first).toMatchObject({ created: true, isRerun: false });
    const envelope = signedEnvelope(seeded, findTask(seeded, miner, live), v2, { verdict: 'WARN', createdAt: T0 + HOUR });
    const second = await recordAttestation(db, envelope, { now: T0 + HOUR + 5 });
    expect(second).toMatchObject({ created: true, isRerun: true });
    expect(await recordAttestation(db, envelope, { now: T0 + HOUR + 6 })).toEqual({ id: second.id, created: false, isRerun: true });
    await attest(db, seeded, miner, labeled, v1, { verdict: 'BLOCK', now: T0 + HOUR });

    const rows = await db.selectFrom('attestations').selectAll().orderBy('id').execute();
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatchObject({ validator_hotkey: v2.hotkey, verdict: 'WARN', is_rerun: 1, recorded_at: T0 + HOUR + 5, canonical_hash: envelope.canonical_hash });
    expect(JSON.parse(rows[1]!.payload)).toEqual(envelope.payload);

    const events = await pendingOutboxEvents(db, 10);
    expect(events.map((e) => e.kind)).toEqual(['attestation.created', 'attestation.created', 'attestation.created']);
    expect(events[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(events[0]!.payload).toMatchObject({ verdict: 'BLOCK', bundle_hash: live, miner_hotkey: miner.hotkey });
    // Every artifact is named alike: nothing in an event tells a benchmark artifact from a live one.
    const payloadKeys = events.map((e) => Object.keys(e.payload).sort().join(','));
    expect(new Set(payloadKeys).size).toBe(1);
    expect(events.every((e) => typeof e.payload.bundle_hash === 'string')).toBe(true);
    const validator = await findValidator(db, v2.hotkey);
    expect(validator?.lastSeenAt).toBe(T0 + HOUR + 5);
  });

  it('recordAttestation refuses what does not match its task, leaving nothing behind', async () => {
    const db = ctx.db();
    const [miner, other] = [newKey(), newKey()];
    const v = newKey();
    const seeded = await seedRound(db, { now: T0, miners: [miner, other], validators: [v], artifacts: LIVE });
    const live = bundle('skills', LIVE[0]!);
    const task = findTask(seeded, miner, live);
    const good = signedEnvelope(seeded, task, v, { verdict: 'BLOCK', createdAt: T0 });
    const tamper = (patch: Record<string, unknown>) => ({ ...good, payload: { ...good.payload, ...patch } });

    expect((await rejectsWith(recordAttestation(db, tamper({ miner_hotkey: other.hotkey }), { now: T0 }), 'attestation_mismatch')).message).toMatch(
      /^envelope\.payload\.miner_hotkey/,
    );
    await rejectsWith(recordAttestation(db, tamper({ agent_hash: codeHash('forged') }), { now: T0 }), 'attestation_mismatch');
    await rejectsWith(recordAttestation(db, tamper({ artifact: { bundle_hash: live, sha256: codeHash('other') } }), { now: T0 }), 'attestation_mismatch');
    await rejectsWith(recordAttestation(db, tamper({ task_id: 'nope' }), { now: T0 }), 'task_not_found');
    await rejectsWith(recordAttestation(db, tamper({ verdict: 'MAYBE' }) as never, { now: T0 }), 'invalid_argument');
    const stranger = newKey();
    await rejectsWith(recordAttestation(db, signedEnvelope(seeded, task, stranger, { verdict: 'BLOCK', createdAt: T0 }), { now: T0 }), 'validator_not_found');
    await setValidatorStatus(db, { hotkey: v.hotkey, status: 'revoked', now: T0 });
    await rejectsWith(recordAttestation(db, good, { now: T0 }), 'validator_not_active');
    await setValidatorStatus(db, { hotkey: v.hotkey, status: 'active', now: T0 });
    await recordAttestation(db, good, { now: T0 });
    await rejectsWith(
      recordAttestation(db, signedEnvelope(seeded, task, v, { verdict: 'ALLOW', createdAt: T0 + 1 }), { now: T0 }),
      'attestation_conflict',
    );
    expect(await db.selectFrom('attestations').select('id').execute()).toHaveLength(1);
    expect(await db.selectFrom('outbox_events').select('id').execute()).toHaveLength(1);
    const counters = await db.selectFrom('stat_counters').selectAll().where('name', '=', 'attestations').executeTakeFirst();
    expect(counters?.value).toBe(1);

    await closeRound(db, { roundId: seeded.round.round_id, now: T0 + 3 * HOUR });
    // A retry of an already stored envelope stays idempotent after the close.
    expect(await recordAttestation(db, good, { now: T0 + 4 * HOUR })).toMatchObject({ created: false });
    await rejectsWith(
      recordAttestation(db, signedEnvelope(seeded, findTask(seeded, other, live), v, { verdict: 'BLOCK', createdAt: T0 }), { now: T0 }),
      'round_not_open',
    );
  });

  it('closeRound scores per validator by balanced accuracy, takes the median, ranks and picks winners', async () => {
    const db = ctx.db();
    const [perfect, allBlock, allAllow, half, silent] = [newKey(), newKey(), newKey(), newKey(), newKey()];
    const [v1, v2, v3] = [newKey(), newKey(), newKey()];
    const seeded = await seedRound(db, { now: T0, miners: [perfect, allBlock, allAllow, half, silent], validators: [v1, v2, v3], artifacts: LABELED });
    const truth = (i: number) => LABELED[i]!.groundTruth;
    const t = T0 + HOUR;
    for (const [i, spec] of LABELED.entries()) {
      const hash = bundle('skills', spec);
      for (const v of [v1, v2, v3]) {
        await attest(db, seeded, perfect, hash, v, { verdict: truth(i), now: t });
        await attest(db, seeded, allBlock, hash, v, { verdict: 'BLOCK', now: t });
        await attest(db, seeded, allAllow, hash, v, { verdict: 'ALLOW', now: t });
      }
      // `half`: v1 sees a perfect agent, v2 one that misses one malicious artifact, v3 only benign ones.
      await attest(db, seeded, half, hash, v1, { verdict: truth(i), now: t });
      await attest(db, seeded, half, hash, v2, { verdict: i === 0 ? 'ALLOW' : truth(i), now: t });
      if (truth(i) === 'ALLOW') await attest(db, seeded, half, hash, v3, { verdict: 'ALLOW', now: t });
    }
    const result = await closeRound(db, { roundId: seeded.round.round_id, now: T0 + 3 * HOUR, nextRoundOpensAt: T0 + 4 * HOUR });
    // Constant answers score 0: ranked, but not winners.
    expect(result.winners).toEqual([perfect.hotkey, half.hotkey]);

    const results = await db.selectFrom('round_results').selectAll().where('round_id', '=', seeded.round.round_id).execute();
    const by = (k: { hotkey: string }) => results.find((r) => r.hotkey === k.hotkey)!;
    expect(by(perfect)).toMatchObject({ score: 1, validators: 3, rank: 1, attestations: 12, failure_reason: null });
    // v1: 1; v2: recall malicious 1/2, benign 1 → BA 0.75 → 0.5; v3 cannot score (no malicious) → median(1, 0.5) = 0.75.
    expect(by(half)).toMatchObject({ score: 0.75, validators: 2, rank: 2 });
    expect(by(allBlock)).toMatchObject({ score: 0, validators: 3 });
    expect(by(allAllow)).toMatchObject({ score: 0, validators: 3 });
    expect(by(silent)).toMatchObject({ score: null, validators: 0, rank: null, attestations: 0 });
    expect(by(silent).failure_reason).toMatch(/no attestations/);
    const vs = await db.selectFrom('validator_scores').selectAll().where('hotkey', '=', half.hotkey).orderBy('score').execute();
    expect(vs.map((s) => [s.validator_hotkey, s.score, s.labeled_tasks])).toEqual([
      [v2.hotkey, 0.5, 4],
      [v1.hotkey, 1, 4],
    ]);
    const round = await db.selectFrom('rounds').selectAll().where('round_id', '=', seeded.round.round_id).executeTakeFirstOrThrow();
    expect(round).toMatchObject({ status: 'closed', phase: 'complete', closed_at: T0 + 3 * HOUR, next_round_opens_at: T0 + 4 * HOUR });
  });

  it('publishes live verdicts from the winners only and emits verdict.changed when the verdict changes', async () => {
    const db = ctx.db();
    const miners = Array.from({ length: 6 }, () => newKey());
    const [v1, v2] = [newKey(), newKey()];
    const live = bundle('skills', LIVE[0]!);
    const seeded = await seedRound(db, { now: T0, miners, validators: [v1, v2], artifacts: [...LABELED, ...LIVE] });
    const t = T0 + HOUR;
    // Miners 0–4 score 1 (perfect on labeled), miner 5 scores 0 and is not a winner.
    for (const [m, miner] of miners.entries()) {
      for (const spec of LABELED) {
        for (const v of [v1, v2]) {
          await attest(db, seeded, miner, bundle('skills', spec), v, { verdict: m < 5 ? spec.groundTruth : 'BLOCK', now: t });
        }
      }
    }
    // Winners: 3 WARN votes vs 2 BLOCK; the loser's 2 BLOCK votes must not count.
    await attest(db, seeded, miners[0]!, live, v1, { verdict: 'WARN', riskScore: 40, now: t });
    await attest(db, seeded, miners[1]!, live, v1, { verdict: 'WARN', riskScore: 60, now: t });
    await attest(db, seeded, miners[2]!, live, v2, { verdict: 'WARN', riskScore: 50, now: t });
    await attest(db, seeded, miners[3]!, live, v1, { verdict: 'BLOCK', now: t });
    await attest(db, seeded, miners[4]!, live, v2, { verdict: 'BLOCK', now: t });
    await attest(db, seeded, miners[5]!, live, v1, { verdict: 'BLOCK', now: t });
    await attest(db, seeded, miners[5]!, live, v2, { verdict: 'BLOCK', now: t });
    await db.deleteFrom('outbox_events').execute();

    const first = await closeRound(db, { roundId: seeded.round.round_id, now: T0 + 3 * HOUR });
    expect(first.winners).toHaveLength(5);
    expect(first.winners).not.toContain(miners[5]!.hotkey);
    expect(first.verdictChanges).toBe(1);
    const published = await db.selectFrom('published_verdicts').selectAll().execute();
    expect(published).toEqual([expect.objectContaining({ verdict: 'WARN', risk_score: 50, round_id: seeded.round.round_id })]);
    let events = await pendingOutboxEvents(db, 10);
    // The verdict change, then the close itself, both in the closing transaction.
    expect(events.map((e) => e.kind)).toEqual(['verdict.changed', 'round.closed']);
    expect(events[0]!.payload).toMatchObject({ bundle_hash: live, verdict: 'WARN', previous_verdict: null, risk_score: 50 });
    expect(events[0]).toMatchObject({ resource: `artifact:${live}`, sequence: 1, account_id: null });
    expect(events[1]).toMatchObject({ resource: `round:${seeded.round.round_id}`, sequence: 1, account_id: null });
    expect(events[1]!.payload).toEqual({
      round_id: seeded.round.round_id,
      track: 'skills',
      round_number: Number(seeded.round.round_number),
      closed_at: new Date(T0 + 3 * HOUR).toISOString().replace('Z', '+00:00'),
      scored_agents: 6,
      winner_hotkey: first.winners[0],
      verdict_changes: 1,
    });

    // Next round: the same winners now say BLOCK → the verdict changes, with history.
    const next = await seedRound(db, { now: T0 + DAY, miners, validators: [v1, v2], artifacts: [...LABELED, ...LIVE], skipAgents: true });
    for (const miner of miners.slice(0, 5)) {
      for (const spec of LABELED) await attest(db, next, miner, bundle('skills', spec), v1, { verdict: spec.groundTruth, now: T0 + DAY + HOUR });
      await attest(db, next, miner, live, v1, { verdict: 'BLOCK', riskScore: 95, now: T0 + DAY + HOUR });
    }
    await db.deleteFrom('outbox_events').execute();
    const second = await closeRound(db, { roundId: next.round.round_id, now: T0 + DAY + 3 * HOUR });
    expect(second.verdictChanges).toBe(1);
    events = await pendingOutboxEvents(db, 10);
    expect(events[0]!.payload).toMatchObject({ verdict: 'BLOCK', previous_verdict: 'WARN', risk_score: 95, round_id: next.round.round_id });
    const history = await db.selectFrom('verdict_history').select(['verdict', 'previous_verdict']).orderBy('id').execute();
    expect(history).toEqual([
      { verdict: 'WARN', previous_verdict: null },
      { verdict: 'BLOCK', previous_verdict: 'WARN' },
    ]);
  });
});
