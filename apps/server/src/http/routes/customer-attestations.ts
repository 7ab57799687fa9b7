import {
  AttestationDetail,
  AttestationEnvelope,
  AttestationHashParams,
  AttestationList,
  AttestationListQuery,
  AttestationVerifyResult,
  formatOffsetTimestamp,
  NETUID,
  parseTimestamp,
  SearchQuery,
  SearchResults,
} from '@vigil/core';
import { verifyAttestation } from '@vigil/crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import '../../auth/api-key-plugin.js';
import type { Database } from '../../db/schema.js';
import { VigilError } from '../../errors.js';
import type { CachedMetagraph } from '../../metagraph/index.js';
import { getAttestation, listAttestations, type AttestationKey } from '../../services/attestations-read.js';
import { referenceViewOf } from '../../services/reference-claims.js';
import { search, type SearchKey } from '../../services/search.js';
import { queryFingerprint, readKeysetPage, sendKeysetPageHeaders } from '../pagination.js';
import '../route-config.js';
import { notFoundWhenInvalid } from '../zod-compilers.js';
import { principalOf } from './keys.js';
import { ATTESTATION_BODY_LIMIT } from './validator-attestations.js';

export interface CustomerAttestationRoutesOptions {
  db: Kysely<Database>;
  /** The snapshot `POST /v1/attestations/verify` checks permits against; absent, that route is not served. */
  metagraph?: Pick<CachedMetagraph, 'current'> | undefined;
}

// A malformed hash names no attestation: the same 404 as an unknown one.
notFoundWhenInvalid.add(AttestationHashParams, { code: 'attestation_not_found' });

/** A page token's key of the attestation list: `[recorded_at, id]`. */
function attestationKey(key: unknown): AttestationKey | null {
  if (!Array.isArray(key) || key.length !== 2 || !key.every((v) => Number.isSafeInteger(v))) return null;
  return { recordedAt: key[0] as number, id: key[1] as number };
}

/** A page token's key of search: `[score, document id]`. */
function searchKey(key: unknown): SearchKey | null {
  if (!Array.isArray(key) || key.length !== 2 || typeof key[0] !== 'number' || !Number.isFinite(key[0]) || !Number.isSafeInteger(key[1])) return null;
  return { score: key[0], docId: key[1] as number };
}

/** Findings are for paid plans (spec part 5 item 3). */
function showsFindings(request: FastifyRequest): boolean {
  return principalOf(request).plan === 'paid';
}

// The envelope as received: the checks run over the payload exactly as sent, unknown fields included.
const receivedBodies = new WeakMap<FastifyRequest, unknown>();
const keepReceivedBody = async (request: FastifyRequest) => {
  receivedBodies.set(request, request.body);
};

/** Attestation reads, verification and search of the customer API (docs/customer-attestations.md, docs/search.md). */
export const customerAttestationRoutes: FastifyPluginAsyncZod<CustomerAttestationRoutesOptions> = async (app, { db, metagraph }) => {
  app.get(
    '/v1/attestations',
    {
      schema: {
        summary: 'Recorded attestations, newest first, filtered; keyset pages (X-Vigil-Page / X-Vigil-Next-Page)',
        querystring: AttestationListQuery,
        response: { 200: AttestationList },
      },
      config: { apiKey: { scope: 'read' } },
    },
    async (request, reply) => {
      const page = readKeysetPage(request, queryFingerprint('attestations', request.query), attestationKey);
      const result = await listAttestations(db, { filters: request.query, after: page.after, size: page.size, showFindings: showsFindings(request) });
      sendKeysetPageHeaders(reply, page, result.next === null ? null : [result.next.recordedAt, result.next.id]);
      return { attestations: result.attestations };
    },
  );

  app.get(
    '/v1/attestations/:canonical_hash',
    {
      schema: {
        summary: 'One attestation: its record, the envelope as signed, and the metagraph snapshot it was checked against',
        params: AttestationHashParams,
        response: { 200: AttestationDetail },
      },
      config: { apiKey: { scope: 'read' } },
    },
    async (request) => getAttestation(db, { canonicalHash: request.params.canonical_hash, showFindings: showsFindings(request) }),
  );

  if (metagraph !== undefined) {
    app.post(
      '/v1/attestations/verify',
      {
        schema: {
          summary: "Run the three checks of an attestation (hash, signature, permit) against the server's current metagraph snapshot",
          body: AttestationEnvelope,
          response: { 200: AttestationVerifyResult },
        },
        // Attestation verification is a paid-plan operation (docs/accounts.md, "Scopes").
        config: { apiKey: { scope: 'verify', plan: 'paid' } },
        bodyLimit: ATTESTATION_BODY_LIMIT,
        preValidation: keepReceivedBody,
      },
      async (request) => {
        const current = await metagraph.current();
        if ('reason' in current) throw new VigilError('metagraph_unavailable');
        const { snapshot } = current;
        const verification = verifyAttestation(receivedBodies.get(request), snapshot);
        return {
          ok: verification.ok,
          checks: verification.checks,
          reason: verification.reason,
          checked_against: { netuid: NETUID, block: snapshot.block, taken_at: formatOffsetTimestamp(parseTimestamp(snapshot.taken_at).getTime()) },
        };
      },
    );
  }

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
