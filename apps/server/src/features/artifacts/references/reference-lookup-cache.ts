import { VerifyResult } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { verifyCacheLookups } from '../../../platform/metrics/index.js';
import { verifyReferences } from '../customer-artifacts.js';
import { referenceViewKey, type ReferenceView } from './reference-claims.js';
import type { ReferenceFetches } from './reference-fetches.js';

/** How old a verify answer may be (docs/artifacts.md): verdicts change when a round closes, hours apart. */
export const VERIFY_CACHE_MS = 5_000;
const MAX_ENTRIES = 50_000;

export interface VerifyCache {
  /** One result per reference, in order, as `view` sees them: cached ones as they were, the rest read in one query. */
  verify(view: ReferenceView, purls: readonly string[]): Promise<VerifyResult[]>;
  /** One reference's answer as the JSON text the endpoint sends (serialized through the schema once, when read). */
  verifyJson(view: ReferenceView, purl: string): Promise<string>;
  /** Drops every view's answer for a reference (an upload on this instance changes them at once). */
  forget(purl: string): void;
}

/** Per reference: a repeated reference within one request counts as one miss, like the one read it costs. */
function countVerifyCacheLookups(hits: number, misses: number): void {
  if (hits > 0) verifyCacheLookups.inc({ result: 'hit' }, hits);
  if (misses > 0) verifyCacheLookups.inc({ result: 'miss' }, misses);
}

type Entry = { result: VerifyResult; until: number; json?: string };

/**
 * Per-instance answers of `POST /v1/artifacts/verify` for `ttlMs`: repeated verification of the
 * same packages (a CI fleet installing one lockfile) costs a map lookup instead of three indexed
 * queries. An answer depends on whose claims count (reference-claims.ts), so answers are kept per
 * reference and per view: an account's own, or the trusted-only view every trusted account shares.
 * An upload through this instance forgets its purl in every view; other changes (a round closing,
 * an upload elsewhere, a change of trust) show within `ttlMs`.
 */
export function createVerifyCache(db: Kysely<Database>, options: { ttlMs?: number; now: () => number; fetches?: ReferenceFetches }): VerifyCache {
  const ttlMs = options.ttlMs ?? VERIFY_CACHE_MS;
  const byPurl = new Map<string, Map<string, Entry>>();
  let size = 0;
  const entry = (purl: string, key: string) => byPurl.get(purl)?.get(key);
  const cache: VerifyCache = {
    async verify(view, purls) {
      const key = referenceViewKey(view);
      const now = options.now();
      // Answers are taken as they are now: a concurrent forget or eviction cannot take them away.
      const results = purls.map((purl) => {
        const hit = entry(purl, key);
        return hit !== undefined && hit.until > now ? hit.result : undefined;
      });
      const missing = [...new Set(purls.filter((_purl, i) => results[i] === undefined))];
      countVerifyCacheLookups(results.filter((r) => r !== undefined).length, missing.length);
      if (missing.length === 0) return results as VerifyResult[];
      const fresh = new Map((await verifyReferences(db, missing, view, options.fetches)).map((result, i) => [missing[i]!, result]));
      if (size + fresh.size > MAX_ENTRIES) {
        byPurl.clear();
        size = 0;
      }
      const until = options.now() + ttlMs;
      for (const [purl, result] of fresh) {
        let views = byPurl.get(purl);
        if (views === undefined) byPurl.set(purl, (views = new Map()));
        if (!views.has(key)) size += 1;
        views.set(key, { result, until });
      }
      return purls.map((purl, i) => results[i] ?? fresh.get(purl)!);
    },
    async verifyJson(view, purl) {
      const [result] = await cache.verify(view, [purl]);
      const cached = entry(purl, referenceViewKey(view));
      // The schema's parse, as the route's serializer would do, once per cached answer.
      if (cached === undefined || cached.result !== result) return JSON.stringify(VerifyResult.parse(result));
      cached.json ??= JSON.stringify(VerifyResult.parse(result));
      return cached.json;
    },
    forget(purl) {
      size -= byPurl.get(purl)?.size ?? 0;
      byPurl.delete(purl);
    },
  };
  return cache;
}
