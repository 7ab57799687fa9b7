import {
  AgentEligibility,
  AgentsResponse,
  Leaderboard,
  RoundAttestations,
  RoundScores,
  RoundsListResponse,
  RoundsStatusResponse,
  emptyRoundAttestations,
  type Finding,
} from '@vigil/core';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import type { Database } from '../../../platform/db/schema.js';
import { describeEachDialect } from '../../../test-support/databases.js';
import {
  DAY,
  HOUR,
  POLICY_VERSION,
  T0,
  attest,
  bundle,
  codeHash,
  finding,
  newKey,
  seedRound,
  type TestKey,
} from '../../../test-support/fixtures.js';
import { deleteAgent, submitAgent } from '../miners/agents.js';
import { registerMiner } from '../miners/miners.js';
import { createPublicReadService } from './public-read-service.js';
import { closeRound, openRound, startEvaluation } from '../rounds/rounds.js';

const LABELED = [
  { label: 'bench', sourceId: 'mal-1', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
  { label: 'bench', sourceId: 'mal-2', kind: 'labeled' as const, groundTruth: 'WARN' as const },
  { label: 'bench', sourceId: 'ok-1', kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
  { label: 'bench', sourceId: 'ok-2', kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
];

interface Played {
  roundId: string;
  perfect: TestKey;
  half: TestKey;
  constant: TestKey;
  validators: TestKey[];
}

/**
 * One closed skills round: `perfect` scores 1, `half` 0.5 (misses one malicious artifact on both
 * validators), `constant` answers BLOCK everywhere and scores 0.
 */
async function playRound(db: Kysely<Database>, now: number): Promise<Played> {
  const [perfect, half, constant] = [newKey(), newKey(), newKey()];
  const validators = [newKey(), newKey()];
  const seeded = await seedRound(db, { now, miners: [perfect, half, constant], validators, artifacts: LABELED });
  for (const [i, spec] of LABELED.entries()) {
    const hash = bundle('skills', spec);
    for (const v of validators) {
      await attest(db, seeded, perfect, hash, v, { verdict: spec.groundTruth, findings: [finding('malware', 'HIGH')], now: now + HOUR });
      await attest(db, seeded, half, hash, v, { verdict: i === 0 ? 'ALLOW' : spec.groundTruth, now: now + HOUR });
      await attest(db, seeded, constant, hash, v, { verdict: 'BLOCK', now: now + HOUR });
    }
  }
  await closeRound(db, { roundId: seeded.round.round_id, now: now + 3 * HOUR, nextRoundOpensAt: now + 4 * HOUR });
  return { roundId: seeded.round.round_id, perfect, half, constant, validators };
}

describeEachDialect('public read service', (ctx) => {
  it('rounds status: latest round per track, countdowns from now, next round only when none is open', async () => {
    const db = ctx.db();
    const service = createPublicReadService(db);
    const empty = await service.roundsStatus(new Date(T0));
    expect(RoundsStatusResponse.parse(empty)).toEqual({
      tracks: [],
      server_time: '2026-11-21T10:00:00.000',
      next_round_opens_at: null,
      seconds_until_next_round: null,
    });

    const played = await playRound(db, T0);
    const afterClose = await service.roundsStatus(new Date(T0 + 3 * HOUR + 1500));
    expect(RoundsStatusResponse.parse(afterClose)).toEqual(afterClose);
    expect(afterClose.tracks).toEqual([
      {
        track: 'skills',
        round_id: played.roundId,
        round_number: 1,
        status: 'closed',
        phase: 'complete',
        opened_at: '2026-11-21T10:00:00.000',
        closed_at: '2026-11-21T13:00:00.000',
        submission_closes_at: '2026-11-21T11:00:00.000',
        seconds_until_close: null,
        accepting_submissions: false,
        participants: 3,
        scored_agents: 3,
      },
    ]);
    expect(afterClose.next_round_opens_at).toBe('2026-11-21T14:00:00.000');
    expect(afterClose.seconds_until_next_round).toBe(3599);

    // A packages round in submission: accepting, and it suppresses next_round_opens_at.
    const miner = newKey();
    await registerMiner(db, { hotkey: miner.hotkey, track: 'packages', now: T0 });
    await submitAgent(db, { hotkey: miner.hotkey, track: 'packages', name: 'p', provider: 'x', codeHash: codeHash('p'), now: T0 });
    const open = await openRound(db, { track: 'packages', now: T0 + 3 * HOUR, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p' });
    const during = await service.roundsStatus(new Date(T0 + 3 * HOUR + 600_000));
    expect(RoundsStatusResponse.parse(during).tracks.map((t) => t.track)).toEqual(['skills', 'packages']);
    expect(during.tracks[1]).toMatchObject({
      round_id: open.round_id,
      status: 'open',
      phase: 'submission',
      accepting_submissions: true,
      seconds_until_close: 6600,
      participants: 1,
      scored_agents: 0,
      closed_at: null,
    });
    expect(during.next_round_opens_at).toBeNull();
    expect(during.seconds_until_next_round).toBeNull();
    await startEvaluation(db, { roundId: open.round_id, now: T0 + 4 * HOUR });
    const evaluating = await service.roundsStatus(new Date(T0 + 4 * HOUR));
    expect(evaluating.tracks[1]).toMatchObject({ phase: 'evaluation', accepting_submissions: false, participants: 1 });
  });

  it('closed rounds newest first with their winners; round scores ranked; 404 for unknown or open rounds', async () => {
    const db = ctx.db();
    const service = createPublicReadService(db);
    const first = await playRound(db, T0);
    const second = await playRound(db, T0 + DAY);
    await openRound(db, { track: 'skills', now: T0 + 2 * DAY, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p' });

    const list = await service.closedRounds(60);
    expect(RoundsListResponse.parse(list)).toEqual(list);
    expect(list.meta.total).toBe(2);
    expect(list.rounds.map((r) => [r.round_id, r.round_number])).toEqual([
      [second.roundId, 2],
      [first.roundId, 1],
    ]);
    expect(list.rounds[1]).toMatchObject({ track: 'skills', status: 'closed', closed_at: '2026-11-21T13:00:00.000', miners: 3 });
    // The constant answerer scored 0: ranked in the scores, not a winner.
    expect(list.rounds[1]!.winners).toEqual([
      { rank: 1, hotkey: first.perfect.hotkey, name: expect.any(String), score: 1, validators: 2 },
      { rank: 2, hotkey: first.half.hotkey, name: expect.any(String), score: 0.5, validators: 2 },
    ]);
    expect((await service.closedRounds(1)).rounds).toHaveLength(1);

    const scores = await service.roundScores(first.roundId);
    expect(RoundScores.parse(scores)).toEqual(scores);
    expect(scores.scores.map((s) => [s.rank, s.hotkey, s.score])).toEqual([
      [1, first.perfect.hotkey, 1],
      [2, first.half.hotkey, 0.5],
      [3, first.constant.hotkey, 0],
    ]);
    await expect(service.roundScores('0123456789abcdef')).rejects.toMatchObject({ code: 'round_not_found', status: 404, detail: 'round not found' });
    const openId = (await db.selectFrom('rounds').select('round_id').where('status', '=', 'open').executeTakeFirstOrThrow()).round_id;
    await expect(service.roundScores(openId)).rejects.toMatchObject({ code: 'round_not_found' });
  });

  it('round attestations: closed rounds only, identities blanked, empty shells otherwise', async () => {
    const db = ctx.db();
    const service = createPublicReadService(db);
    const played = await playRound(db, T0);
    const served = await service.roundAttestations(played.roundId, played.perfect.hotkey);
    expect(RoundAttestations.parse(served)).toEqual(served);
    expect(served).toMatchObject({
      round_id: played.roundId,
      track: 'skills',
      round_status: 'closed',
      miner_hotkey: played.perfect.hotkey,
      score: 1,
      runs: 2,
      failure_reason: null,
      policy_version: POLICY_VERSION,
    });
    expect(served.tasks).toHaveLength(8);
    for (const task of served.tasks) {
      expect(task.artifact_ref).toBe('');
      expect(task.validator).toBe('');
      expect(task.findings).toEqual([finding('malware', 'HIGH')]);
    }
    const hashes = await db.selectFrom('attestations').select('canonical_hash').where('miner_hotkey', '=', played.perfect.hotkey).orderBy('id').execute();
    expect(served.tasks.map((t) => t.canonical_hash)).toEqual(hashes.map((h) => h.canonical_hash));

    const stranger = newKey().hotkey;
    const noResult = await service.roundAttestations(played.roundId, stranger);
    expect(noResult).toMatchObject({ round_status: 'closed', score: 0, runs: 0, tasks: [], failure_reason: 'the miner had no agent in this round' });

    const open = await openRound(db, { track: 'skills', now: T0 + DAY, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p' });
    expect(await service.roundAttestations(open.round_id, stranger)).toEqual(
      emptyRoundAttestations({ roundId: open.round_id, miner: stranger, track: 'skills', roundStatus: 'open' }),
    );
    expect(await service.roundAttestations('abcdef0123456789', stranger)).toEqual(
      emptyRoundAttestations({ roundId: 'abcdef0123456789', miner: stranger, roundStatus: 'unknown' }),
    );
    const malformedRound = await service.roundAttestations('NOT-HEX', stranger);
    expect(RoundAttestations.parse(malformedRound)).toMatchObject({ round_id: '', miner_hotkey: stranger, round_status: 'unknown', tasks: [] });
    const malformedMiner = await service.roundAttestations(played.roundId, 'short');
    expect(RoundAttestations.parse(malformedMiner)).toMatchObject({ round_id: played.roundId, miner_hotkey: '', round_status: 'unknown', tasks: [] });
  });

  // A hang guard, not a speed check: 501 tasks with their signed attestations take over 30 s on
  // PostgreSQL when the machine is loaded (and a timed-out test's queries then deadlock the next
  // test's TRUNCATE).
  it('round attestations cap tasks at 500 and findings at 50 per task', { timeout: 180_000 }, async () => {
    const db = ctx.db();
    const miner = newKey();
    const validator = newKey();
    const artifacts = Array.from({ length: 501 }, (_, i) => ({ label: 'bulk', sourceId: `a-${String(i).padStart(3, '0')}`, kind: 'live' as const }));
    const seeded = await seedRound(db, { now: T0, miners: [miner], validators: [validator], artifacts });
    const many: Finding[] = Array.from({ length: 51 }, (_, i) => finding('malware', 'LOW', `finding ${i}`));
    for (const [i, spec] of artifacts.entries()) {
      await attest(db, seeded, miner, bundle('skills', spec), validator, { verdict: 'WARN', findings: i === 0 ? many : [], now: T0 + HOUR });
    }
    await closeRound(db, { roundId: seeded.round.round_id, now: T0 + 3 * HOUR });
    const served = await createPublicReadService(db).roundAttestations(seeded.round.round_id, miner.hotkey);
    expect(RoundAttestations.parse(served).tasks).toHaveLength(500);
    expect(served.tasks[0]!.findings).toHaveLength(50);
    expect(served.tasks[0]!.findings[49]!.title).toBe('finding 49');
    expect(served).toMatchObject({ score: 0, runs: 0, failure_reason: expect.stringMatching(/labeled/) });
  });

  it('leaderboard: display round standings; a resubmitted agent shows a null score and its new version', async () => {
    const db = ctx.db();
    const service = createPublicReadService(db);
    const none = await service.leaderboard(new Date(T0));
    expect(Leaderboard.parse(none)).toEqual({ rows: [], meta: { total_agents: 0, last_update: '2026-11-21T10:00:00.000' } });

    const played = await playRound(db, T0);
    await submitAgent(db, { hotkey: played.perfect.hotkey, track: 'skills', name: 'v2', provider: 'x', codeHash: codeHash('v2'), now: T0 + 5 * HOUR });
    // A new round that has not closed yet does not replace the display round.
    await openRound(db, { track: 'skills', now: T0 + 6 * HOUR, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p' });
    const board = await service.leaderboard(new Date(T0 + 7 * HOUR));
    expect(Leaderboard.parse(board)).toEqual(board);
    expect(board.meta).toEqual({ total_agents: 3, last_update: '2026-11-21T13:00:00.000' });
    expect(board.rows.map((r) => [r.rank, r.hotkey, r.score, r.version, r.current_version, r.resubmitted_since])).toEqual([
      [1, played.perfect.hotkey, null, 1, 2, true],
      [2, played.half.hotkey, 0.5, 1, 1, false],
      [3, played.constant.hotkey, 0, 1, 1, false],
    ]);
    expect(board.rows[0]).toMatchObject({ track: 'skills', attestations: 8, updated_at: '2026-11-21T15:00:00.000' });
  });

  it('agents: active agents with their latest evaluation of the current code, track filter, reserved evaluation_state', async () => {
    const db = ctx.db();
    const service = createPublicReadService(db);
    const played = await playRound(db, T0);
    await submitAgent(db, { hotkey: played.perfect.hotkey, track: 'skills', name: 'v2', provider: 'x', codeHash: codeHash('v2'), now: T0 + 5 * HOUR });
    await deleteAgent(db, { hotkey: played.constant.hotkey, track: 'skills', now: T0 + 5 * HOUR });
    const pkg = newKey();
    await registerMiner(db, { hotkey: pkg.hotkey, track: 'packages', now: T0 });
    await submitAgent(db, { hotkey: pkg.hotkey, track: 'packages', name: 'pkg', provider: 'x', codeHash: codeHash('pkg'), now: T0 + 4 * HOUR });

    const all = await service.agents(undefined);
    expect(AgentsResponse.parse(all)).toEqual(all);
    expect(all.agents.map((a) => a.hotkey)).toEqual([played.perfect.hotkey, pkg.hotkey, played.half.hotkey]);
    for (const agent of all.agents) expect(agent.evaluation_state).toBeNull();
    const half = all.agents.find((a) => a.hotkey === played.half.hotkey)!;
    expect(half).toMatchObject({ status: 'active', version: 1, agent_hash: codeHash(played.half.hotkey), evaluated: true, runs: 2, score: 0.5, rounds: [1] });
    expect(half.validator_scores).toHaveLength(2);
    expect(half.validator_scores.map((v) => v.validator).sort()).toEqual(played.validators.map((v) => v.hotkey).sort());
    expect(half.validator_scores.every((v) => v.score === 0.5 && v.round_number === 1)).toBe(true);
    // New code since the round: not evaluated, but its round history stays.
    expect(all.agents[0]).toMatchObject({ version: 2, evaluated: false, runs: 0, score: 0, validator_scores: [], rounds: [1] });

    const packages = await service.agents('packages');
    expect(packages.agents.map((a) => a.hotkey)).toEqual([pkg.hotkey]);
    expect(packages.agents[0]).toMatchObject({ evaluated: false, rounds: [], updated_at: '2026-11-21T14:00:00.000' });
  });

  it('agents are capped at 500 rows', async () => {
    const db = ctx.db();
    const rows = Array.from({ length: 501 }, (_, i) => ({
      hotkey: newKey().hotkey,
      track: 'skills' as const,
      name: `a${i}`,
      provider: 'x',
      version: 1,
      code_hash: codeHash(String(i)),
      status: 'active' as const,
      created_at: T0,
      updated_at: T0 + i,
    }));
    for (let i = 0; i < rows.length; i += 100) await db.insertInto('agents').values(rows.slice(i, i + 100)).execute();
    const listed = await createPublicReadService(db).agents(undefined);
    expect(AgentsResponse.parse(listed).agents).toHaveLength(500);
    expect(listed.agents[0]!.name).toBe('a500');
  });

  it('eligibility: winner, excluded, updated, new, inactive, and 404 for an unknown hotkey', async () => {
    const db = ctx.db();
    const service = createPublicReadService(db);
    const played = await playRound(db, T0);
    const check = async (hotkey: string, track?: 'skills' | 'packages') => AgentEligibility.parse(await service.agentEligibility(hotkey, track));

    expect(await check(played.perfect.hotkey)).toMatchObject({
      state: 'winner',
      qualifies_next_round: true,
      reason: expect.stringMatching(/top five of the previous round/),
      last_round_hash: codeHash(played.perfect.hotkey),
      score: 1,
      rounds: [1],
      status: 'active',
      version: 1,
    });
    expect(await check(played.constant.hotkey, 'skills')).toMatchObject({ state: 'excluded', qualifies_next_round: false, score: 0 });
    await submitAgent(db, { hotkey: played.constant.hotkey, track: 'skills', name: 'c2', provider: 'x', codeHash: codeHash('c2'), now: T0 + 5 * HOUR });
    expect(await check(played.constant.hotkey)).toMatchObject({
      state: 'updated',
      qualifies_next_round: true,
      version: 2,
      agent_hash: codeHash('c2'),
      last_round_hash: codeHash(played.constant.hotkey),
    });

    const fresh = newKey();
    await registerMiner(db, { hotkey: fresh.hotkey, track: 'packages', now: T0 });
    await submitAgent(db, { hotkey: fresh.hotkey, track: 'packages', name: 'f', provider: 'x', codeHash: codeHash('f'), now: T0 });
    expect(await check(fresh.hotkey)).toMatchObject({ state: 'new', track: 'packages', qualifies_next_round: true, last_round_hash: codeHash('f'), score: 0, rounds: [] });
    // Without a track: the most recently updated active agent of the hotkey.
    await registerMiner(db, { hotkey: fresh.hotkey, track: 'skills', now: T0 });
    await submitAgent(db, { hotkey: fresh.hotkey, track: 'skills', name: 'g', provider: 'x', codeHash: codeHash('g'), now: T0 + HOUR });
    expect((await check(fresh.hotkey)).track).toBe('skills');
    expect((await check(fresh.hotkey, 'packages')).track).toBe('packages');

    await deleteAgent(db, { hotkey: played.half.hotkey, track: 'skills', now: T0 + 6 * HOUR });
    expect(await check(played.half.hotkey)).toMatchObject({ state: 'inactive', status: 'deleted', qualifies_next_round: false });

    await expect(service.agentEligibility(newKey().hotkey, undefined)).rejects.toMatchObject({ code: 'agent_not_found', status: 404, detail: 'agent not found' });
    await expect(service.agentEligibility(played.perfect.hotkey, 'packages')).rejects.toMatchObject({ code: 'agent_not_found' });
  });
});
