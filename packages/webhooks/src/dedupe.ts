import type { VerifiedDelivery } from './verify-webhook.js';

/**
 * Where claimed keys are kept. `claim` must be atomic across every process that shares the store
 * (Redis `SET key token NX EX ttl` is): it answers true exactly once per key until the key expires.
 * `token` is new for every claim attempt and stored as the key's value, so that a command a client
 * sent twice (ioredis sends unanswered commands again after a reconnect) is recognised as the same
 * claim: when the key already holds this very token, the claim is still this caller's (answer true).
 * `release`, when present, forgets a key so a retry of a delivery whose handling failed is handled;
 * it must forget it only while it still holds `token` (the claim being released), or whatever the
 * key holds when `token` is undefined.
 */
export interface WebhookClaimStore {
  claim(key: string, ttlSeconds: number, token: string): Promise<boolean>;
  release?(key: string, token: string | undefined): Promise<void>;
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
  const claims = new Map<string, { expiresAt: number; token: string }>();

  function dropExpired(at: number): void {
    // Entries are in claim order but TTLs may differ, so this only trims the expired head.
    for (const [key, held] of claims) {
      if (held.expiresAt > at) break;
      claims.delete(key);
    }
  }

  return {
    async claim(key, ttlSeconds, token) {
      const at = now();
      dropExpired(at);
      const held = claims.get(key);
      // The same token again is the same claim sent twice; an undefined one (a caller from plain
      // JavaScript that passes none) never matches, so it cannot pass for a claim it did not make.
      if (held !== undefined && held.expiresAt > at) return token !== undefined && held.token === token;
      claims.delete(key);
      claims.set(key, { expiresAt: at + ttlSeconds * 1000, token });
      while (claims.size > maxEntries) {
        const oldest = claims.keys().next().value as string;
        claims.delete(oldest);
      }
      return true;
    },
    async release(key, token) {
      const held = claims.get(key);
      if (held !== undefined && (token === undefined || held.token === token)) claims.delete(key);
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
  /**
   * Forgets the delivery's key (if the store can), so its next retry is handled: the claim made by
   * `claim` with this same delivery object, or, for a delivery this deduplicator did not claim,
   * whatever claim the key holds.
   */
  release(delivery: VerifiedDelivery): Promise<void>;
}

export function createWebhookDeduplicator(options: WebhookDeduplicatorOptions = {}): WebhookDeduplicator {
  // Checked here, not at the first delivery: a wrong option would otherwise show up as every
  // delivery answered 500, or as deduplication silently keyed on something else.
  if (options.store !== undefined && (typeof options.store !== 'object' || options.store === null || typeof options.store.claim !== 'function')) {
    throw new TypeError('store: expected an object with a claim(key, ttlSeconds, token) method');
  }
  const store = options.store ?? createMemoryClaimStore();
  const ttlSeconds = options.ttlSeconds ?? WEBHOOK_DEDUPE_TTL_SECONDS;
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1) throw new RangeError(`ttlSeconds: expected a positive integer, got ${String(ttlSeconds)}`);
  const by = options.key ?? 'event';
  if (by !== 'event' && by !== 'delivery' && typeof by !== 'function') throw new RangeError(`key: expected 'event', 'delivery' or a function, got ${String(by)}`);

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

  // The token of each claim this deduplicator won, by delivery object: release then drops only
  // that claim, never one a concurrent duplicate took after it (and the map holds nothing alive).
  // A released delivery maps to null: releasing it again is a no-op, not a release of whatever
  // claim a retry took since.
  const tokens = new WeakMap<VerifiedDelivery, string | null>();

  return {
    claim: async (delivery) => {
      const key = keyOf(delivery);
      const token = globalThis.crypto.randomUUID();
      let first: boolean;
      try {
        first = await store.claim(key, ttlSeconds, token);
      } catch (error) {
        // The claim may have been written before the store failed (a reply lost on a dropped
        // connection): take it back, best effort, so Vigil's retry of this delivery is handled.
        // Not awaited: the 500 must reach Vigil within its delivery timeout even when the store
        // takes as long to fail the release as it took to fail the claim.
        void Promise.resolve()
          .then(() => store.release?.(key, token))
          .catch(() => {});
        throw error;
      }
      // Kept whether or not the claim was won: releasing a duplicate passes its own token, which
      // the key does not hold, so it can never free the claim of the delivery being handled.
      if (first || !tokens.has(delivery)) tokens.set(delivery, token);
      return first;
    },
    release: async (delivery) => {
      const token = tokens.get(delivery);
      if (token === null) return;
      if (token !== undefined) tokens.set(delivery, null);
      await store.release?.(keyOf(delivery), token);
    },
  };
}
