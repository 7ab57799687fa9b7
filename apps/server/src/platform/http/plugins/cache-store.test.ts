import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MEMORY_CACHE_MAX_ENTRIES, createMemoryCacheStore, createRedisCacheStore } from './cache-store.js';

describe('memory cache store', () => {
  it('keeps the first body until it expires, then accepts a new one', async () => {
    let now = 1_000;
    const store = createMemoryCacheStore(() => now);
    expect(await store.get('k')).toBeUndefined();
    expect(await store.putIfAbsent('k', 'first', 30_000)).toEqual({ body: 'first', remainingMs: 30_000 });
    now += 10_000;
    expect(await store.putIfAbsent('k', 'second', 30_000)).toMatchObject({ body: 'first', remainingMs: 20_000 });
    const hit = await store.get('k');
    expect(hit).toMatchObject({ body: 'first', remainingMs: 20_000 });
    // The pre-encoded bytes are the same body, so a hit served from them is byte-identical.
    expect(hit?.bytes?.toString('utf8')).toBe('first');
    now += 20_000;
    expect(await store.get('k')).toBeUndefined();
    expect(await store.putIfAbsent('k', 'second', 30_000)).toEqual({ body: 'second', remainingMs: 30_000 });
  });

  it('holds at most MEMORY_CACHE_MAX_ENTRIES live entries, dropping the oldest', async () => {
    const store = createMemoryCacheStore();
    for (let i = 0; i <= MEMORY_CACHE_MAX_ENTRIES; i++) await store.putIfAbsent(`k${i}`, String(i), 60_000);
    expect(store.get('k0')).toBeUndefined();
    expect(store.get('k1')).toMatchObject({ body: '1' });
    expect(store.get(`k${MEMORY_CACHE_MAX_ENTRIES}`)).toMatchObject({ body: String(MEMORY_CACHE_MAX_ENTRIES) });
  });

  it('keeps keys apart', async () => {
    const store = createMemoryCacheStore();
    await store.putIfAbsent('a', 'A', 1_000);
    await store.putIfAbsent('b', 'B', 1_000);
    expect((await store.get('a'))?.body).toBe('A');
    expect((await store.get('b'))?.body).toBe('B');
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) console.warn('SKIPPED: Redis cache store (set TEST_REDIS_URL to run it)');

describe.skipIf(!REDIS_URL)('Redis cache store', () => {
  it('the first writer wins across clients and entries expire', async () => {
    const one = new Redis(REDIS_URL ?? '');
    const two = new Redis(REDIS_URL ?? '');
    const key = `test-${randomUUID()}`;
    try {
      const a = createRedisCacheStore(one);
      const b = createRedisCacheStore(two);
      expect(await a.putIfAbsent(key, 'from a', 300)).toEqual({ body: 'from a', remainingMs: 300 });
      const seen = await b.putIfAbsent(key, 'from b', 300);
      expect(seen.body).toBe('from a');
      expect(seen.remainingMs).toBeLessThanOrEqual(300);
      expect((await b.get(key))?.body).toBe('from a');
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(await a.get(key)).toBeUndefined();
    } finally {
      await one.quit();
      await two.quit();
    }
  });
});
