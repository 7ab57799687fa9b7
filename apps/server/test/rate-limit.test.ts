import { randomInt } from 'node:crypto';
import { ErrorBody } from '@vigil/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function statuses(url: string, count: number, headers: Record<string, string> = {}): Promise<number[]> {
  const result: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    result.push(response.status);
  }
  return result;
}

describe('global rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ config: { rateLimitPerMinute: 5, endpointRateLimitPerMinute: 100 } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('allows the budget per source IP, then 429 rate limit exceeded with Retry-After', async () => {
    expect(await statuses(`${server.url}/v1/server-identity`, 3)).toEqual([200, 200, 200]);
    // The budget is per IP across routes, not per route.
    expect(await statuses(`${server.url}/v1/rounds/status`, 2)).toEqual([200, 200]);
    const response = await fetch(`${server.url}/v1/leaderboard`);
    expect(response.status).toBe(429);
    expect(ErrorBody.parse(await response.json())).toEqual({ detail: 'rate limit exceeded', code: 'rate_limited' });
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(response.headers.get('x-request-id')).toMatch(UUID_RE);
  });

  it('/v1/health is exempt', async () => {
    expect(await statuses(`${server.url}/v1/health`, 10)).toEqual(Array(10).fill(200));
  });

  it('unknown paths spend the same budget (a 404 flood is limited too)', async () => {
    const response = await fetch(`${server.url}/v1/does-not-exist`);
    expect(response.status).toBe(429);
  });
});

describe('per-endpoint rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ config: { rateLimitPerMinute: 8, endpointRateLimitPerMinute: 3 } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('limits /v1/dashboard/network, /v1/threats/trends and round attestations separately, on top of the global budget', async () => {
    expect(await statuses(`${server.url}/v1/dashboard/network`, 4)).toEqual([200, 200, 200, 429]);
    const limited = await fetch(`${server.url}/v1/dashboard/network`);
    expect(ErrorBody.parse(await limited.json())).toEqual({ detail: 'rate limit exceeded', code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another per-endpoint route has its own 3.
    expect(await statuses(`${server.url}/v1/threats/trends`, 2)).toEqual([200, 200]);
    // 5 dashboard + 2 trends = 7 of the global 8: one more request anywhere, then the global limit.
    expect(await statuses(`${server.url}/v1/rounds/status`, 2)).toEqual([200, 429]);
    expect(await statuses(`${server.url}/v1/threats/trends`, 1)).toEqual([429]);
  });

  it('round attestations have a per-endpoint budget too', async () => {
    const other = await startServer({ config: { rateLimitPerMinute: 100, endpointRateLimitPerMinute: 2 } });
    try {
      const url = `${other.url}/v1/rounds/deadbeef00/attestations?miner=x`;
      // The budget is per endpoint, not per round id.
      expect(await statuses(url, 2)).toEqual([200, 200]);
      expect(await statuses(`${other.url}/v1/rounds/cafebabe00/attestations?miner=y`, 1)).toEqual([429]);
      expect(await statuses(`${other.url}/v1/leaderboard`, 1)).toEqual([200]);
    } finally {
      await other.close();
    }
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) console.warn('SKIPPED: shared rate-limit budget over Redis (set TEST_REDIS_URL to run it)');

describe.skipIf(!REDIS_URL)('rate limits shared through Redis', () => {
  let redis: Redis;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL ?? '');
    const config = { rateLimitPerMinute: 4, endpointRateLimitPerMinute: 100, trustProxy: true as const };
    a = await startServer({ config, redis });
    b = await startServer({ config, redis });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await redis.quit();
  });

  it('two instances enforce one budget per source IP', async () => {
    // A fresh client address per run: Redis counters outlive the test process.
    const headers = { 'x-forwarded-for': `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}` };
    expect(await statuses(`${a.url}/v1/server-identity`, 2, headers)).toEqual([200, 200]);
    expect(await statuses(`${b.url}/v1/server-identity`, 2, headers)).toEqual([200, 200]);
    expect(await statuses(`${a.url}/v1/server-identity`, 1, headers)).toEqual([429]);
    expect(await statuses(`${b.url}/v1/server-identity`, 1, headers)).toEqual([429]);
    // Another address still has its own budget.
    const other = { 'x-forwarded-for': `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}` };
    expect(await statuses(`${b.url}/v1/server-identity`, 1, other)).toEqual([200]);
  });
});
