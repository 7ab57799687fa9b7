import { PackageRequestList, formatOffsetTimestamp } from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { readPage, sendPageHeaders } from '../../platform/http/pagination.js';
import '../../platform/http/route-config.js';
import { ADMIN } from '../accounts/index.js';
import { listOpenPackageRequests } from './lockfile-verification.js';

/** The admin API's open package requests (docs/accounts.md, "Admin API"). */
export const repositoryAdminRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/v1/admin/package-requests',
    {
      schema: { summary: 'Packages verifications asked for that Vigil holds no bytes for, most requested first (pagination headers)', response: { 200: PackageRequestList } },
      config: ADMIN,
    },
    async (request, reply) => {
      const page = readPage(request);
      const rows = await listOpenPackageRequests(db, { offset: (page.page - 1) * page.size, limit: page.size + 1 });
      sendPageHeaders(reply, page, rows.length > page.size);
      return {
        package_requests: rows.slice(0, page.size).map((row) => ({
          purl: row.purl,
          ecosystem: row.ecosystem,
          name: row.name,
          version: row.version,
          requests: row.request_count,
          first_requested_at: formatOffsetTimestamp(row.first_requested_at),
          last_requested_at: formatOffsetTimestamp(row.last_requested_at),
        })),
      };
    },
  );
};
