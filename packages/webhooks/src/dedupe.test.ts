import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryClaimStore, createWebhookDeduplicator, UnknownWebhookEvent, WEBHOOK_DEDUPE_TTL_SECONDS, type VerifiedDelivery, type WebhookClaimStore } from './index.js';
import { verdictChanged } from './test-support/deliveries.js';

function delivery(eventId = randomUUID(), deliveryId = randomUUID()): VerifiedDelivery {
  return { event: verdictChanged({ id: eventId }), deliveryId, timestamp: 1_800_000_000 };
}

describe('createMemoryClaimStore', () => {
  it('answers true once per key until its TTL passes', async () => {
    let now = 1_000_000;
    const store = createMemoryClaimStore({ now: () => now });
    expect(await store.claim('a', 60)).toBe(true);
    expect(await store.claim('a', 60)).toBe(false);
    expect(await store.claim('b', 60)).toBe(true);
    now += 59_999;
    expect(await store.claim('a', 60)).toBe(false);
    now += 1;
    expect(await store.claim('a', 60)).toBe(true);
  });

  it('forgets the oldest claims past maxEntries', async () => {
    const store = createMemoryClaimStore({ maxEntries: 3 });
    for (const key of ['k1', 'k2', 'k3', 'k4']) expect(await store.claim(key, 3600)).toBe(true);
    expect(await store.claim('k1', 3600)).toBe(true);
    expect(await store.claim('k4', 3600)).toBe(false);
    expect(await store.claim('k3', 3600)).toBe(false);
  });

  it('releases a key so it can be claimed again', async () => {
    const store = createMemoryClaimStore();
    await store.claim('a', 60);
    await store.release!('a');
    expect(await store.claim('a', 60)).toBe(true);
  });

  it('refuses a size bound that is not a positive integer', () => {
    expect(() => createMemoryClaimStore({ maxEntries: 0 })).toThrow(/^maxEntries:/);
  });
});

describe('createWebhookDeduplicator', () => {
  it('keys on the event id by default: a second delivery of the same event is a duplicate', async () => {
    const dedupe = createWebhookDeduplicator();
    const eventId = randomUUID();
    expect(await dedupe.claim(delivery(eventId))).toBe(true);
    expect(await dedupe.claim(delivery(eventId))).toBe(false);
    expect(await dedupe.claim(delivery())).toBe(true);
  });

  it('keys on X-Vigil-Delivery when asked: only retries of the same delivery are duplicates', async () => {
    const dedupe = createWebhookDeduplicator({ key: 'delivery' });
    const eventId = randomUUID();
    const first = delivery(eventId);
    expect(await dedupe.claim(first)).toBe(true);
    expect(await dedupe.claim({ ...first })).toBe(false);
    expect(await dedupe.claim(delivery(eventId))).toBe(true);
  });

  it('falls back to the delivery id for an unknown event without an id, and takes a custom key', async () => {
    const seen: string[] = [];
    const store: WebhookClaimStore = { claim: async (key) => (seen.push(key), true) };
    const unknown: VerifiedDelivery = { event: new UnknownWebhookEvent({ type: 'x.y' }), deliveryId: 'd-1', timestamp: 1 };
    await createWebhookDeduplicator({ store }).claim(unknown);
    await createWebhookDeduplicator({ store, key: (d) => `custom:${d.event.type}` }).claim(delivery());
    const known = delivery('0b6f3c1e-8a5d-4c1b-9b7e-2f4d6a8c0e13');
    await createWebhookDeduplicator({ store }).claim(known);
    expect(seen).toEqual(['delivery:d-1', 'custom:verdict.changed', 'event:0b6f3c1e-8a5d-4c1b-9b7e-2f4d6a8c0e13']);
  });

  it('passes the TTL to the store (48 h by default) and releases through it', async () => {
    const calls: string[] = [];
    const store: WebhookClaimStore = {
      claim: async (key, ttl) => (calls.push(`claim ${key} ${ttl}`), true),
      release: async (key) => void calls.push(`release ${key}`),
    };
    const d = delivery('0b6f3c1e-8a5d-4c1b-9b7e-2f4d6a8c0e13');
    await createWebhookDeduplicator({ store }).claim(d);
    await createWebhookDeduplicator({ store, ttlSeconds: 600 }).release(d);
    expect(WEBHOOK_DEDUPE_TTL_SECONDS).toBe(172_800);
    expect(calls).toEqual([`claim event:${d.event.id} 172800`, `release event:${d.event.id}`]);
    await expect(createWebhookDeduplicator({ store: { claim: async () => true } }).release(d)).resolves.toBeUndefined();
    expect(() => createWebhookDeduplicator({ ttlSeconds: 0 })).toThrow(/^ttlSeconds:/);
  });
});

// The Redis store of docs/webhook-receivers.md, run against a real Redis when one answers.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
redis.on('error', () => {});
const redisUp = await redis.connect().then(
  () => true,
  () => false,
);
if (!redisUp) console.warn(`SKIPPED: the Redis claim store tests (no Redis answers at ${REDIS_URL}; set TEST_REDIS_URL)`);

afterAll(() => {
  if (redisUp) redis.disconnect();
});

describe.skipIf(!redisUp)('the Redis claim store example (SET NX EX)', () => {
  const prefix = `vigil-webhook-test:${randomUUID()}:`;
  const store: WebhookClaimStore = {
    claim: async (key, ttlSeconds) => (await redis.set(`${prefix}${key}`, '1', 'EX', ttlSeconds, 'NX')) === 'OK',
    release: async (key) => {
      await redis.del(`${prefix}${key}`);
    },
  };

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });

  it('claims a key once, across two deduplicators sharing the store', async () => {
    const a = createWebhookDeduplicator({ store });
    const b = createWebhookDeduplicator({ store });
    const d = delivery();
    const results = await Promise.all([a.claim(d), b.claim({ ...d }), a.claim(d), b.claim(d)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await redis.ttl(`${prefix}event:${d.event.id}`)).toBeGreaterThan(WEBHOOK_DEDUPE_TTL_SECONDS - 60);
  });

  it('lets a released key be claimed again, and expires keys after their TTL', async () => {
    const dedupe = createWebhookDeduplicator({ store, ttlSeconds: 1 });
    const d = delivery();
    expect(await dedupe.claim(d)).toBe(true);
    await dedupe.release(d);
    expect(await dedupe.claim(d)).toBe(true);
    expect(await dedupe.claim(d)).toBe(false);
    expect(await redis.pttl(`${prefix}event:${d.event.id}`)).toBeLessThanOrEqual(1000);
  });
});
