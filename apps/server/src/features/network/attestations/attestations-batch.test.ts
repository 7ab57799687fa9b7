import { contentHash, formatOffsetTimestamp, type AttestationEnvelope, type AttestationPayload, type Finding } from '@vigil/core';
import { signAttestation } from '@vigil/crypto';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import type { Database, TrackName, VerdictName } from '../../../platform/db/schema.js';
import { describeEachDialect } from '../../../test-support/databases.js';
import { DAY, HOUR, T0, codeHash, finding, newKey, type TestKey } from '../../../test-support/fixtures.js';
import { submitAgent } from '../miners/agents.js';
import { registerArtifact, type ArtifactRow } from '../../artifacts/register-artifact.js';
import { MAX_ATTESTATION_BATCH, recordAttestations, type AttestationBatchResult } from './attestations-batch.js';
import { recordAttestation } from './attestations.js';
import { VigilError } from '../../../platform/errors.js';
import { registerMiner } from '../miners/miners.js';
import { createPublicReadService } from '../public-reads/public-read-service.js';
import { closeRound, openRound, startEvaluation } from '../rounds/rounds.js';
import { createTasks } from '../tasks/tasks.js';
import { registerValidator, setValidatorStatus } from '../validators/validators.js';

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a failing seed can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Slot {
  taskId: string;
  roundId: string;
  track: TrackName;
  miner: string;
  agentHash: string;
  artifact: ArtifactRow;
  open: boolean;
}

interface Network {
  active: TestKey[];
  suspended: TestKey;
  stranger: TestKey;
  slots: Slot[];
  rounds: string[];
  miners: string[];
  artifacts: ArtifactRow[];
}

/**
 * Three active validators, a suspended one and an unregistered key; on `skills` a closed round and
 * an open one over the same artifacts, on `mcp_servers` an open round: every task of them a slot.
 */
async function seedNetwork(db: Kysely<Database>): Promise<Network> {
  const active = [newKey(), newKey(), newKey()];
  const suspended = newKey();
  for (const [uid, v] of [...active, suspended].entries()) {
    await registerValidator(db, { hotkey: v.hotkey, uid, allowedIps: [], now: T0 });
  }
  await setValidatorStatus(db, { hotkey: suspended.hotkey, status: 'suspended', now: T0 });

  const slots: Slot[] = [];
  const rounds: string[] = [];
  const miners: string[] = [];
  const artifacts: ArtifactRow[] = [];
  const makeRound = async (track: TrackName, minerKeys: TestKey[], trackArtifacts: ArtifactRow[], at: number, open: boolean) => {
    const round = await openRound(db, { track, now: at, submissionMs: HOUR, evaluationMs: 30 * DAY, policyVersion: 'policy-test' });
    await startEvaluation(db, { roundId: round.round_id, now: at + 1 });
    const tasks = await createTasks(db, { roundId: round.round_id, bundleHashes: trackArtifacts.map((a) => a.bundle_hash), now: at + 1 });
    const frozen = await db.selectFrom('round_agents').select(['hotkey', 'code_hash']).where('round_id', '=', round.round_id).execute();
    const agentHash = new Map(frozen.map((f) => [f.hotkey, f.code_hash]));
    for (const t of tasks) {
      slots.push({
        taskId: t.taskId,
        roundId: round.round_id,
        track,
        miner: t.hotkey,
        agentHash: agentHash.get(t.hotkey)!,
        artifact: trackArtifacts.find((a) => a.bundle_hash === t.bundleHash)!,
        open,
      });
    }
    rounds.push(round.round_id);
    if (!open) await closeRound(db, { roundId: round.round_id, now: at + 2 });
  };

  for (const track of ['skills', 'mcp_servers'] as const) {
    const minerKeys = [newKey(), newKey(), newKey()];
    for (const [i, m] of minerKeys.entries()) {
      await registerMiner(db, { hotkey: m.hotkey, track, now: T0 });
      await submitAgent(db, { hotkey: m.hotkey, track, name: `agent-${i}`, provider: 'test', codeHash: codeHash(`${track}-${i}`), now: T0 });
      miners.push(m.hotkey);
    }
    const trackArtifacts: ArtifactRow[] = [];
    for (let i = 0; i < 4; i++) {
      const base = { track, label: i < 2 ? 'bench' : 'live', sourceId: `${track}-artifact-${i}`, contentHash: contentHash(`${track}-${i}`), now: T0 };
      trackArtifacts.push(
        await registerArtifact(db, i < 2 ? { ...base, kind: 'labeled', groundTruth: i === 0 ? 'BLOCK' : 'ALLOW' } : { ...base, kind: 'live' }),
      );
    }
    artifacts.push(...trackArtifacts);
    if (track === 'skills') await makeRound(track, minerKeys, trackArtifacts, T0, false);
    await makeRound(track, minerKeys, trackArtifacts, T0 + 10, true);
  }
  return { active, suspended, stranger: newKey(), slots, rounds, miners, artifacts };
}

