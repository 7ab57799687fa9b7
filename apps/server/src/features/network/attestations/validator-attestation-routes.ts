import {
  AttestationReceipt,
  AttestationSubmission,
  BatchAttestationReceipt,
  BatchAttestationSubmission,
  MAX_ATTESTATIONS_PER_BATCH,
  type BatchAttestationResult,
} from '@vigil/core';
import { verifyAttestation } from '@vigil/crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { VigilError } from '../../../platform/errors.js';
import { checkedSnapshot, type CheckedSnapshot } from './attestations.js';
import { recordLeasedAttestation, recordLeasedAttestations } from '../tasks/leases.js';
import { checkSubmission, createVerifyPool, verifyEnvelopes, type SubmissionVerification } from './signature-pool/index.js';
import '../auth/signed-auth-plugin.js';
import '../../../platform/http/route-config.js';
import type { NetworkRouteOptions } from '../signed-route-options.js';
import { signerOf } from '../auth/signer-of.js';

/**
 * Per envelope allowance of a batch submission's body: an envelope with the most findings a task
 * may carry stays well under it, a typical one is a few KiB.
 */
const BATCH_BYTES_PER_ENVELOPE = 32 * 1024;
/** One envelope: its findings (50 are shown per task) and their texts fit well within this. */
export const ATTESTATION_BODY_LIMIT = 256 * 1024;

/** The batch route's body limit: MAX_ATTESTATIONS_PER_BATCH envelopes (16 MiB). */
export const ATTESTATION_BATCH_BODY_LIMIT = MAX_ATTESTATIONS_PER_BATCH * BATCH_BYTES_PER_ENVELOPE;

/** The refusals an envelope can get before it reaches the store, shared by the single and the batch endpoint. */
function wrongSigner(): VigilError {
  return new VigilError('wrong_signer', 'envelope.payload.validator_hotkey: is not the hotkey that signed the request');
}

function notLeased(taskId: string): VigilError {
  return new VigilError('not_leased', `envelope.payload.task_id: task ${taskId} is not leased to this validator`);
}

/** Names the field of the envelope the first failed check is about, with the reason. */
function failedCheck(verification: SubmissionVerification): VigilError {
  const { checks } = verification;
  const field = !checks.hash
    ? 'envelope.canonical_hash'
    : !checks.signature
      ? 'envelope.signature'
      : !checks.permit
        ? 'envelope.payload.validator_hotkey'
        : 'envelope.dsse_signature';
  return new VigilError('attestation_invalid', `${field}: ${verification.reason ?? 'invalid'}`);
}

/**
 * The hash and the signature cover exactly the payload the validator signed, unknown fields
 * included, while the route schema hands the handler a copy without them: keep the body as received.
 */
const receivedBodies = new WeakMap<FastifyRequest, unknown>();
const keepReceivedBody = async (request: FastifyRequest) => {
  receivedBodies.set(request, request.body);
};

/** Attestation submission, one envelope or a batch (docs/protocol.md, "Submit attestations"). */
export const validatorAttestationRoutes: FastifyPluginAsyncZod<NetworkRouteOptions> = async (app, { db, clock, metagraph }) => {
  // Large batches verify off the event loop; the threads start on the first such batch.
  const verifyPool = createVerifyPool();
  app.addHook('onClose', async () => verifyPool.close());

  app.post(
    '/v1/validators/attestations',
    {
      schema: {
        summary: 'Submit one signed attestation for a leased task, optionally with the DSSE signature of its in-toto statement',
        body: AttestationSubmission,
        response: { 200: AttestationReceipt, 201: AttestationReceipt },
      },
      config: { signedBy: 'validator' },
      bodyLimit: ATTESTATION_BODY_LIMIT,
      preValidation: keepReceivedBody,
    },
    async (request, reply) => {
      const signer = signerOf(request);
      const envelope = request.body;
      if (envelope.payload.validator_hotkey !== signer.hotkey) throw wrongSigner();
      const current = await metagraph.current();
      if ('reason' in current) throw new VigilError('metagraph_unavailable');
      const verification = checkSubmission((e) => verifyAttestation(e, current.snapshot), receivedBodies.get(request));
      if (!verification.ok) throw failedCheck(verification);
      // The envelope as received (what was verified), and the snapshot it was verified against.
      const submitted = await recordLeasedAttestation(db, receivedBodies.get(request) as AttestationSubmission, {
        validatorHotkey: signer.hotkey,
        now: clock(),
        checkedAgainst: checkedSnapshot(current.snapshot),
      });
      if (submitted.status === 'not_leased') throw notLeased(envelope.payload.task_id);
      return reply
        .code(submitted.created ? 201 : 200)
        .send({ canonical_hash: envelope.canonical_hash, task_id: envelope.payload.task_id, created: submitted.created });
    },
  );

  app.post(
    '/v1/validators/attestations/batch',
    {
      schema: {
        summary: `Submit up to ${MAX_ATTESTATIONS_PER_BATCH} signed attestations; each gets its own outcome`,
        body: BatchAttestationSubmission,
        response: { 200: BatchAttestationReceipt },
      },
      config: { signedBy: 'validator' },
      bodyLimit: ATTESTATION_BATCH_BODY_LIMIT,
      preValidation: keepReceivedBody,
    },
    async (request) => {
      const signer = signerOf(request);
      const { attestations } = request.body;
      const received = (receivedBodies.get(request) as { attestations: unknown[] }).attestations;
      const results: BatchAttestationResult[] = attestations.map((envelope) => ({
        canonical_hash: envelope.canonical_hash,
        task_id: envelope.payload.task_id,
        outcome: 'refused',
      }));
      // A refused envelope carries the status, code and detail the single endpoint would have answered.
      const refuseItem = (index: number, error: VigilError) =>
        Object.assign(results[index]!, { status: error.status, code: error.code, detail: error.detail });

      // Each envelope goes through the single endpoint's checks in its order; the first it fails answers for it.
      let pending: number[] = [];
      let checkedAgainst: CheckedSnapshot | null = null;
      for (const [index, envelope] of attestations.entries()) {
        if (envelope.payload.validator_hotkey === signer.hotkey) pending.push(index);
        else refuseItem(index, wrongSigner());
      }
      if (pending.length > 0) {
        const current = await metagraph.current();
        if ('reason' in current) throw new VigilError('metagraph_unavailable');
        checkedAgainst = checkedSnapshot(current.snapshot);
        const verifications = await verifyEnvelopes(verifyPool, pending.map((index) => received[index]), current.snapshot);
        pending = pending.filter((index, i) => {
          const verification = verifications[i]!;
          if (!verification.ok) refuseItem(index, failedCheck(verification));
          return verification.ok;
        });
      }
      if (pending.length > 0) {
        // Lease check, attestations and lease completion: one transaction in the service.
        const recorded = await recordLeasedAttestations(
          db,
          // As received, like the single endpoint.
          pending.map((index) => received[index] as AttestationSubmission),
          { validatorHotkey: signer.hotkey, now: clock(), checkedAgainst },
        );
        for (const [i, index] of pending.entries()) {
          const result = recorded[i]!;
          if (result.status === 'not_leased') refuseItem(index, notLeased(attestations[index]!.payload.task_id));
          else if (result.outcome === 'refused') refuseItem(index, new VigilError(result.error!.code, result.error!.message));
          else results[index]!.outcome = result.outcome;
        }
      }
      return { results };
    },
  );
};
