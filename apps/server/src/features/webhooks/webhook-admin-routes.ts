import { OutboxBacklog, WEBHOOK_EVENT_KINDS, formatOffsetTimestamp } from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import '../../platform/http/route-config.js';
import { outboxBacklog } from '../../platform/outbox.js';
import { ADMIN } from '../accounts/index.js';
import { deliveryBacklog } from './webhook-deliveries.js';

/** The admin API's outbox and delivery backlog (docs/accounts.md, "Admin API"; docs/webhooks.md). */
export const webhookAdminRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/v1/admin/outbox',
    { schema: { summary: 'Webhook events not yet fanned out, and the delivery backlog', response: { 200: OutboxBacklog } }, config: ADMIN },
    async () => {
      const [backlog, deliveries] = await Promise.all([outboxBacklog(db), deliveryBacklog(db)]);
      const byKind = Object.fromEntries(WEBHOOK_EVENT_KINDS.map((kind) => [kind, backlog.undeliveredByKind[kind] ?? 0])) as OutboxBacklog['undelivered_by_kind'];
      return {
        total: backlog.total,
        undelivered: Object.values(byKind).reduce((sum, n) => sum + n, 0),
        undelivered_by_kind: byKind,
        oldest_undelivered_at: backlog.oldestUndeliveredAt === null ? null : formatOffsetTimestamp(backlog.oldestUndeliveredAt),
        deliveries: {
          ...deliveries.byState,
          oldest_pending_at: deliveries.oldestPendingAt === null ? null : formatOffsetTimestamp(deliveries.oldestPendingAt),
        },
      };
    },
  );
};
