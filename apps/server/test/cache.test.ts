import { CACHE_TTL_SECONDS } from '@vigil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tickingClock, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  // Every uncached answer sees a later server time, so equal bodies can only come from the cache.
  server = await startServer({ clock: tickingClock() });
});
afterAll(async () => {
  await server.close();
});

async function get(path: string) {
  const response = await fetch(server.url + path);
  return { response, text: await response.text() };
}

function maxAge(response: Response): number {
  const match = /^public, max-age=(\d+)$/.exec(response.headers.get('cache-control') ?? '');
  if (!match) throw new Error(`not a public cache header: ${response.headers.get('cache-control')}`);
  return Number(match[1]);
}

describe('response cache', () => {
  it.each([
    ['/v1/dashboard/network', CACHE_TTL_SECONDS.dashboardNetwork],
    ['/v1/threats/trends?days=9', CACHE_TTL_SECONDS.threatTrends],
    ['/v1/rounds/status', CACHE_TTL_SECONDS.roundsStatus],
    ['/v1/rounds?limit=7', CACHE_TTL_SECONDS.rounds],
    ['/v1/leaderboard', CACHE_TTL_SECONDS.leaderboard],
    ['/v1/agents?track=skills', CACHE_TTL_SECONDS.agents],
  ])('%s is cached for %i s and served byte-identical', async (path, ttl) => {
    const first = await get(path);
    expect(first.response.status).toBe(200);
    expect(maxAge(first.response)).toBe(ttl);
    const second = await get(path);
    expect(second.text).toBe(first.text);
    expect(maxAge(second.response)).toBeLessThanOrEqual(ttl);
    expect(maxAge(second.response)).toBeGreaterThanOrEqual(ttl - 2);
  });

  it('a cached body keeps its server time although the clock moved on', async () => {
    const first = await get('/v1/rounds/status');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await get('/v1/rounds/status');
    // The ticking clock gives every computed answer a new server_time; equal bytes mean the cache answered.
    expect(JSON.parse(second.text).server_time).toBe(JSON.parse(first.text).server_time);
    expect(second.text).toBe(first.text);
  });

  it('trends are cached per days value; equivalent spellings share an entry', async () => {
    const thirty = await get('/v1/threats/trends');
    expect(JSON.parse(thirty.text).days).toBe(30);
    expect((await get('/v1/threats/trends?days=30')).text).toBe(thirty.text);
    expect((await get('/v1/threats/trends?days=030')).text).toBe(thirty.text);
    const seven = await get('/v1/threats/trends?days=7');
    expect(JSON.parse(seven.text).days).toBe(7);
    expect(seven.text).not.toBe(thirty.text);
  });

  it('agents are cached per track key', async () => {
    const all = await get('/v1/agents');
    const skills = await get('/v1/agents?track=packages');
    expect(maxAge(all.response)).toBe(CACHE_TTL_SECONDS.agents);
    expect(maxAge(skills.response)).toBe(CACHE_TTL_SECONDS.agents);
  });

  it('uncached routes and errors say no-store', async () => {
    for (const path of ['/v1/health', '/v1/server-identity', '/v1/rounds/deadbeef00/scores', '/v1/agents/x', '/nope', '/v1/threats/trends?days=999']) {
      const { response } = await get(path);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('a 422 is not stored: the next valid request is answered fresh', async () => {
    const rejected = await get('/v1/rounds?limit=500');
    expect(rejected.response.status).toBe(422);
    const ok = await get('/v1/rounds?limit=11');
    expect(ok.response.status).toBe(200);
    expect(maxAge(ok.response)).toBe(CACHE_TTL_SECONDS.rounds);
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) console.warn('SKIPPED: response cache shared through Redis (set TEST_REDIS_URL to run it)');

describe.skipIf(!REDIS_URL)('response cache shared through Redis', () => {
  it('two instances serve the same bytes until the entry expires', async () => {
    const { Redis } = await import('ioredis');
    const redis = new Redis(REDIS_URL ?? '');
    // Entries outlive test runs; start from an empty cache for the route under test.
    const stale = await redis.keys('vigil:cache:/v1/rounds/status|*');
    if (stale.length > 0) await redis.del(...stale);
    // Different clocks: computed bodies would differ in server_time.
    const a = await startServer({ redis, clock: tickingClock(Date.UTC(2026, 0, 1)) });
    const b = await startServer({ redis, clock: tickingClock(Date.UTC(2027, 0, 1)) });
    try {
      const fromA = await fetch(`${a.url}/v1/rounds/status`);
      const textA = await fromA.text();
      expect(fromA.headers.get('cache-control')).toBe(`public, max-age=${CACHE_TTL_SECONDS.roundsStatus}`);
      const fromB = await fetch(`${b.url}/v1/rounds/status`);
      expect(await fromB.text()).toBe(textA);
      expect(JSON.parse(textA).server_time).toMatch(/^2026-01-01T/);
      const ttl = await redis.pttl('vigil:cache:/v1/rounds/status|');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(CACHE_TTL_SECONDS.roundsStatus * 1000);
    } finally {
      await a.close();
      await b.close();
      await redis.quit();
    }
  });
});
