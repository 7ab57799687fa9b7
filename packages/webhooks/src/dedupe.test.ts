import { randomUUID } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
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
    expect(await store.claim('a', 60, 't1')).toBe(true);
    expect(await store.claim('a', 60, 't2')).toBe(false);
    expect(await store.claim('b', 60, 't3')).toBe(true);
    now += 59_999;
    expect(await store.claim('a', 60, 't4')).toBe(false);
    now += 1;
    expect(await store.claim('a', 60, 't5')).toBe(true);
  });

  it('answers true again for the same claim sent twice (its token), never for a missing token', async () => {
    const store = createMemoryClaimStore();
    expect(await store.claim('a', 60, 't1')).toBe(true);
    expect(await store.claim('a', 60, 't1')).toBe(true);
    expect(await store.claim('a', 60, 't2')).toBe(false);
    expect(await store.claim('a', 60, undefined as unknown as string)).toBe(false);
  });

  it('forgets the oldest claims past maxEntries', async () => {
    const store = createMemoryClaimStore({ maxEntries: 3 });
    for (const key of ['k1', 'k2', 'k3', 'k4']) expect(await store.claim(key, 3600, `first-${key}`)).toBe(true);
    expect(await store.claim('k1', 3600, 'again')).toBe(true);
    expect(await store.claim('k4', 3600, 'again')).toBe(false);
    expect(await store.claim('k3', 3600, 'again')).toBe(false);
  });

  it('releases a key so it can be claimed again, only while it holds the released claim', async () => {
    const store = createMemoryClaimStore();
    await store.claim('a', 60, 't1');
    await store.release!('a', 't1');
    expect(await store.claim('a', 60, 't2')).toBe(true);
    await store.release!('a', 't1');
    expect(await store.claim('a', 60, 't3')).toBe(false);
    await store.release!('a', undefined);
    expect(await store.claim('a', 60, 't3')).toBe(true);
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
      release: async (key, token) => void calls.push(`release ${key} ${typeof token}`),
    };
    const d = delivery('0b6f3c1e-8a5d-4c1b-9b7e-2f4d6a8c0e13');
    await createWebhookDeduplicator({ store }).claim(d);
    await createWebhookDeduplicator({ store, ttlSeconds: 600 }).release(d);
    expect(WEBHOOK_DEDUPE_TTL_SECONDS).toBe(172_800);
    // The second deduplicator never claimed d: it releases whatever the key holds (no token).
    expect(calls).toEqual([`claim event:${d.event.id} 172800`, `release event:${d.event.id} undefined`]);
    await expect(createWebhookDeduplicator({ store: { claim: async () => true } }).release(d)).resolves.toBeUndefined();
    expect(() => createWebhookDeduplicator({ ttlSeconds: 0 })).toThrow(/^ttlSeconds:/);
  });

  it('releases only its own claim: a duplicate that claimed after a release keeps its claim', async () => {
    const store = createMemoryClaimStore();
    const a = createWebhookDeduplicator({ store });
    const d = delivery();
    expect(await a.claim(d)).toBe(true);
    await a.release(d);
    const retry = { ...d };
    expect(await a.claim(retry)).toBe(true);
    await a.release(d); // a second release of the first attempt must not free the retry's claim
    expect(await a.claim({ ...d })).toBe(false);
  });

  it('takes back a claim whose store call failed, so the retry of that delivery is handled', async () => {
    const inner = createMemoryClaimStore();
    const store: WebhookClaimStore = {
      // The write lands, then the reply is lost: the caller sees a failure.
      claim: async (key, ttl, token) => {
        await inner.claim(key, ttl, token);
        throw new Error('connection reset');
      },
      release: (key, token) => inner.release!(key, token),
    };
    const d = delivery();
    await expect(createWebhookDeduplicator({ store }).claim(d)).rejects.toThrow('connection reset');
    // The release is not awaited before the failure is reported: it lands just after.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await createWebhookDeduplicator({ store: inner }).claim({ ...d })).toBe(true);
  });

  it('reports a failed claim without waiting for the release of it, however long that takes', async () => {
    let releaseCalled = false;
    const store: WebhookClaimStore = {
      claim: async () => {
        throw new Error('connection reset');
      },
      release: () => ((releaseCalled = true), new Promise<void>(() => {})), // a store that never answers
    };
    await expect(createWebhookDeduplicator({ store }).claim(delivery())).rejects.toThrow('connection reset');
    await new Promise((resolve) => setImmediate(resolve));
    expect(releaseCalled).toBe(true);
  });

  it('releasing a delivery whose claim was a duplicate never frees the claim being handled', async () => {
    const store = createMemoryClaimStore();
    const dedupe = createWebhookDeduplicator({ store });
    const first = delivery();
    const duplicate = { ...first };
    expect(await dedupe.claim(first)).toBe(true);
    expect(await dedupe.claim(duplicate)).toBe(false);
    await dedupe.release(duplicate);
    expect(await dedupe.claim({ ...first })).toBe(false);
    // The same object claimed again keeps the claim it won.
    expect(await dedupe.claim(first)).toBe(false);
    await dedupe.release(first);
    expect(await dedupe.claim({ ...first })).toBe(true);
  });

  it('refuses an unknown key kind and a store without claim when it is made', () => {
    expect(() => createWebhookDeduplicator({ key: 'bogus' as 'event' })).toThrow(/^key: expected 'event', 'delivery' or a function, got bogus$/);
    expect(() => createWebhookDeduplicator({ store: {} as WebhookClaimStore })).toThrow(TypeError);
    expect(() => createWebhookDeduplicator({ store: null as unknown as WebhookClaimStore })).toThrow(/^store: expected an object with a claim/);
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

/** docs/webhook-receivers.md's Redis store, word for word but for the key prefix. */
function redisClaimStore(client: Redis, prefix: string): WebhookClaimStore {
  const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
  return {
    claim: async (key, ttlSeconds, token) => {
      if ((await client.set(`${prefix}${key}`, token, 'EX', ttlSeconds, 'NX')) === 'OK') return true;
      // ioredis sends an unanswered command again after a reconnect: if the first SET took effect,
      // the key holds this claim's own token and the claim is still ours.
      return (await client.get(`${prefix}${key}`)) === token;
    },
    release: async (key, token) => {
      if (token === undefined) await client.del(`${prefix}${key}`);
      else await client.eval(RELEASE, 1, `${prefix}${key}`, token);
    },
  };
}

describe.skipIf(!redisUp)('the Redis claim store example (SET NX EX)', () => {
  const prefix = `vigil-webhook-test:${randomUUID()}:`;
  const store = redisClaimStore(redis, prefix);

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

  it('a SET NX whose reply was lost and that ioredis sent again after reconnecting is still the first claim', async () => {
    // A proxy in front of Redis passes the first claim's SET through, drops Redis's reply and
    // closes the connection: ioredis reconnects and sends the SET again, which finds the key set.
    const [host, port] = [new URL(REDIS_URL).hostname, Number(new URL(REDIS_URL).port || 6379)];
    let dropped = false;
    const sockets = new Set<Socket>();
    const proxy = createServer((client) => {
      const upstream = connect(port, host);
      sockets.add(client).add(upstream);
      let armed = false;
      client.on('data', (chunk) => {
        if (!dropped && /\bset\b/i.test(chunk.toString('latin1')) && chunk.includes(prefix)) armed = true;
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        if (armed && !dropped) {
          dropped = true;
          client.destroy();
          upstream.destroy();
          return;
        }
        client.write(chunk);
      });
      for (const s of [client, upstream]) s.on('error', () => {}).on('close', () => (client.destroy(), upstream.destroy()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const viaProxy = new Redis({ host: '127.0.0.1', port: (proxy.address() as AddressInfo).port, db: Number(new URL(REDIS_URL).pathname.slice(1) || 0), commandTimeout: 2000, maxRetriesPerRequest: 1 }); // the doc's client options (and TEST_REDIS_URL's database)
    viaProxy.on('error', () => {});
    try {
      const d = delivery();
      expect(await createWebhookDeduplicator({ store: redisClaimStore(viaProxy, prefix) }).claim(d)).toBe(true);
      expect(dropped).toBe(true);
      expect(await createWebhookDeduplicator({ store }).claim({ ...d })).toBe(false);
    } finally {
      viaProxy.disconnect();
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('with the client options of the doc, a Redis that takes commands and never answers fails the claim well within 15 s', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((client) => {
      sockets.add(client);
      client.on('data', () => {}).on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const hung = new Redis({ host: '127.0.0.1', port: (silent.address() as AddressInfo).port, commandTimeout: 2000, maxRetriesPerRequest: 1, enableReadyCheck: false });
    hung.on('error', () => {});
    try {
      const started = Date.now();
      await expect(createWebhookDeduplicator({ store: redisClaimStore(hung, prefix) }).claim(delivery())).rejects.toThrow(/timed out/i);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      hung.disconnect();
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
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
