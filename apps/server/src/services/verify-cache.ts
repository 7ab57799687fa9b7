import { VerifyResult } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { verifyReferences } from './customer-artifacts.js';

/** How old a verify answer may be (docs/artifacts.md): verdicts change when a round closes, hours apart. */
export const VERIFY_CACHE_MS = 5_000;
const MAX_ENTRIES = 50_000;

export interface VerifyCache {
  /** One result per reference, in order: cached ones as they were, the rest read in one query. */
  verify(purls: readonly string[]): Promise<VerifyResult[]>;
  /** One reference's answer as the JSON text the endpoint sends (serialized through the schema once, when read). */
  verifyJson(purl: string): Promise<string>;
  /** Drops a reference (an upload on this instance changes its answer at once). */
  forget(purl: string): void;
}

/**
 * Per-instance answers of `POST /v1/artifacts/verify` for `ttlMs`: repeated verification of the
 * same packages (a CI fleet installing one lockfile) costs a map lookup instead of three indexed
 * queries. An upload through this instance forgets its purl; other changes (a round closing, an
 * upload elsewhere) show within `ttlMs`.
 */
export function createVerifyCache(db: Kysely<Database>, options: { ttlMs?: number; now: () => number }): VerifyCache {
  const ttlMs = options.ttlMs ?? VERIFY_CACHE_MS;
  const entries = new Map<string, { result: VerifyResult; until: number; json?: string }>();
  const cache: VerifyCache = {
    async verify(purls) {
      const now = options.now();
      const missing: string[] = [];
      for (const purl of purls) {
        const hit = entries.get(purl);
        if (hit === undefined || hit.until <= now) missing.push(purl);
      }
      if (missing.length > 0) {
        const fresh = await verifyReferences(db, missing);
        if (entries.size + fresh.length > MAX_ENTRIES) entries.clear();
        const until = options.now() + ttlMs;
        for (const [i, purl] of missing.entries()) entries.set(purl, { result: fresh[i]!, until });
      }
      return purls.map((purl) => entries.get(purl)!.result);
    },
    async verifyJson(purl) {
      await cache.verify([purl]);
      const entry = entries.get(purl)!;
      // The schema's parse, as the route's serializer would do, once per cached answer.
      entry.json ??= JSON.stringify(VerifyResult.parse(entry.result));
      return entry.json;
    },
    forget(purl) {
      entries.delete(purl);
    },
  };
  return cache;
}
