import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimitStore, createRedisRateLimitStore, REDIS_RATE_LIMIT_PREFIX, type RateLimitStore } from './rate-limit-store.js';

function contract(name: string, make: () => RateLimitStore, skip = false) {
  describe.skipIf(skip)(name, () => {
    it('counts per key within a window and starts again in the next window', async () => {
      const store = make();
      const ip = randomUUID();
      expect(await store.hit(100, `g:${ip}`, 10, null)).toEqual({ global: 1, endpoint: 0 });
      expect(await store.hit(100, `g:${ip}`, 10, null)).toEqual({ global: 2, endpoint: 0 });
      expect(await store.hit(100, `g:other-${ip}`, 10, null)).toEqual({ global: 1, endpoint: 0 });
      expect(await store.hit(101, `g:${ip}`, 10, null)).toEqual({ global: 1, endpoint: 0 });
    });

    it('counts the endpoint budget only while the global one allows the request', async () => {
      const store = make();
      const ip = randomUUID();
      const g = `g:${ip}`;
      const e = `e:/v1/dashboard/network:${ip}`;
      expect(await store.hit(7, g, 2, e)).toEqual({ global: 1, endpoint: 1 });
      expect(await store.hit(7, g, 2, e)).toEqual({ global: 2, endpoint: 2 });
      // Over the global budget: refused there, so the endpoint budget is not spent as well.
      expect(await store.hit(7, g, 2, e)).toEqual({ global: 3, endpoint: 0 });
    });
  });
}

contract('memory rate-limit store', createMemoryRateLimitStore);

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) console.warn('SKIPPED: Redis rate-limit store (set TEST_REDIS_URL to run it)');
const redis = REDIS_URL ? new Redis(REDIS_URL) : undefined;
afterAll(async () => {
  await redis?.quit();
});
contract('Redis rate-limit store', () => createRedisRateLimitStore(redis!), !REDIS_URL);

describe.skipIf(!REDIS_URL)('Redis rate-limit keys', () => {
  it('carry the window and expire after the next one', async () => {
    const ip = randomUUID();
    await createRedisRateLimitStore(redis!).hit(42, `g:${ip}`, 5, null);
    const ttl = await redis!.pttl(`${REDIS_RATE_LIMIT_PREFIX}42:g:${ip}`);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });
});
