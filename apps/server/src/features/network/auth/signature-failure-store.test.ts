import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createMemorySignatureFailureStore,
  createRedisSignatureFailureStore,
  REDIS_SIGNATURE_FAILURE_PREFIX,
  type SignatureFailureStore,
} from './signature-failure-store.js';

function contract(name: string, make: () => SignatureFailureStore, skip = false) {
  describe.skipIf(skip)(name, () => {
    it('counts failures per IP within a window and starts from zero in the next', async () => {
      const store = make();
      const ip = randomUUID();
      expect(await store.failures(100, ip)).toBe(0);
      expect(await store.record(100, ip)).toBe(1);
      expect(await store.record(100, ip)).toBe(2);
      expect(await store.failures(100, ip)).toBe(2);
      expect(await store.failures(100, `${ip}-other`)).toBe(0);
      expect(await store.failures(101, ip)).toBe(0);
      expect(await store.record(101, ip)).toBe(1);
    });

    it('reading does not count', async () => {
      const store = make();
      const ip = randomUUID();
      await store.failures(7, ip);
      await store.failures(7, ip);
      expect(await store.failures(7, ip)).toBe(0);
    });
  });
}

contract('memory signature-failure store', createMemorySignatureFailureStore);

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) console.warn('SKIPPED: Redis signature-failure store (set TEST_REDIS_URL to run it)');
const redis = REDIS_URL ? new Redis(REDIS_URL) : undefined;
afterAll(async () => {
  await redis?.quit();
});
contract('Redis signature-failure store [needs TEST_REDIS_URL]', () => createRedisSignatureFailureStore(redis!), !REDIS_URL);

describe.skipIf(!REDIS_URL)('Redis signature-failure keys', () => {
  it('are shared between stores and expire after the next window', async () => {
    const ip = randomUUID();
    await createRedisSignatureFailureStore(redis!).record(42, ip);
    expect(await createRedisSignatureFailureStore(redis!).failures(42, ip)).toBe(1);
    const ttl = await redis!.pttl(`${REDIS_SIGNATURE_FAILURE_PREFIX}42:${ip}`);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });
});
