import {
  AttestationDetail,
  AttestationDetailQuery,
  AttestationEnvelope,
  AttestationHashParams,
  AttestationList,
  AttestationListQuery,
  AttestationVerifyResult,
  DsseEnvelope,
  formatOffsetTimestamp,
  NETUID,
  parseTimestamp,
} from '@vigil/core';
import { verifyAttestation } from '@vigil/crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';
import type { CachedMetagraph } from '../metagraph/index.js';
import { getAttestation, getAttestationDsse, listAttestations, type AttestationKey } from './attestations-read.js';
import { queryFingerprint, readKeysetPage, sendKeysetPageHeaders } from '../../../platform/http/pagination.js';
import '../../../platform/http/route-config.js';
import { notFoundWhenInvalid } from '../../../platform/http/zod-compilers.js';
import { showsFindings } from '../../accounts/index.js';
import { ATTESTATION_BODY_LIMIT } from './validator-attestation-routes.js';
import type { TransparencyLog } from '../../log/index.js';

export interface CustomerAttestationRoutesOptions {
  db: Kysely<Database>;
  /** The snapshot `POST /v1/attestations/verify` checks permits against. */
  metagraph: Pick<CachedMetagraph, 'current'>;
  /** Where `?proof=true` reads the attestation's inclusion proof (docs/log.md). */
  log: Pick<TransparencyLog, 'proofFor'>;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
}

// A malformed hash names no attestation: the same 404 as an unknown one.
notFoundWhenInvalid.add(AttestationHashParams, { code: 'attestation_not_found' });

/** A page token's key of the attestation list: `[recorded_at, id]`. */
function attestationKey(key: unknown): AttestationKey | null {
  if (!Array.isArray(key) || key.length !== 2 || !key.every((v) => Number.isSafeInteger(v))) return null;
  return { recordedAt: key[0] as number, id: key[1] as number };
}

// The envelope as received: the checks run over the payload exactly as sent, unknown fields included.
const receivedBodies = new WeakMap<FastifyRequest, unknown>();
const keepReceivedBody = async (request: FastifyRequest) => {
  receivedBodies.set(request, request.body);
};

/** Attestation reads and verification of the customer API (docs/customer-attestations.md). */
export const customerAttestationRoutes: FastifyPluginAsyncZod<CustomerAttestationRoutesOptions> = async (app, { db, metagraph, log, clock }) => {
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
        querystring: AttestationDetailQuery,
        response: { 200: AttestationDetail },
      },
      config: { apiKey: { scope: 'read' } },
    },
    async (request) => {
      const detail = await getAttestation(db, { canonicalHash: request.params.canonical_hash, showFindings: showsFindings(request) });
      if (request.query.proof !== 'true') return detail;
      // After the read: an attestation is logged in the transaction that stores it.
      const logged = await log.proofFor(`attestation:${request.params.canonical_hash}`, clock());
      return { ...detail, log_proof: logged?.proof ?? null, log_entry: logged?.entry ?? null };
    },
  );

  app.get(
    '/v1/attestations/:canonical_hash/dsse',
    {
      schema: {
        summary: "One attestation as an in-toto Statement in a DSSE envelope signed by its validator's hotkey",
        params: AttestationHashParams,
        response: { 200: DsseEnvelope },
      },
      config: { apiKey: { scope: 'read' } },
    },
    async (request) => getAttestationDsse(db, { canonicalHash: request.params.canonical_hash, showFindings: showsFindings(request) }),
  );

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
};
