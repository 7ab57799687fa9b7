import { ReadyStatus } from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { sharedReadinessCheck } from './check-readiness.js';
import type { Database } from '../db/schema.js';
import { VigilError } from '../errors.js';
import '../http/route-config.js';

export interface ReadinessRouteOptions {
  db: Kysely<Database>;
  /** The bound on the check's database reads (VIGIL_METRICS_QUERY_TIMEOUT_MS). */
  timeoutMs: number;
}

/**
 * `GET /v1/ready` (docs/api.md, docs/operations.md): 200 when this instance can take traffic, 503
 * `not_ready` with the reason otherwise. Exempt from the global budget like `/v1/health`, since
 * load balancers probe from one address; requests that arrive together share one check, so a
 * flood costs the database one pair of reads at a time.
 */
export const readinessRoute: FastifyPluginAsyncZod<ReadinessRouteOptions> = async (app, { db, timeoutMs }) => {
  const check = sharedReadinessCheck(db, timeoutMs);
  app.get(
    '/v1/ready',
    { schema: { summary: 'Readiness: the database answers and its migrations are applied', response: { 200: ReadyStatus } }, config: { rateLimit: false } },
    async () => {
      const readiness = await check();
      if (!readiness.ready) throw new VigilError('not_ready', `not ready: ${readiness.reason}`);
      return { status: 'ready' as const };
    },
  );
};
