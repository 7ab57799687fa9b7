import type { Redis } from 'ioredis';

export interface CachedBody {
  body: string;
  /** The same body, UTF-8 encoded once when stored in process, so a hit is not re-encoded per response. */
  bytes?: Buffer;
  /** Milliseconds until the entry expires. */
  remainingMs: number;
}

/**
 * Where serialized response bodies live. `putIfAbsent` keeps the first body written for a key, so
 * every reader (and every instance, with Redis) gets byte-identical bytes until the entry expires.
 */
export interface ResponseCacheStore {
  /** Synchronous for the in-process store, so a cache hit costs no promise. */
  get(key: string): CachedBody | undefined | Promise<CachedBody | undefined>;
  /** Stores `body` unless a live entry exists; returns whichever entry is live afterwards. */
  putIfAbsent(key: string, body: string, ttlMs: number): Promise<CachedBody>;
}

/** Bounds memory whatever keys clients make the server cache (e.g. round attestations per miner). */
export const MEMORY_CACHE_MAX_ENTRIES = 10_000;

export function createMemoryCacheStore(clock: () => number = Date.now): ResponseCacheStore {
  const entries = new Map<string, { body: string; bytes: Buffer; expiresAt: number }>();
  const live = (key: string): CachedBody | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    const remainingMs = entry.expiresAt - clock();
    if (remainingMs <= 0) {
      entries.delete(key);
      return undefined;
    }
    return { body: entry.body, bytes: entry.bytes, remainingMs };
  };
  return {
    get(key) {
      return live(key);
    },
    async putIfAbsent(key, body, ttlMs) {
      const existing = live(key);
      if (existing) return existing;
      // Keys are bounded (routes × days/limit/track values), but expired ones are swept so they do not linger.
      for (const [k, entry] of entries) if (entry.expiresAt <= clock()) entries.delete(k);
      // Still full of live entries: drop the oldest (Map iterates in insertion order).
      if (entries.size >= MEMORY_CACHE_MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(key, { body, bytes: Buffer.from(body, 'utf8'), expiresAt: clock() + ttlMs });
      return { body, remainingMs: ttlMs };
    },
  };
}

const PREFIX = 'vigil:cache:';

export function createRedisCacheStore(redis: Redis): ResponseCacheStore {
  const read = async (key: string): Promise<CachedBody | undefined> => {
    const result = await redis.multi().get(PREFIX + key).pttl(PREFIX + key).exec();
    const body = result?.[0]?.[1];
    const ttl = result?.[1]?.[1];
    if (typeof body !== 'string' || typeof ttl !== 'number' || ttl <= 0) return undefined;
    return { body, remainingMs: ttl };
  };
  return {
    get: read,
    async putIfAbsent(key, body, ttlMs) {
      const stored = await redis.set(PREFIX + key, body, 'PX', ttlMs, 'NX');
      if (stored === 'OK') return { body, remainingMs: ttlMs };
      // Another instance won the race: serve its bytes so every client sees the same body.
      return (await read(key)) ?? { body, remainingMs: ttlMs };
    },
  };
}
