import { FirewallDecisionsRecorded, FirewallDecisionsRequest, FirewallStats, FirewallStatsQuery } from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import '../../platform/http/route-config.js';
import { principalOf } from '../accounts/index.js';
import { decisionStats, recordDecisions, RETENTION_DAYS } from './decision-store.js';

export interface FirewallRoutesOptions {
  db: Kysely<Database>;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
}

/** A firewall's clock may run a little ahead of the server's; a decision further in the future is refused. */
const FUTURE_SLACK_MS = 5 * 60_000;

/**
 * The registry firewall's decisions per account (docs/firewall.md "Decision counts"). A firewall
 * reports with the key that decided (the firewall's key needs `verify` on a paid plan anyway); the
 * counts are read with any key that can read.
 */
export const firewallRoutes: FastifyPluginAsyncZod<FirewallRoutesOptions> = async (app, { db, clock }) => {
  app.post(
    '/v1/firewall/decisions',
    {
      schema: { summary: "Report registry firewall decisions made with this account's key (up to 500 a call; a request_id already reported is counted once)", body: FirewallDecisionsRequest, response: { 200: FirewallDecisionsRecorded } },
      config: { apiKey: { scope: 'verify', plan: 'paid' } },
    },
    async (request) => {
      const at = clock();
      const issues = request.body.decisions.flatMap((d, i) => {
        const time = Date.parse(d.time);
        if (time > at + FUTURE_SLACK_MS) return [{ path: `body.decisions.${i}.time`, message: 'is more than 5 minutes ahead of the server clock' }];
        if (time < at - RETENTION_DAYS * 86_400_000) return [{ path: `body.decisions.${i}.time`, message: `is older than ${RETENTION_DAYS} days (decisions are kept ${RETENTION_DAYS} days)` }];
        return [];
      });
      if (issues.length > 0) throw new VigilError('validation_error', { issues });
      return { data: await recordDecisions(db, principalOf(request).accountId, request.body.decisions, at) };
    },
  );

  app.get(
    '/v1/firewall/stats',
    {
      schema: { summary: "The account's registry firewall decisions: counts per day, decision and reason class, the most refused packages, the newest refusals", querystring: FirewallStatsQuery, response: { 200: FirewallStats } },
      config: { apiKey: { scope: 'read' } },
    },
    async (request) => ({ data: await decisionStats(db, principalOf(request).accountId, request.query.days, clock()) }),
  );
};
