import { SearchQuery, SearchResults } from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { queryFingerprint, readKeysetPage, sendKeysetPageHeaders } from '../../platform/http/pagination.js';
import '../../platform/http/route-config.js';
import { principalOf, showsFindings } from '../accounts/index.js';
import { referenceViewOf } from '../artifacts/index.js';
import { search, type SearchKey } from './search.js';

export interface SearchRoutesOptions {
  db: Kysely<Database>;
}

/** A page token's key of search: `[score, document id]`. */
function searchKey(key: unknown): SearchKey | null {
  if (!Array.isArray(key) || key.length !== 2 || typeof key[0] !== 'number' || !Number.isFinite(key[0]) || !Number.isSafeInteger(key[1])) return null;
  return { score: key[0], docId: key[1] as number };
}

/** Search of the customer API (docs/search.md): artifacts and attestations, as the caller's key may see them. */
export const searchRoutes: FastifyPluginAsyncZod<SearchRoutesOptions> = async (app, { db }) => {
  app.get(
    '/v1/search',
    {
      schema: {
        summary: 'Artifacts and attestations matching every word of q, best first; keyset pages',
        querystring: SearchQuery,
        response: { 200: SearchResults },
      },
      config: { apiKey: { scope: 'read' } },
    },
    async (request, reply) => {
      const page = readKeysetPage(request, queryFingerprint('search', request.query), searchKey);
      const view = referenceViewOf(principalOf(request));
      const result = await search(db, { q: request.query.q, kind: request.query.kind, after: page.after, size: page.size, showFindings: showsFindings(request), view });
      sendKeysetPageHeaders(reply, page, result.next === null ? null : [result.next.score, result.next.docId]);
      return { results: result.results };
    },
  );
};
