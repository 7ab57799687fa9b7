import { isIP } from 'node:net';
import {
  AttestationEnvelope,
  AttestationReceipt,
  BatchAttestationReceipt,
  BatchAttestationSubmission,
  MAX_ATTESTATIONS_PER_BATCH,
  Sha256Hash,
  TaskClaim,
  TaskClaimRequest,
  TaskProgress,
  TaskProgressRequest,
  ThreatIntel,
  ValidatorRegistration,
  ValidatorRegistrationRequest,
  formatOffsetTimestamp,
  type BatchAttestationResult,
  type ValidationIssue,
} from '@vigil/core';
import { verifyAttestation, type AttestationVerification } from '@vigil/crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { loadBundle } from '../../bundles/index.js';
import { VigilError } from '../../errors.js';
import {
  claimTasks,
  hasLeasedAgent,
  hasLeasedArtifact,
  recordLeasedAttestation,
  recordLeasedAttestations,
  reportProgress,
} from '../../services/leases.js';
import { threatIntel } from '../../services/threat-intel.js';
import { registerValidator } from '../../services/validators.js';
import { createVerifyPool, verifyEnvelopes } from '../../verify/index.js';
import '../../auth/signed-auth-plugin.js';
import '../route-config.js';
import { parseInput } from '../validate.js';
import type { NetworkRouteOptions } from './network-route-options.js';

/** Tasks a claim leases when the request does not say. */
export const DEFAULT_CLAIM_MAX = 10;

const SIGNED_BY_VALIDATOR = { signedBy: 'validator' } as const;
const Sha256Params = z.object({ sha256: Sha256Hash });
const AgentHashParams = z.object({ agent_hash: Sha256Hash });
const TaskParams = z.object({ task_id: z.string().min(1).max(128) });

/** The validator that signed the request: it acts on its own hotkey only, never one named in the body. */
function signerOf(request: FastifyRequest): { hotkey: string; uid: number; hadRecord: boolean } {
  // signedAuthPlugin sets a validator signer (with its metagraph uid) before any handler of these routes runs.
  if (request.signer === null || request.signer.role !== 'validator' || request.signer.uid === null) {
    throw new Error('validator route reached without a verified validator signer');
  }
  return { hotkey: request.signer.hotkey, uid: request.signer.uid, hadRecord: request.signer.hadRecord };
}

/**
 * Per envelope allowance of a batch submission's body: an envelope with the most findings a task
 * may carry stays well under it, a typical one is a few KiB.
 */
const BATCH_BYTES_PER_ENVELOPE = 32 * 1024;
/** The batch route's body limit: MAX_ATTESTATIONS_PER_BATCH envelopes (16 MiB). */
/** One envelope: its findings (50 are shown per task) and their texts fit well within this. */
export const ATTESTATION_BODY_LIMIT = 256 * 1024;

export const ATTESTATION_BATCH_BODY_LIMIT = MAX_ATTESTATIONS_PER_BATCH * BATCH_BYTES_PER_ENVELOPE;

/** The refusals an envelope can get before it reaches the store, shared by the single and the batch endpoint. */
function wrongSigner(): VigilError {
  return new VigilError('wrong_signer', 'envelope.payload.validator_hotkey: is not the hotkey that signed the request');
}

function notLeased(taskId: string): VigilError {
  return new VigilError('not_leased', `envelope.payload.task_id: task ${taskId} is not leased to this validator`);
}

/** Names the field of the envelope the first failed offline check is about, with the reason. */
function failedCheck(verification: AttestationVerification): VigilError {
  const { checks } = verification;
  const field = !checks.hash ? 'envelope.canonical_hash' : !checks.signature ? 'envelope.signature' : 'envelope.payload.validator_hotkey';
  return new VigilError('attestation_invalid', `${field}: ${verification.reason ?? 'invalid'}`);
}

