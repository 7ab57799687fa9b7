import { isIP } from 'node:net';
import {
  AgentHashParams,
  Sha256Params,
  TaskClaim,
  TaskIdParams,
  TaskClaimRequest,
  TaskProgress,
  TaskProgressRequest,
  ThreatIntel,
  ValidatorRegistration,
  ValidatorRegistrationRequest,
  formatOffsetTimestamp,
  type ValidationIssue,
} from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loadBundle } from '../miners/bundles/index.js';
import { VigilError } from '../../../platform/errors.js';
import {
  claimTasks,
  hasLeasedAgent,
  hasLeasedArtifact,
  reportProgress,
} from '../tasks/leases.js';
import { threatIntel } from './threat-intel.js';
import { registerValidator } from './validators.js';
import '../auth/signed-auth-plugin.js';
import '../../../platform/http/route-config.js';
import type { NetworkRouteOptions } from '../signed-route-options.js';
import { signerOf } from '../auth/signer-of.js';
import { validatorAttestationRoutes } from '../attestations/validator-attestation-routes.js';

/** Tasks a claim leases when the request does not say. */
export const DEFAULT_CLAIM_MAX = 10;

const SIGNED_BY_VALIDATOR = { signedBy: 'validator' } as const;

const validatorRoutes: FastifyPluginAsyncZod<NetworkRouteOptions> = async (app, options) => {
  const { db, blobs, clock, validatorRegistration } = options;

  app.post(
    '/v1/validators/registration',
    {
      schema: {
        summary: 'Register (or re-register) the signing validator and its allowed source addresses',
        body: ValidatorRegistrationRequest,
        response: { 200: ValidatorRegistration, 201: ValidatorRegistration },
      },
      config: { signedBy: 'validator-registration' },
    },
    async (request, reply) => {
      const signer = signerOf(request);
      const body = request.body;
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
        now: clock(),
        mustBeNew: !signer.hadRecord,
        initialStatus: validatorRegistration === 'approval' ? 'pending' : 'active',
      });
      return reply
        .code(signer.hadRecord ? 200 : 201)
        .send({ hotkey: record.hotkey, uid: record.uid, status: record.status, allowed_ips: record.allowedIps });
    },
  );

  app.post(
    '/v1/validators/tasks/claim',
    {
      schema: {
        summary: 'Lease up to `max` tasks of the current round',
        // A body-less claim (Content-Length: 0) asks with the defaults.
        body: TaskClaimRequest.optional(),
        response: { 200: TaskClaim },
      },
      config: SIGNED_BY_VALIDATOR,
    },
    async (request) => {
      const body = request.body ?? {};
      const result = await claimTasks(db, {
        validatorHotkey: signerOf(request).hotkey,
        track: body.track,
        max: body.max ?? DEFAULT_CLAIM_MAX,
        now: clock(),
      });
      return {
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
      };
    },
  );

  app.get(
    '/v1/validators/artifacts/:sha256',
    { schema: { summary: 'The bytes of an artifact of a task leased to the caller (application/octet-stream)', params: Sha256Params }, config: SIGNED_BY_VALIDATOR },
    async (request, reply) => {
      const { sha256 } = request.params;
      // Only what the caller is running right now: the benchmark set cannot be crawled by hash.
      if (!(await hasLeasedArtifact(db, { validatorHotkey: signerOf(request).hotkey, sha256, now: clock() }))) {
        throw new VigilError('not_leased', `sha256: ${sha256} is not an artifact of a task leased to this validator`);
      }
      const bytes = await blobs.get(sha256);
      if (bytes === undefined) throw new VigilError('artifact_not_found', `sha256: the bytes of ${sha256} are not in the blob store`);
      return reply.type('application/octet-stream').send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );

  app.get(
    '/v1/validators/agents/:agent_hash/bundle',
    { schema: { summary: 'The normalized bundle (JSON) of the agent of a task leased to the caller', params: AgentHashParams }, config: SIGNED_BY_VALIDATOR },
    async (request, reply) => {
      const { agent_hash: agentHash } = request.params;
      if (!(await hasLeasedAgent(db, { validatorHotkey: signerOf(request).hotkey, agentHash, now: clock() }))) {
        throw new VigilError('not_leased', `agent_hash: ${agentHash} is not the agent of a task leased to this validator`);
      }
      const stored = await loadBundle(blobs, agentHash);
      if (stored === undefined) throw new VigilError('agent_not_found');
      const bytes = stored.bytes;
      return reply.type('application/json; charset=utf-8').send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );

  app.post(
    '/v1/validators/tasks/:task_id/progress',
    {
      schema: { summary: 'Report progress on a leased task (extends the lease)', params: TaskIdParams, body: TaskProgressRequest, response: { 200: TaskProgress } },
      config: SIGNED_BY_VALIDATOR,
    },
    async (request) => {
      const result = await reportProgress(db, {
        validatorHotkey: signerOf(request).hotkey,
        taskId: request.params.task_id,
        state: request.body.state,
        detail: request.body.detail,
        now: clock(),
      });
      return { task_id: result.taskId, state: result.state, lease_expires_at: formatOffsetTimestamp(result.leaseExpiresAt) };
    },
  );

  app.get(
    '/v1/validators/threat-intel/:sha256',
    { schema: { summary: 'What closed rounds established about an artifact', params: Sha256Params, response: { 200: ThreatIntel } }, config: SIGNED_BY_VALIDATOR },
    async (request) => {
      signerOf(request);
      const known = await threatIntel(db, request.params.sha256);
      return {
        sha256: known.sha256,
        bundle_hashes: known.bundleHashes,
        verdict: known.verdict,
        verdict_updated_at: known.verdictUpdatedAt === null ? null : formatOffsetTimestamp(known.verdictUpdatedAt),
        findings: known.findings,
      };
    },
  );

  await app.register(validatorAttestationRoutes, options);
};

/** The validator-signed endpoints (docs/protocol.md, "Validator endpoints"). */
export const validatorRoutesPlugin = validatorRoutes;
