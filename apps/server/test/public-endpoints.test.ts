import {
  AgentsResponse,
  ErrorBody,
  HealthStatus,
  Leaderboard,
  NetworkDashboard,
  RoundAttestations,
  RoundsListResponse,
  RoundsStatusResponse,
  ServerIdentity,
  ThreatTrends,
  emptyRoundAttestations,
} from '@vigil/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.js';

const OFFSET_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;
const NAIVE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HOTKEY = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ROUND_ID = 'deadbeef00112233';
const NOW = new Date('2026-11-21T10:00:00.000Z');

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ clock: () => NOW.getTime() });
});
afterAll(async () => {
  await server.close();
});

async function get(path: string, init?: RequestInit) {
  const response = await fetch(server.url + path, init);
  const text = await response.text();
  return { response, text, json: JSON.parse(text) as unknown };
}

describe('public read endpoints', () => {
  it('/v1/health answers {status: ok}', async () => {
    const { response, json } = await get('/v1/health');
    expect(response.status).toBe(200);
    expect(HealthStatus.parse(json)).toEqual({ status: 'ok' });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('/v1/server-identity returns the key stored in <dataDir>/server-key', async () => {
    const { response, json } = await get('/v1/server-identity');
    expect(response.status).toBe(200);
    const identity = ServerIdentity.parse(json);
    expect(json).toEqual({ server_hotkey: identity.server_hotkey });
    const seed = readFileSync(join(server.config.dataDir, 'server-key'), 'utf8').trim();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(identity.server_hotkey).not.toBe(seed);
  });

  it('/v1/dashboard/network has the NetworkDashboard shape with an offset timestamp', async () => {
    const { response, json } = await get('/v1/dashboard/network');
    expect(response.status).toBe(200);
    const dashboard = NetworkDashboard.parse(json);
    expect(dashboard.last_update).toMatch(OFFSET_RE);
    expect(dashboard.throughput).toHaveLength(24);
  });

  it('/v1/threats/trends echoes days (default 30) with offset timestamps', async () => {
    const byDefault = ThreatTrends.parse((await get('/v1/threats/trends')).json);
    expect(byDefault.days).toBe(30);
    expect(byDefault.last_update).toMatch(OFFSET_RE);
    for (const days of [1, 7, 180]) {
      const { response, json } = await get(`/v1/threats/trends?days=${days}`);
      expect(response.status).toBe(200);
      expect(ThreatTrends.parse(json).days).toBe(days);
    }
  });

  it.each(['0', '181', '-1', 'abc', '1.5'])('/v1/threats/trends?days=%s is 422 Validation error', async (days) => {
    const { response, json } = await get(`/v1/threats/trends?days=${days}`);
    expect(response.status).toBe(422);
    const body = ErrorBody.parse(json);
    expect(body.detail).toBe('Validation error');
    expect(body.errors?.[0]?.path).toBe('query.days');
    expect(response.headers.get('x-request-id')).toMatch(UUID_RE);
  });

  it('/v1/rounds/status has naive timestamps', async () => {
    const { response, json } = await get('/v1/rounds/status');
    expect(response.status).toBe(200);
    const status = RoundsStatusResponse.parse(json);
    expect(status.server_time).toMatch(NAIVE_RE);
    expect(status.server_time).toBe('2026-11-21T10:00:00.000');
  });

  it('/v1/rounds lists closed rounds with meta.total; limit bounds are 1-200', async () => {
    const { response, json } = await get('/v1/rounds');
    expect(response.status).toBe(200);
    RoundsListResponse.parse(json);
    expect((await get('/v1/rounds?limit=200')).response.status).toBe(200);
    expect((await get('/v1/rounds?limit=1')).response.status).toBe(200);
    for (const limit of ['0', '201']) {
      const rejected = await get(`/v1/rounds?limit=${limit}`);
      expect(rejected.response.status).toBe(422);
      expect(ErrorBody.parse(rejected.json)).toMatchObject({ detail: 'Validation error', code: 'validation_error', errors: [{ path: 'query.limit' }] });
    }
  });

  it('/v1/rounds/{round_id}/scores is 404 round not found for unknown and malformed ids', async () => {
    for (const id of [ROUND_ID, 'not-hex', 'ABCDEF0123']) {
      const { response, json } = await get(`/v1/rounds/${id}/scores`);
      expect(response.status).toBe(404);
      expect(json).toEqual({ detail: 'round not found', code: 'round_not_found' });
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('/v1/rounds/{round_id}/attestations answers the empty shell (200) for unknown or malformed input', async () => {
    const unknown = await get(`/v1/rounds/${ROUND_ID}/attestations?miner=${HOTKEY}`);
    expect(unknown.response.status).toBe(200);
    expect(RoundAttestations.parse(unknown.json)).toEqual(
      emptyRoundAttestations({ roundId: ROUND_ID, miner: HOTKEY, roundStatus: 'unknown' }),
    );

    const malformed = await get('/v1/rounds/XYZ/attestations?miner=short');
    expect(malformed.response.status).toBe(200);
    expect(malformed.json).toEqual({
      round_id: '',
      track: '',
      round_status: 'unknown',
      miner_hotkey: '',
      score: 0,
      runs: 0,
      failure_reason: null,
      policy_version: '',
      tasks: [],
    });

    const noMiner = await get(`/v1/rounds/${ROUND_ID}/attestations`);
    expect(noMiner.response.status).toBe(200);
    expect(RoundAttestations.parse(noMiner.json)).toMatchObject({ round_id: ROUND_ID, miner_hotkey: '', tasks: [] });
    // An empty shell may fill when the round closes, so it is never cached.
    expect(noMiner.response.headers.get('cache-control')).toBe('no-store');
  });

  it('/v1/leaderboard has naive timestamps', async () => {
    const { response, json } = await get('/v1/leaderboard');
    expect(response.status).toBe(200);
    const leaderboard = Leaderboard.parse(json);
    expect(leaderboard.meta.last_update).toMatch(NAIVE_RE);
  });

  it('/v1/agents accepts an optional track and rejects an unknown one', async () => {
    for (const query of ['', '?track=skills', '?track=mcp_servers', '?track=packages', '?track=repositories']) {
      const { response, json } = await get(`/v1/agents${query}`);
      expect(response.status).toBe(200);
      expect(AgentsResponse.parse(json).agents.length).toBeLessThanOrEqual(500);
    }
    const rejected = await get('/v1/agents?track=games');
    expect(rejected.response.status).toBe(422);
    expect(ErrorBody.parse(rejected.json)).toMatchObject({ detail: 'Validation error', code: 'validation_error', errors: [{ path: 'query.track' }] });
  });

  it('/v1/agents/{hotkey} is 404 agent not found without an agent', async () => {
    for (const hotkey of [HOTKEY, 'nope']) {
      const { response, json } = await get(`/v1/agents/${hotkey}`);
      expect(response.status).toBe(404);
      expect(json).toEqual({ detail: 'agent not found', code: 'agent_not_found' });
    }
  });

  it('unknown routes are 404 {detail: not found}', async () => {
    // `/` is the web dashboard's page (test/dashboard.test.ts); any other unknown path is the API's 404.
    for (const path of ['/v2/health', '/v1/nothing', '/nothing']) {
      const { response, json } = await get(path);
      expect(response.status).toBe(404);
      expect(json).toEqual({ detail: 'not found', code: 'route_not_found' });
      expect(response.headers.get('x-request-id')).toMatch(UUID_RE);
    }
    const wrongMethod = await get('/v1/health', { method: 'DELETE' });
    expect(wrongMethod.response.status).toBe(404);
    expect(wrongMethod.json).toEqual({ detail: 'not found', code: 'route_not_found' });
  });
});

describe('x-request-id', () => {
  it('is on every response and honours a sane incoming id', async () => {
    for (const path of ['/v1/health', '/v1/rounds?limit=0', '/v1/missing', '/v1/agents/nope']) {
      const fresh = await get(path);
      expect(fresh.response.headers.get('x-request-id')).toMatch(UUID_RE);
      const echoed = await get(path, { headers: { 'x-request-id': 'trace-1234:abc.DEF_9' } });
      expect(echoed.response.headers.get('x-request-id')).toBe('trace-1234:abc.DEF_9');
    }
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['a space', 'has space'],
    ['a slash', 'a/b'],
    ['markup', '<script>'],
    ['a quote', 'x"y'],
  ])('replaces an incoming id with %s by a UUID', async (_label, id) => {
    const { response } = await get('/v1/health', { headers: { 'x-request-id': id } });
    expect(response.headers.get('x-request-id')).toMatch(UUID_RE);
  });

  it('keeps a 128-character id', async () => {
    const id = 'b'.repeat(128);
    const { response } = await get('/v1/health', { headers: { 'x-request-id': id } });
    expect(response.headers.get('x-request-id')).toBe(id);
  });
});