const VERDICTS: VerdictName[] = ['ALLOW', 'WARN', 'BLOCK'];
const CATEGORIES = ['malware', 'exfiltration', 'prompt_injection', 'install_script', 'typosquat', 'obfuscation'];
const SEVERITIES: Finding['severity'][] = ['CRIT', 'HIGH', 'MED', 'LOW'];

function payloadFor(slot: Slot, validator: TestKey, verdict: VerdictName, findings: Finding[], createdAt: number): AttestationPayload {
  return {
    round_id: slot.roundId,
    task_id: slot.taskId,
    track: slot.track,
    miner_hotkey: slot.miner,
    agent_hash: slot.agentHash,
    artifact: { bundle_hash: slot.artifact.bundle_hash, sha256: slot.artifact.content_hash },
    verdict,
    risk_score: verdict === 'BLOCK' ? 90 : verdict === 'WARN' ? 55 : 5,
    findings,
    policy_version: 'policy-test',
    validator_hotkey: validator.hotkey,
    created_at: formatOffsetTimestamp(createdAt),
  };
}

interface Scenario {
  batches: { now: number; envelopes: AttestationEnvelope[] }[];
}

/**
 * Batches with everything the ingestion path decides on: first attestations and reruns, every
 * verdict, findings, several hours and days (also a clock step back), exact repeats within and
 * across batches, conflicting second opinions, and each kind of refusal.
 */
function scenario(net: Network, seed: number): Scenario {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const openSlots = net.slots.filter((s) => s.open);
  const closedSlots = net.slots.filter((s) => !s.open);
  const history: AttestationEnvelope[] = [];
  const batches: Scenario['batches'] = [];
  let now = T0 + 2 * HOUR;
  const batchCount = 2 + Math.floor(random() * 4);
  for (let b = 0; b < batchCount; b++) {
    const step = random();
    now += step < 0.1 ? -DAY : step < 0.5 ? Math.floor(random() * 3) * HOUR : Math.floor(random() * 3) * DAY + 7;
    const envelopes: AttestationEnvelope[] = [];
    const size = 1 + Math.floor(random() * 45);
    for (let i = 0; i < size; i++) {
      const roll = random();
      const verdict = pick(VERDICTS);
      const findings = Array.from({ length: Math.floor(random() * 4) }, () => finding(pick(CATEGORIES), pick(SEVERITIES)));
      const createdAt = now - Math.floor(random() * 1000);
      const slot = pick(openSlots);
      let envelope: AttestationEnvelope;
      if (roll < 0.15 && history.length > 0) {
        envelope = pick(history);
      } else if (roll < 0.2) {
        envelope = signAttestation(payloadFor(slot, net.suspended, verdict, findings, createdAt), net.suspended.secretKey);
      } else if (roll < 0.23) {
        envelope = signAttestation(payloadFor(slot, net.stranger, verdict, findings, createdAt), net.stranger.secretKey);
      } else if (roll < 0.27) {
        const validator = pick(net.active);
        envelope = signAttestation(payloadFor(pick(closedSlots), validator, verdict, findings, createdAt), validator.secretKey);
      } else if (roll < 0.33) {
        const validator = pick(net.active);
        const payload = payloadFor(slot, validator, verdict, findings, createdAt);
        const other = pick(net.artifacts.filter((a) => a.track === slot.track && a.id !== slot.artifact.id));
        const tampered: Partial<AttestationPayload>[] = [
          { round_id: pick(net.rounds.filter((r) => r !== slot.roundId)) },
          { miner_hotkey: pick(net.miners.filter((m) => m !== slot.miner)) },
          { track: slot.track === 'skills' ? 'mcp_servers' : 'skills' },
          { agent_hash: codeHash('forged') },
          { artifact: { bundle_hash: other.bundle_hash, sha256: slot.artifact.content_hash } },
          { artifact: { bundle_hash: slot.artifact.bundle_hash, sha256: contentHash('other bytes') } },
        ];
        envelope = signAttestation({ ...payload, ...pick(tampered) }, validator.secretKey);
      } else if (roll < 0.35) {
        const validator = pick(net.active);
        envelope = signAttestation({ ...payloadFor(slot, validator, verdict, findings, createdAt), task_id: `missing-${i}` }, validator.secretKey);
      } else if (roll < 0.37) {
        const validator = pick(net.active);
        const good = signAttestation(payloadFor(slot, validator, verdict, findings, createdAt), validator.secretKey);
        envelope = { ...good, payload: { ...good.payload, verdict: 'MAYBE' as VerdictName } };
      } else {
        const validator = pick(net.active);
        envelope = signAttestation(payloadFor(slot, validator, verdict, findings, createdAt), validator.secretKey);
      }
      history.push(envelope);
      envelopes.push(envelope);
    }
    batches.push({ now, envelopes });
  }
  return { batches };
}

