import { AdminAdvisoryStatus, formatOffsetTimestamp } from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import '../../platform/http/route-config.js';
import { ADMIN } from '../accounts/index.js';
import { advisoryStatus } from './advisories/advisory-status.js';

/** The admin API's view of the advisory import (docs/accounts.md, "Admin API"; docs/advisories.md). */
export const policyAdminRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/v1/admin/advisories',
    { schema: { summary: 'What the OSV advisory import has stored, and the last import', response: { 200: AdminAdvisoryStatus } }, config: ADMIN },
    async () => {
      const status = await advisoryStatus(db);
      const last = status.last_import;
      return {
        ...status,
        last_import:
          last === null ? null : { ...last, started_at: formatOffsetTimestamp(last.started_at), finished_at: formatOffsetTimestamp(last.finished_at) },
      };
    },
  );
};
