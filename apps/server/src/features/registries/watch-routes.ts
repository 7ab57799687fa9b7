import { WatchCreateRequest, WatchIdParams, WatchList, WatchListQuery, WatchResponse } from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { readPage, sendPageHeaders } from '../../platform/http/pagination.js';
import '../../platform/http/route-config.js';
import { notFoundWhenInvalid } from '../../platform/http/zod-compilers.js';
import { principalOf } from '../accounts/index.js';
import { createWatch, deleteWatch, listWatches } from './watch-store.js';

export interface WatchRoutesOptions {
  db: Kysely<Database>;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
  /** VIGIL_REGISTRY_FETCH: off, nothing is polled, so new watches are refused (`watching_off`). */
  enabled: boolean;
  /** VIGIL_WATCH_MAX_PER_ACCOUNT. */
  maxPerAccount: number;
}

// An id that cannot name a watch is the same 404 as an unknown one.
notFoundWhenInvalid.add(WatchIdParams, { code: 'watch_not_found' });

/**
 * Watching a package costs Vigil a registry poll every interval and a fetch and evaluation of each
 * release, whoever reads the verdict: the scope of verification (what it is for) on a paid plan.
 */
const WATCHES = { apiKey: { scope: 'verify', plan: 'paid' } } as const;

/** Following releases (docs/watches.md): an account's own watch list. */
export const watchRoutes: FastifyPluginAsyncZod<WatchRoutesOptions> = async (app, { db, clock, enabled, maxPerAccount }) => {
  app.post(
    '/v1/watches',
    {
      schema: { summary: 'Watch a package name: each new release is fetched and judged as soon as it is published (201 new, 200 already watched)', body: WatchCreateRequest, response: { 200: WatchResponse, 201: WatchResponse } },
      config: { ...WATCHES, idempotent: true },
    },
    async (request, reply) => {
      if (!enabled) throw new VigilError('watching_off');
      const { watch, created } = await createWatch(db, principalOf(request).accountId, request.body.package, { now: clock(), limit: maxPerAccount });
      return reply.code(created ? 201 : 200).send({ data: watch });
    },
  );

  app.get(
    '/v1/watches',
    { schema: { summary: "The account's watches, oldest first, with where the watcher stands on each name (paginated)", querystring: WatchListQuery, response: { 200: WatchList } }, config: WATCHES },
    async (request, reply) => {
      const page = readPage(request);
      const rows = await listWatches(db, principalOf(request).accountId, { offset: (page.page - 1) * page.size, limit: page.size + 1 });
      sendPageHeaders(reply, page, rows.length > page.size);
      return { data: rows.slice(0, page.size) };
    },
  );

  app.delete(
    '/v1/watches/:id',
    { schema: { summary: 'Stop watching (204)', params: WatchIdParams }, config: { ...WATCHES, idempotent: true } },
    async (request, reply) => {
      await deleteWatch(db, principalOf(request).accountId, request.params.id);
      return reply.code(204).send();
    },
  );
};