class Rollback<T> extends Error {
  constructor(readonly value: T) {
    super('rollback');
  }
}

/** Runs `fn` in a transaction that is always rolled back, so several runs start from one state. */
async function rolledBack<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  try {
    await db.transaction().execute(async (trx) => {
      throw new Rollback(await fn(trx));
    });
  } catch (error) {
    if (error instanceof Rollback) return error.value as T;
    throw error;
  }
  throw new Error('unreachable: the transaction always rolls back');
}

function claimedHash(envelope: AttestationEnvelope): string {
  return typeof envelope.canonical_hash === 'string' ? envelope.canonical_hash : '';
}

async function oneByOne(db: Kysely<Database>, envelopes: readonly AttestationEnvelope[], now: number): Promise<AttestationBatchResult[]> {
  const results: AttestationBatchResult[] = [];
  for (const envelope of envelopes) {
    try {
      const r = await recordAttestation(db, envelope, { now });
      results.push({ canonical_hash: envelope.canonical_hash, outcome: r.created ? 'created' : 'duplicate', id: r.id, isRerun: r.isRerun });
    } catch (error) {
      if (!(error instanceof VigilError)) throw error;
      results.push({ canonical_hash: claimedHash(envelope), outcome: 'refused', error: { code: error.code, message: error.message } });
    }
  }
  return results;
}

/**
 * Everything ingestion writes or the public reads derive from it. Ids are generated (and on
 * PostgreSQL not reused after a rollback), so attestations are compared in id order without their
 * id, result ids are replaced by the hash of the row they point at, and outbox rows are compared in
 * delivery order without their random event id.
 */
async function snapshot(db: Kysely<Database>, results: AttestationBatchResult[], at: number) {
  const attestations = await db.selectFrom('attestations').selectAll().orderBy('id').execute();
  const hashOfId = new Map(attestations.map((a) => [a.id, a.canonical_hash]));
  const outbox = await db.selectFrom('outbox_events').select(['kind', 'payload', 'created_at', 'delivered_at', 'attempts', 'last_error']).orderBy('seq').execute();
  const read = createPublicReadService(db);
  return {
    results: results.map(({ id, ...rest }) => (id === undefined ? rest : { ...rest, row: hashOfId.get(id) ?? `missing id ${id}` })),
    attestations: attestations.map(({ id: _id, ...rest }) => rest),
    outbox: outbox.map((o) => ({ ...o, payload: JSON.parse(o.payload) as unknown })),
    counters: await db.selectFrom('stat_counters').selectAll().orderBy('name').execute(),
    hours: await db.selectFrom('attestation_hours').selectAll().orderBy('hour').execute(),
    trendDays: await db.selectFrom('trend_days').selectAll().orderBy('day').orderBy('track').execute(),
    artifactDays: await db.selectFrom('artifact_days').selectAll().orderBy('artifact_id').orderBy('day').execute(),
    signals: await db.selectFrom('artifact_signals').selectAll().orderBy('artifact_id').orderBy('metric').orderBy('key').execute(),
    lastDays: await db.selectFrom('trend_last_days').selectAll().orderBy('metric').orderBy('key').orderBy('day').execute(),
    validators: await db.selectFrom('validators').select(['hotkey', 'status', 'last_seen_at']).orderBy('hotkey').execute(),
    trends7: await read.threatTrends(7, new Date(at)),
    trends30: await read.threatTrends(30, new Date(at)),
    dashboard: await read.networkDashboard(new Date(at)),
  };
}

async function tableCounts(db: Kysely<Database>) {
  const count = async (table: 'attestations' | 'outbox_events' | 'artifact_days' | 'artifact_signals') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { attestations: await count('attestations'), outbox: await count('outbox_events'), days: await count('artifact_days'), signals: await count('artifact_signals') };
}

