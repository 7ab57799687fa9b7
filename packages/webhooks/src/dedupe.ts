import type { VerifiedDelivery } from './verify-webhook.js';

/**
 * Where claimed keys are kept. `claim` must be atomic across every process that shares the store
 * (Redis `SET key 1 NX EX ttl` is): it answers true exactly once per key until the key expires.
 * `release`, when present, forgets a key so a retry of a delivery whose handling failed is handled.
 */
export interface WebhookClaimStore {
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  release?(key: string): Promise<void>;
}

export interface MemoryClaimStoreOptions {
  /** Most keys kept; past it the oldest claims are forgotten first. Default 10 000. */
  maxEntries?: number;
  /** Milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
}

/**
 * One process's claims, in a Map whose insertion order is the claim order. Expired keys are
 * dropped as they are met; the size bound keeps memory flat when deliveries outpace the TTL, at
 * the price of forgetting the oldest keys early (a duplicate of one of those would run again).
 */
export function createMemoryClaimStore(options: MemoryClaimStoreOptions = {}): WebhookClaimStore {
  const maxEntries = options.maxEntries ?? 10_000;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries: expected a positive integer, got ${String(maxEntries)}`);
  const now = options.now ?? Date.now;
  const expiries = new Map<string, number>();

  function dropExpired(at: number): void {
    // Entries are in claim order but TTLs may differ, so this only trims the expired head.
    for (const [key, expiresAt] of expiries) {
      if (expiresAt > at) break;
      expiries.delete(key);
    }
  }

  return {
    async claim(key, ttlSeconds) {
      const at = now();
      dropExpired(at);
      const expiresAt = expiries.get(key);
      if (expiresAt !== undefined && expiresAt > at) return false;
      expiries.delete(key);
      expiries.set(key, at + ttlSeconds * 1000);
      while (expiries.size > maxEntries) {
        const oldest = expiries.keys().next().value as string;
        expiries.delete(oldest);
      }
      return true;
    },
    async release(key) {
      expiries.delete(key);
    },
  };
}

/**
 * Longest a delivery can keep being retried, with margin: the retry schedule spans about 27.6 h
 * (33 h with the +20 % jitter on every wait), so 48 h outlasts every retry of one delivery.
 */
export const WEBHOOK_DEDUPE_TTL_SECONDS = 48 * 60 * 60;

/**
 * What a duplicate is: `event` (default) keys on the event id, which every delivery of one event
 * shares (retries, a resend, a recovery); `delivery` keys on `X-Vigil-Delivery`, shared by the
 * retries of one delivery only; a function picks its own key.
 */
export type WebhookDedupeKey = 'event' | 'delivery' | ((delivery: VerifiedDelivery) => string | undefined);

export interface WebhookDeduplicatorOptions {
  /** Default: `createMemoryClaimStore()`, which only dedupes within one process. */
  store?: WebhookClaimStore;
  /** How long a key is remembered. Default `WEBHOOK_DEDUPE_TTL_SECONDS` (48 h). */
  ttlSeconds?: number;
  key?: WebhookDedupeKey;
}

export interface WebhookDeduplicator {
  /** True the first time this delivery's key is seen (handle it), false for a duplicate (skip it). */
  claim(delivery: VerifiedDelivery): Promise<boolean>;
  /** Forgets the delivery's key (if the store can), so its next retry is handled. */
  release(delivery: VerifiedDelivery): Promise<void>;
}

export function createWebhookDeduplicator(options: WebhookDeduplicatorOptions = {}): WebhookDeduplicator {
  const store = options.store ?? createMemoryClaimStore();
  const ttlSeconds = options.ttlSeconds ?? WEBHOOK_DEDUPE_TTL_SECONDS;
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1) throw new RangeError(`ttlSeconds: expected a positive integer, got ${String(ttlSeconds)}`);
  const by = options.key ?? 'event';

  function keyOf(delivery: VerifiedDelivery): string {
    if (typeof by === 'function') {
      const custom = by(delivery);
      if (custom !== undefined) return custom;
    } else if (by === 'event' && delivery.event.id !== undefined) {
      return `event:${delivery.event.id}`;
    }
    // The delivery id: asked for, or the fallback for an unknown event without a string id.
    return `delivery:${delivery.deliveryId}`;
  }

  return {
    claim: (delivery) => store.claim(keyOf(delivery), ttlSeconds),
    release: async (delivery) => {
      await store.release?.(keyOf(delivery));
    },
  };
}
