import { SBOM_OUTPUT_MEDIA_TYPES, SBOM_VERDICT_HEADER, SbomDocument, SbomVerification, SbomVerifyQuery } from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { depthBoundedJsonParser } from '../../platform/http/json-body.js';
import '../../platform/http/route-config.js';
import { principalOf } from '../accounts/index.js';
import type { ReferenceFetches } from '../artifacts/index.js';
import type { PolicyInputSources } from '../policies/index.js';
import { DEFAULT_SBOM_PATH, toSarif } from './sbom-sarif.js';
import { verifySbom } from './verify-sbom.js';

export interface SbomRoutesOptions {
  db: Kysely<Database>;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
  /** What policy evaluation reads beyond verdicts. */
  policySources: PolicyInputSources;
  /** On-demand registry fetching of unseen references (features/registries); absent, none. */
  fetches?: ReferenceFetches;
}

/** The SBOM media types, read like `application/json` (the same depth bound, the same 400 for bad JSON). */
export const SBOM_REQUEST_MEDIA_TYPES = ['application/vnd.cyclonedx+json', 'application/spdx+json'] as const;

/**
 * `POST /v1/sboms/verify` (docs/sbom.md): the body is the SBOM document itself, so a generator's
 * output is posted as it is (`curl --data-binary @bom.json`); the answer's form is `?format=`, and
 * every form carries the verdict in `X-Vigil-Verdict` so a caller gates on it without reading the body.
 */
export const sbomRoutes: FastifyPluginAsyncZod<SbomRoutesOptions> = async (app, { db, clock, policySources, fetches }) => {
  for (const type of SBOM_REQUEST_MEDIA_TYPES) app.addContentTypeParser(type, { parseAs: 'string' }, depthBoundedJsonParser(app));

  app.post(
    '/v1/sboms/verify',
    {
      schema: {
        summary: 'Verify every npm and PyPI component of a CycloneDX 1.5/1.6 or SPDX 2.3 JSON SBOM under a policy; answers JSON, CycloneDX 1.6 VEX or SARIF 2.1.0 (?format=)',
        querystring: SbomVerifyQuery,
        body: SbomDocument,
        // format=json; the other formats are the documents docs/sbom.md describes.
        response: { 200: SbomVerification },
      },
      // The same rules as POST /v1/repositories/verify: it answers, and records which packages were asked for.
      config: { apiKey: { scope: 'repositories', plan: 'paid' } },
    },
    async (request, reply) => {
      const { format, policy, sbom_path: sbomPath } = request.query;
      const verification = await verifySbom({ db, sources: policySources, ...(fetches ? { fetches } : {}) }, principalOf(request), request.body, {
        policy: policy ?? null,
        now: clock(),
      });
      reply.header(SBOM_VERDICT_HEADER, verification.verdict);
      if (format === 'json') return verification;
      const text =
        format === 'cyclonedx'
          ? // Loaded with the first VEX asked for: the CycloneDX library and its XML and schema
            // dependencies are some 250 modules, a third of what the whole server loads otherwise.
            (await import('./sbom-cyclonedx.js')).toCycloneDxVex(verification)
          : JSON.stringify(toSarif(verification, sbomPath ?? DEFAULT_SBOM_PATH));
      // fastify sends a string payload as it is: the response schema (format=json's) serializes
      // objects only, so the typed send is told the serialized document is what goes out.
      return reply.type(SBOM_OUTPUT_MEDIA_TYPES[format]).send(text as unknown as SbomVerification);
    },
  );
};
