import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test-support/databases.js';
import { createDatabaseReplayStore, createRedisReplayStore, REDIS_REPLAY_PREFIX, type ReplayStore } from './replay-store.js';

const SIG_A = 'a'.repeat(128);
const SIG_B = 'b'.repeat(128);

function contract(make: () => ReplayStore) {
  it('is true for the first use of a triple only', async () => {
    const store = make();
    const hotkey = `hk-${randomUUID()}`;
    expect(await store.claim(hotkey, 1_767_225_600, SIG_A, 241)).toBe(true);
    expect(await store.claim(hotkey, 1_767_225_600, SIG_A, 241)).toBe(false);
  });

  it('treats triples differing in any part as distinct', async () => {
    const store = make();
    const hotkey = `hk-${randomUUID()}`;
    expect(await store.claim(hotkey, 1_767_225_600, SIG_A, 241)).toBe(true);
    expect(await store.claim(hotkey, 1_767_225_601, SIG_A, 241)).toBe(true);
    expect(await store.claim(hotkey, 1_767_225_600, SIG_B, 241)).toBe(true);
    expect(await store.claim(`${hotkey}-2`, 1_767_225_600, SIG_A, 241)).toBe(true);
  });

  it('is shared by every store over the same backend (instances, restarts)', async () => {
    const hotkey = `hk-${randomUUID()}`;
    expect(await make().claim(hotkey, 1_767_225_600, SIG_A, 241)).toBe(true);
    expect(await make().claim(hotkey, 1_767_225_600, SIG_A, 241)).toBe(false);
  });

  it('lets exactly one of concurrent claims of a triple win', async () => {
    const hotkey = `hk-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 8 }, () => make().claim(hotkey, 1_767_225_600, SIG_A, 241)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('names a bad ttl', async () => {
    await expect(make().claim('hk', 1, SIG_A, 0)).rejects.toThrow(/^ttlSeconds: /);
  });
}

describeEachDialect('database replay store', (ctx) => {
  contract(() => createDatabaseReplayStore(ctx.db()));

  it('purges rows past their expiry, at most once per interval', async () => {
    let now = 1_000_000;
    const store = createDatabaseReplayStore(ctx.db(), { now: () => now, purgeIntervalMs: 60_000 });
    const count = async () =>
      Number((await ctx.db().selectFrom('signature_uses').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow()).n);
    expect(await store.claim('hk', 1, SIG_A, 10)).toBe(true);
    expect(await ctx.db().selectFrom('signature_uses').select('expires_at').executeTakeFirstOrThrow()).toEqual({ expires_at: 1_010_000 });
    now += 30_000; // expired, but the last purge was 30 s ago
    expect(await store.claim('hk', 2, SIG_A, 10)).toBe(true);
    expect(await count()).toBe(2);
    now += 30_000;
    expect(await store.claim('hk', 3, SIG_A, 10)).toBe(true);
    expect(await count()).toBe(1); // the first two expired and went; the third stays
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) console.warn('SKIPPED: Redis replay store (set TEST_REDIS_URL to run it)');
const redis = REDIS_URL ? new Redis(REDIS_URL) : undefined;
afterAll(async () => {
  await redis?.quit();
});

describe.skipIf(!REDIS_URL)('Redis replay store [needs TEST_REDIS_URL]', () => {
  contract(() => createRedisReplayStore(redis!));

  it('keeps a claim for the ttl it was given', async () => {
    const hotkey = `hk-${randomUUID()}`;
    await createRedisReplayStore(redis!).claim(hotkey, 1_767_225_600, SIG_A, 241);
    const ttl = await redis!.pttl(`${REDIS_REPLAY_PREFIX}${hotkey}:1767225600:${SIG_A}`);
    expect(ttl).toBeGreaterThan(240_000);
    expect(ttl).toBeLessThanOrEqual(241_000);
  });
});
