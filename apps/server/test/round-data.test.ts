import {
  AgentEligibility,
  AgentsResponse,
  CACHE_TTL_SECONDS,
  Leaderboard,
  NetworkDashboard,
  RoundAttestations,
  RoundScores,
  RoundsListResponse,
  RoundsStatusResponse,
  ThreatTrends,
} from '@vigil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type VigilDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import { closeRound, openRound } from '../src/features/network/rounds/rounds.js';
import { HOUR, POLICY_VERSION, T0, attest, bundle, finding, newKey, seedRound, type TestKey } from '../src/test-support/fixtures.js';
import { startServer, type TestServer } from './harness.js';

const OFFSET_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;
const NAIVE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;
const ARTIFACTS = [
  { label: 'bench', sourceId: 'mal-1', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
  { label: 'bench', sourceId: 'ok-1', kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
];

let database: VigilDatabase;
let server: TestServer;
let closedRoundId: string;
let openRoundId: string;
let good: TestKey;
let bad: TestKey;

/** One closed skills round (good scores 1, bad 0) and one open packages round, through the write services. */
beforeAll(async () => {
  database = await openDatabase({ url: ':memory:' });
  await migrateToLatest(database.db);
  [good, bad] = [newKey(), newKey()];
  const validators = [newKey(), newKey()];
  const seeded = await seedRound(database.db, { now: T0, miners: [good, bad], validators, artifacts: ARTIFACTS });
  for (const spec of ARTIFACTS) {
    const hash = bundle('skills', spec);
    for (const v of validators) {
      await attest(database.db, seeded, good, hash, v, {
        verdict: spec.groundTruth,
        findings: spec.groundTruth === 'BLOCK' ? [finding('malware', 'HIGH')] : [],
        now: T0 + HOUR,
      });
      await attest(database.db, seeded, bad, hash, v, { verdict: spec.groundTruth === 'BLOCK' ? 'ALLOW' : 'BLOCK', now: T0 + HOUR });
    }
  }
  closedRoundId = seeded.round.round_id;
  await closeRound(database.db, { roundId: closedRoundId, now: T0 + 3 * HOUR });
  const open = await openRound(database.db, {
    track: 'packages',
    now: T0 + 4 * HOUR,
    submissionMs: 2 * HOUR,
    evaluationMs: HOUR,
    policyVersion: POLICY_VERSION,
  });
  openRoundId = open.round_id;
  server = await startServer({ database, clock: () => T0 + 5 * HOUR });
});
afterAll(async () => {
  await server.close();
  await database.close();
});

async function get(path: string) {
  const response = await fetch(server.url + path);
  return { response, json: (await response.json()) as unknown };
}

describe('public endpoints over real round data', () => {
  it('scores of a closed round are ranked, with a naive closed_at', async () => {
    const { response, json } = await get(`/v1/rounds/${closedRoundId}/scores`);
    expect(response.status).toBe(200);
    const scores = RoundScores.parse(json);
    expect(scores.round_id).toBe(closedRoundId);
    expect(scores.closed_at).toMatch(NAIVE_RE);
    expect(scores.scores.map((s) => s.hotkey)).toEqual([good.hotkey, bad.hotkey]);
    expect(scores.scores.map((s) => s.rank)).toEqual([1, 2]);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('attestations of a closed round are served blanked and cached', async () => {
    const { response, json } = await get(`/v1/rounds/${closedRoundId}/attestations?miner=${good.hotkey}`);
    expect(response.status).toBe(200);
    const set = RoundAttestations.parse(json);
    expect(set).toMatchObject({ round_id: closedRoundId, track: 'skills', round_status: 'closed', miner_hotkey: good.hotkey });
    expect(set.tasks.length).toBeGreaterThan(0);
    for (const task of set.tasks) expect(task).toMatchObject({ artifact_ref: '', validator: '' });
    expect(response.headers.get('cache-control')).toBe(`public, max-age=${CACHE_TTL_SECONDS.roundAttestations}`);
  });

  it('attestations of an open round are the empty shell with its track, not cached', async () => {
    const { response, json } = await get(`/v1/rounds/${openRoundId}/attestations?miner=${good.hotkey}`);
    expect(response.status).toBe(200);
    expect(RoundAttestations.parse(json)).toMatchObject({
      round_id: openRoundId,
      track: 'packages',
      round_status: 'open',
      miner_hotkey: good.hotkey,
      tasks: [],
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('the open round has no scores yet: 404 round not found', async () => {
    const { response, json } = await get(`/v1/rounds/${openRoundId}/scores`);
    expect(response.status).toBe(404);
    expect(json).toEqual({ detail: 'round not found', code: 'round_not_found' });
  });

  it('rounds, status, leaderboard and agents use naive timestamps', async () => {
    const rounds = RoundsListResponse.parse((await get('/v1/rounds')).json);
    expect(rounds.rounds.map((r) => r.round_id)).toEqual([closedRoundId]);
    expect(rounds.rounds[0]?.closed_at).toMatch(NAIVE_RE);

    const status = RoundsStatusResponse.parse((await get('/v1/rounds/status')).json);
    for (const track of status.tracks) {
      expect(track.opened_at).toMatch(NAIVE_RE);
      expect(track.submission_closes_at).toMatch(NAIVE_RE);
    }
    expect(status.tracks.find((t) => t.round_id === openRoundId)?.status).toBe('open');

    const leaderboard = Leaderboard.parse((await get('/v1/leaderboard')).json);
    expect(leaderboard.rows.length).toBeGreaterThan(0);
    for (const row of leaderboard.rows) expect(row.updated_at).toMatch(NAIVE_RE);

    const agents = AgentsResponse.parse((await get('/v1/agents?track=skills')).json);
    expect(agents.agents.map((a) => a.hotkey).sort()).toEqual([good.hotkey, bad.hotkey].sort());
    for (const agent of agents.agents) expect(agent.updated_at).toMatch(NAIVE_RE);
  });

  it('an agent with a hotkey has its eligibility', async () => {
    const { response, json } = await get(`/v1/agents/${good.hotkey}`);
    expect(response.status).toBe(200);
    expect(AgentEligibility.parse(json)).toMatchObject({ hotkey: good.hotkey, track: 'skills' });
  });

  it('dashboard and trends use offset timestamps and count the round', async () => {
    const dashboard = NetworkDashboard.parse((await get('/v1/dashboard/network')).json);
    expect(dashboard.last_update).toMatch(OFFSET_RE);
    expect(dashboard.attestations).toBe(8);
    const trends = ThreatTrends.parse((await get('/v1/threats/trends?days=7')).json);
    expect(trends.last_update).toMatch(OFFSET_RE);
    expect(trends.days).toBe(7);
  });
});