describeEachDialect('recordAttestations', (ctx) => {
  it('leaves exactly the state of recording the same envelopes one by one, in order (random batches)', { timeout: 120_000 }, async () => {
    const db = ctx.db();
    const net = await seedNetwork(db);
    const seen = new Map<string, number>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const { batches } = scenario(net, seed);
      const end = Math.max(...batches.map((b) => b.now)) + HOUR;
      const single = await rolledBack(db, async (trx) => {
        const results: AttestationBatchResult[] = [];
        for (const b of batches) results.push(...(await oneByOne(trx, b.envelopes, b.now)));
        return snapshot(trx, results, end);
      });
      const batched = await rolledBack(db, async (trx) => {
        const results: AttestationBatchResult[] = [];
        for (const b of batches) results.push(...(await recordAttestations(trx, b.envelopes, { now: b.now })));
        return snapshot(trx, results, end);
      });
      expect(batched, `seed ${seed}`).toEqual(single);
      for (const r of single.results) {
        const kind = r.outcome === 'refused' ? r.error!.code : r.isRerun ? `${r.outcome}-rerun` : r.outcome;
        seen.set(kind, (seen.get(kind) ?? 0) + 1);
      }
    }
    // The scenarios did exercise every decision (otherwise equality above proves little).
    expect([...seen.keys()].sort()).toEqual(
      [
        'attestation_conflict',
        'attestation_mismatch',
        'created',
        'created-rerun',
        'duplicate',
        'duplicate-rerun',
        'invalid_argument',
        'round_not_open',
        'task_not_found',
        'validator_not_active',
        'validator_not_found',
      ].sort(),
    );
  });

  it('with recordedAt, leaves the state of recording each envelope alone at its own time (one call, random times)', { timeout: 120_000 }, async () => {
    const db = ctx.db();
    const net = await seedNetwork(db);
    // The search entries too: an artifact's entry was last touched by its last attestation, each attestation's at its own time.
    const searchEntries = async (trx: Kysely<Database>) =>
      (await trx.selectFrom('search_entries').select(['kind', 'ref_id', 'audience', 'facets', 'updated_at']).orderBy('id').execute()).map((e) =>
        e.kind === 'artifact' ? e : { kind: e.kind, facets: JSON.parse(e.facets) as unknown, updated_at: e.updated_at },
      );
    for (const seed of [11, 12, 13, 14]) {
      const { batches } = scenario(net, seed);
      const end = Math.max(...batches.map((b) => b.now)) + 2 * DAY;
      const envelopes = batches.flatMap((b) => b.envelopes);
      // The scenario's times, and within a batch minutes and hours apart (some across a day boundary).
      const recordedAt = batches.flatMap((b) => b.envelopes.map((_, i) => b.now + (i % 4) * 7 * HOUR + i * 60_000));
      const single = await rolledBack(db, async (trx) => {
        const results: AttestationBatchResult[] = [];
        for (const [i, envelope] of envelopes.entries()) results.push(...(await oneByOne(trx, [envelope], recordedAt[i]!)));
        return { ...(await snapshot(trx, results, end)), search: await searchEntries(trx) };
      });
      const replayed = await rolledBack(db, async (trx) => {
        const results = await recordAttestations(trx, envelopes, { now: end, recordedAt });
        return { ...(await snapshot(trx, results, end)), search: await searchEntries(trx) };
      });
      expect(replayed, `seed ${seed}`).toEqual(single);
      // Several recording times in the one call, or the equality says nothing about them.
      expect(new Set(single.attestations.map((a) => a.recorded_at)).size, `seed ${seed}`).toBeGreaterThan(3);
    }
    await expect(recordAttestations(db, [], { now: T0, recordedAt: [T0] })).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('refuses envelopes one by one with the codes of recordAttestation and records the rest', async () => {
    const db = ctx.db();
    const net = await seedNetwork(db);
    const [v0, v1] = net.active as [TestKey, TestKey];
    const slot = net.slots.find((s) => s.open && s.artifact.kind === 'live')!;
    const closed = net.slots.find((s) => !s.open)!;
    const good = signAttestation(payloadFor(slot, v0, 'BLOCK', [finding('malware', 'CRIT')], T0), v0.secretKey);
    const rerun = signAttestation(payloadFor(slot, v1, 'WARN', [], T0), v1.secretKey);
    const conflict = signAttestation(payloadFor(slot, v0, 'ALLOW', [], T0 + 1), v0.secretKey);
    const envelopes = [
      good,
      signAttestation({ ...payloadFor(slot, v0, 'BLOCK', [], T0), agent_hash: codeHash('forged') }, v0.secretKey),
      signAttestation(payloadFor(closed, v0, 'BLOCK', [], T0), v0.secretKey),
      signAttestation(payloadFor(slot, net.suspended, 'BLOCK', [], T0), net.suspended.secretKey),
      signAttestation(payloadFor(slot, net.stranger, 'BLOCK', [], T0), net.stranger.secretKey),
      signAttestation({ ...payloadFor(slot, v0, 'BLOCK', [], T0), task_id: 'no-such-task' }, v0.secretKey),
      { ...good, payload: { ...good.payload, risk_score: 101 } },
      conflict,
      good,
      rerun,
    ];
    const results = await recordAttestations(db, envelopes, { now: T0 + 2 * HOUR });
    expect(results.map((r) => (r.outcome === 'refused' ? r.error!.code : r.outcome))).toEqual([
      'created',
      'attestation_mismatch',
      'round_not_open',
      'validator_not_active',
      'validator_not_found',
      'task_not_found',
      'invalid_argument',
      'attestation_conflict',
      'duplicate',
      'created',
    ]);
    expect(results[1]!.error!.message).toBe('envelope.payload.agent_hash: does not match the task (expected the code hash frozen into the round)');
    expect(results[6]!.error!.message).toMatch(/^envelope\.payload\.risk_score: /);
    expect(results[8]).toEqual({ canonical_hash: good.canonical_hash, outcome: 'duplicate', id: results[0]!.id, isRerun: false });
    expect(results[9]).toMatchObject({ outcome: 'created', isRerun: true });

    const stored = await db.selectFrom('attestations').select(['canonical_hash', 'is_rerun']).orderBy('id').execute();
    expect(stored).toEqual([
      { canonical_hash: good.canonical_hash, is_rerun: 0 },
      { canonical_hash: rerun.canonical_hash, is_rerun: 1 },
    ]);
    const dashboard = await createPublicReadService(db).networkDashboard(new Date(T0 + 2 * HOUR));
    expect(dashboard).toMatchObject({ attestations: 2, tasks_24h: 1, reruns_24h: 1 });
  });

  it('is idempotent: the same input again is all duplicates and counts nothing twice, also across its 500-envelope transactions', async () => {
    const db = ctx.db();
    const net = await seedNetwork(db);
    const openSlots = net.slots.filter((s) => s.open);
    const distinct = openSlots.flatMap((slot, i) =>
      net.active.map((v, j) => signAttestation(payloadFor(slot, v, VERDICTS[(i + j) % 3]!, [finding(CATEGORIES[i % 6]!, 'HIGH')], T0), v.secretKey)),
    );
    // Longer than one transaction, with repeats on both sides of the boundary.
    const input = [...distinct, ...distinct, ...distinct, ...distinct, ...distinct, ...distinct].slice(0, MAX_ATTESTATION_BATCH + 40);
    expect(distinct.length).toBeLessThan(MAX_ATTESTATION_BATCH);

    const first = await recordAttestations(db, input, { now: T0 + 3 * HOUR });
    expect(first.filter((r) => r.outcome === 'created')).toHaveLength(distinct.length);
    expect(first.every((r) => r.outcome !== 'refused')).toBe(true);
    const idOf = new Map(first.filter((r) => r.outcome === 'created').map((r) => [r.canonical_hash, r]));
    for (const r of first) expect(r).toMatchObject({ id: idOf.get(r.canonical_hash)!.id, isRerun: idOf.get(r.canonical_hash)!.isRerun });
    const after = await snapshot(db, [], T0 + 4 * HOUR);
    const counts = await tableCounts(db);

    const again = await recordAttestations(db, input, { now: T0 + 2 * DAY });
    expect(again.map((r) => r.outcome)).toEqual(input.map(() => 'duplicate'));
    expect(again.map((r) => [r.id, r.isRerun])).toEqual(first.map((r) => [r.id, r.isRerun]));
    expect(await snapshot(db, [], T0 + 4 * HOUR)).toEqual(after);
    expect(await tableCounts(db)).toEqual(counts);
    expect(after.dashboard.attestations).toBe(distinct.length);
    expect(after.counters.find((c) => c.name === 'attestations')?.value).toBe(distinct.length);
  });

  it('returns an empty result for an empty input and refuses a non-array', async () => {
    const db = ctx.db();
    expect(await recordAttestations(db, [], { now: T0 })).toEqual([]);
    await expect(recordAttestations(db, 'x' as never, { now: T0 })).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
