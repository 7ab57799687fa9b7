import { RegistryFetchList, RegistryFetchListQuery, RegistryFetchRetried, RegistryFetchRetryRequest, WatcherSummary } from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { queryFingerprint, readKeysetPage, sendKeysetPageHeaders } from '../../platform/http/pagination.js';
import '../../platform/http/route-config.js';
import { actorOf, ADMIN, ADMIN_CHANGE } from '../accounts/index.js';
import { fetchBody, fetchSummary, listFetches, retryFetches, type FetchListKey } from './fetch-admin.js';
import { watcherSummary } from './watch-store.js';

export interface RegistryAdminRoutesOptions {
  db: Kysely<Database>;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
}

/** A page token's key of the fetch list: `[created_at, purl]`. */
function fetchListKey(key: unknown): FetchListKey | null {
  if (!Array.isArray(key) || key.length !== 2 || !Number.isSafeInteger(key[0]) || typeof key[1] !== 'string') return null;
  return { createdAt: key[0] as number, purl: key[1] };
}

/** The admin API's registry fetch queue (docs/accounts.md, "Admin API"; docs/registries.md, "Operating the fetch queue"). */
export const registryAdminRoutes: FastifyPluginAsyncZod<RegistryAdminRoutesOptions> = async (app, { db, clock }) => {
  app.get(
    '/v1/admin/registries/fetches',
    {
      schema: {
        summary: 'The registry fetch queue: counts by state, how far behind the workers are, and fetches newest first, filtered; keyset pages (X-Vigil-Page / X-Vigil-Next-Page)',
        querystring: RegistryFetchListQuery,
        response: { 200: RegistryFetchList },
      },
      config: ADMIN,
    },
    async (request, reply) => {
      const page = readKeysetPage(request, queryFingerprint('registry-fetches', request.query), fetchListKey);
      const at = clock();
      const [summary, result] = await Promise.all([fetchSummary(db, at), listFetches(db, { filters: request.query, after: page.after, size: page.size })]);
      sendKeysetPageHeaders(reply, page, result.next === null ? null : [result.next.createdAt, result.next.purl]);
      return { ...summary, fetches: result.rows.map(fetchBody) };
    },
  );

  app.post(
    '/v1/admin/registries/fetches/retry',
    {
      schema: {
        summary: 'Put a failed (or backing-off) fetch, or every failed fetch, back to be fetched now, attempts reset',
        body: RegistryFetchRetryRequest,
        response: { 200: RegistryFetchRetried },
      },
      config: ADMIN_CHANGE,
    },
    async (request) => {
      const { purl } = request.body;
      const target = purl === undefined ? { state: 'failed' as const } : { purl };
      const purls = await retryFetches(db, target, { now: clock(), actor: actorOf(request) });
      return { retried: purls.length, purls };
    },
  );

  app.get(
    '/v1/admin/registries/watcher',
    {
      schema: { summary: 'The release watcher: names watched, watches by source, names due now and how far behind, names failing', response: { 200: WatcherSummary } },
      config: ADMIN,
    },
    async () => watcherSummary(db, clock()),
  );
};