const validatorRoutes: FastifyPluginAsync<NetworkRouteOptions> = async (app, { db, blobs, now, metagraph, validatorRegistration }) => {
  const nowMs = () => now().getTime();
  // Large batches verify off the event loop; the threads start on the first such batch.
  const verifyPool = createVerifyPool();
  app.addHook('onClose', async () => verifyPool.close());

  app.post('/v1/validators/registration', { config: { signedBy: 'validator-registration' } }, async (request, reply) => {
    const signer = signerOf(request);
    const body = parseInput(ValidatorRegistrationRequest, request.body, 'body');
    const issues: ValidationIssue[] = body.allowed_ips.flatMap((ip, i) =>
      isIP(ip) === 0 ? [{ path: `body.allowed_ips.${i}`, message: 'expected an IPv4 or IPv6 address' }] : [],
    );
    if (issues.length > 0) throw new VigilError('validation_error', { issues });
    // Admitted without a record, the caller was checked against no allowlist: it may create the
    // record, never overwrite one a concurrent first registration wrote meanwhile (409 conflict
    // then). What counts is what the signed-auth check saw: a second lookup here would find the
    // concurrent winner's record and let this request overwrite its allowlist unchecked.
    const record = await registerValidator(db, {
      hotkey: signer.hotkey,
      uid: signer.uid,
      allowedIps: body.allowed_ips,
      now: nowMs(),
      mustBeNew: !signer.hadRecord,
      initialStatus: validatorRegistration === 'approval' ? 'pending' : 'active',
    });
    return reply.code(signer.hadRecord ? 200 : 201).send(
      ValidatorRegistration.parse({ hotkey: record.hotkey, uid: record.uid, status: record.status, allowed_ips: record.allowedIps }),
    );
  });

  app.post('/v1/validators/tasks/claim', { config: SIGNED_BY_VALIDATOR }, async (request) => {
    const signer = signerOf(request);
    // A body-less claim (Content-Length: 0) asks with the defaults.
    const body = parseInput(TaskClaimRequest, request.body ?? {}, 'body');
    const result = await claimTasks(db, {
      validatorHotkey: signer.hotkey,
      track: body.track,
      max: body.max ?? DEFAULT_CLAIM_MAX,
      now: nowMs(),
    });
    return TaskClaim.parse({
      round:
        result.round === null
          ? null
          : {
              round_id: result.round.round_id,
              track: result.round.track,
              round_number: result.round.round_number,
              policy_version: result.round.policy_version,
              closes_at: formatOffsetTimestamp(result.round.closes_at),
            },
      tasks: result.tasks.map((t) => ({
        task_id: t.taskId,
        lease_expires_at: formatOffsetTimestamp(t.leaseExpiresAt),
        miner_hotkey: t.minerHotkey,
        agent_hash: t.agentHash,
        artifact: { bundle_hash: t.bundleHash, sha256: t.sha256 },
      })),
    });
  });

  app.get('/v1/validators/artifacts/:sha256', { config: SIGNED_BY_VALIDATOR }, async (request, reply) => {
    const signer = signerOf(request);
    const { sha256 } = parseInput(Sha256Params, request.params, 'params');
    // Only what the caller is running right now: the benchmark set cannot be crawled by hash.
    if (!(await hasLeasedArtifact(db, { validatorHotkey: signer.hotkey, sha256, now: nowMs() }))) {
      throw new VigilError('not_leased', `sha256: ${sha256} is not an artifact of a task leased to this validator`);
    }
    const bytes = await blobs.get(sha256);
    if (bytes === undefined) throw new VigilError('artifact_not_found', `sha256: the bytes of ${sha256} are not in the blob store`);
    return reply.type('application/octet-stream').send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });

  app.get('/v1/validators/agents/:agent_hash/bundle', { config: SIGNED_BY_VALIDATOR }, async (request, reply) => {
    const signer = signerOf(request);
    const { agent_hash: agentHash } = parseInput(AgentHashParams, request.params, 'params');
    if (!(await hasLeasedAgent(db, { validatorHotkey: signer.hotkey, agentHash, now: nowMs() }))) {
      throw new VigilError('not_leased', `agent_hash: ${agentHash} is not the agent of a task leased to this validator`);
    }
    const stored = await loadBundle(blobs, agentHash);
    if (stored === undefined) throw new VigilError('agent_not_found');
    const bytes = stored.bytes;
    return reply
      .type('application/json; charset=utf-8')
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });

  app.post('/v1/validators/tasks/:task_id/progress', { config: SIGNED_BY_VALIDATOR }, async (request) => {
    const signer = signerOf(request);
    const { task_id: taskId } = parseInput(TaskParams, request.params, 'params');
    const body = parseInput(TaskProgressRequest, request.body, 'body');
    const result = await reportProgress(db, {
      validatorHotkey: signer.hotkey,
      taskId,
      state: body.state,
      detail: body.detail,
      now: nowMs(),
    });
    return TaskProgress.parse({ task_id: result.taskId, state: result.state, lease_expires_at: formatOffsetTimestamp(result.leaseExpiresAt) });
  });

  app.post('/v1/validators/attestations', { config: SIGNED_BY_VALIDATOR, bodyLimit: ATTESTATION_BODY_LIMIT }, async (request, reply) => {
    const signer = signerOf(request);
    const envelope = parseInput(AttestationEnvelope, request.body, 'body');
    if (envelope.payload.validator_hotkey !== signer.hotkey) throw wrongSigner();
    const current = await metagraph.current();
    if ('reason' in current) throw new VigilError('metagraph_unavailable');
    // The checks run on the body as received (request.body, not the schema's copy): the hash and the
    // signature cover exactly the payload the validator signed, unknown fields included.
    const verification = verifyAttestation(request.body, current.snapshot);
    if (!verification.ok) throw failedCheck(verification);
    const submitted = await recordLeasedAttestation(db, envelope, { validatorHotkey: signer.hotkey, now: nowMs() });
    if (submitted.status === 'not_leased') throw notLeased(envelope.payload.task_id);
    return reply
      .code(submitted.created ? 201 : 200)
      .send(AttestationReceipt.parse({ canonical_hash: envelope.canonical_hash, task_id: envelope.payload.task_id, created: submitted.created }));
  });

  app.post(
    '/v1/validators/attestations/batch',
    { config: SIGNED_BY_VALIDATOR, bodyLimit: ATTESTATION_BATCH_BODY_LIMIT },
    async (request) => {
      const signer = signerOf(request);
      const { attestations } = parseInput(BatchAttestationSubmission, request.body, 'body');
      // As in the single endpoint, hash and signature are checked on the envelopes as received.
      const received = (request.body as { attestations: unknown[] }).attestations;
      const results: BatchAttestationResult[] = attestations.map((envelope) => ({
        canonical_hash: envelope.canonical_hash,
        task_id: envelope.payload.task_id,
        outcome: 'refused',
      }));
      // A refused envelope carries the status and detail the single endpoint would have answered.
      const refuseItem = (index: number, error: VigilError) => Object.assign(results[index]!, { status: error.status, detail: error.detail });

      // Each envelope goes through the single endpoint's checks in its order; the first it fails answers for it.
      let pending: number[] = [];
      for (const [index, envelope] of attestations.entries()) {
        if (envelope.payload.validator_hotkey === signer.hotkey) pending.push(index);
        else refuseItem(index, wrongSigner());
      }
      if (pending.length > 0) {
        const current = await metagraph.current();
        if ('reason' in current) throw new VigilError('metagraph_unavailable');
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
          pending.map((index) => attestations[index]!),
          { validatorHotkey: signer.hotkey, now: nowMs() },
        );
        for (const [i, index] of pending.entries()) {
          const result = recorded[i]!;
          if (result.status === 'not_leased') refuseItem(index, notLeased(attestations[index]!.payload.task_id));
          else if (result.outcome === 'refused') refuseItem(index, new VigilError(result.error!.code, result.error!.message));
          else results[index]!.outcome = result.outcome;
        }
      }
      return BatchAttestationReceipt.parse({ results });
    },
  );

  app.get('/v1/validators/threat-intel/:sha256', { config: SIGNED_BY_VALIDATOR }, async (request) => {
    signerOf(request);
    const { sha256 } = parseInput(Sha256Params, request.params, 'params');
    const known = await threatIntel(db, sha256);
    return ThreatIntel.parse({
      sha256: known.sha256,
      bundle_hashes: known.bundleHashes,
      verdict: known.verdict,
      verdict_updated_at: known.verdictUpdatedAt === null ? null : formatOffsetTimestamp(known.verdictUpdatedAt),
      findings: known.findings,
    });
  });
};

/** The validator-signed endpoints (docs/protocol.md, "Validator endpoints"). */
export const validatorRoutesPlugin = validatorRoutes;
