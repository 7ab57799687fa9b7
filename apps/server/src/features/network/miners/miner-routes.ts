import {
  AgentSubmissionRequest,
  MinerAgent,
  MinerRegistration,
  MinerRegistrationRequest,
  MinerTrackParams,
  formatOffsetTimestamp,
} from '@vigil/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AgentBundleError, bundleBodyLimit, normalizeAgentBundle, storeAgentBundle } from './bundles/index.js';
import type { MinersTable } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';
import { deleteAgent, submitAgent } from './agents.js';
import { deregisterMiner, findActiveAgent, findRegistration, registerMiner } from './miners.js';
import '../auth/signed-auth-plugin.js';
import '../../../platform/http/route-config.js';
import type { NetworkRouteOptions } from '../signed-route-options.js';

const SIGNED_BY_MINER = { signedBy: 'miner' } as const;

/** The hotkey that signed the request: a miner acts on its own hotkey only, never on one named in the body. */
function signerHotkey(request: FastifyRequest): string {
  // signedAuthPlugin sets the signer before any handler of a `signedBy` route runs.
  if (request.signer === null) throw new Error('miner route reached without a verified signer');
  return request.signer.hotkey;
}

function registrationBody(row: MinersTable): MinerRegistration {
  return MinerRegistration.parse({
    hotkey: row.hotkey,
    track: row.track,
    status: 'registered',
    registered_at: formatOffsetTimestamp(Number(row.registered_at)),
  });
}

function notRegistered(hotkey: string, track: string): VigilError {
  return new VigilError('miner_not_registered', `hotkey: ${hotkey} is not registered on track ${track}`);
}

/**
 * The miner-signed endpoints (docs/protocol.md, "Miner endpoints"): track registration, agent
 * submission as a JSON bundle (src/bundles), agent and registration deletion, and a miner's view of
 * its own agent. Every route acts on the signing hotkey; the only way agent code enters the system.
 */
export const minerRoutesPlugin: FastifyPluginAsyncZod<NetworkRouteOptions> = async (app, { db, blobs, clock, bundleLimitBytes }) => {
  const bodyLimit = bundleBodyLimit(bundleLimitBytes);

  const registered = { 200: MinerRegistration, 201: MinerRegistration };
  const agentAnswer = { 200: MinerAgent, 201: MinerAgent };

  app.post(
    '/v1/miners/registrations',
    { schema: { summary: 'Register the signing hotkey on a track', body: MinerRegistrationRequest, response: registered }, config: SIGNED_BY_MINER },
    async (request, reply) => {
      const hotkey = signerHotkey(request);
      const { track } = request.body;
      const existing = await findRegistration(db, hotkey, track);
      // Idempotent: registering again changes nothing and says so with 200.
      if (existing?.status === 'registered') return reply.code(200).send(registrationBody(existing));
      const row = await registerMiner(db, { hotkey, track, now: clock() });
      return reply.code(201).send(registrationBody(row));
    },
  );

  app.delete(
    '/v1/miners/registrations/:track',
    { schema: { summary: "Deregister the signing hotkey from a track (its agent leaves rounds)", params: MinerTrackParams }, config: SIGNED_BY_MINER },
    async (request, reply) => {
    const hotkey = signerHotkey(request);
    const { track } = request.params;
    if (!(await deregisterMiner(db, { hotkey, track, now: clock() }))) {
      throw new VigilError('registration_not_found', `track: ${hotkey} has no registration on track ${track}`);
    }
    return reply.code(204).send();
    },
  );

  app.post(
    '/v1/miners/agents',
    { schema: { summary: 'Submit an agent bundle (a new version unless it is the current one)', body: AgentSubmissionRequest, response: agentAnswer }, config: SIGNED_BY_MINER, bodyLimit },
    async (request, reply) => {
    const hotkey = signerHotkey(request);
    const input = request.body;
    // Before anything is decoded, hashed or stored: an unregistered key cannot fill the blob store.
    const registration = await findRegistration(db, hotkey, input.track);
    if (registration?.status !== 'registered') throw notRegistered(hotkey, input.track);

    let bundle;
    try {
      bundle = normalizeAgentBundle(input.bundle, bundleLimitBytes);
    } catch (error) {
      if (!(error instanceof AgentBundleError)) throw error;
      throw new VigilError('validation_error', { issues: [{ path: `body.bundle.${error.field}`, message: error.reason }] });
    }

    // Stored first (idempotent, content-addressed): a version never names a bundle that is missing.
    // A repeat of the current version is answered with it (200), never a new version, also when
    // identical submissions race (the service serializes them).
    const { agentHash } = await storeAgentBundle(blobs, bundle);
    const submitted = await submitAgent(db, {
      hotkey,
      track: input.track,
      name: input.name,
      provider: input.provider,
      codeHash: agentHash,
      now: clock(),
    });
    const answer = {
      hotkey: submitted.hotkey,
      track: submitted.track,
      name: submitted.name,
      provider: submitted.provider,
      version: Number(submitted.version),
      agent_hash: submitted.code_hash,
      status: 'active' as const,
      submitted_at: formatOffsetTimestamp(submitted.submitted_at),
    };
    return reply.code(submitted.created ? 201 : 200).send(answer);
    },
  );

  app.get(
    '/v1/miners/agents/:track',
    { schema: { summary: "The signing miner's current agent on a track", params: MinerTrackParams, response: { 200: MinerAgent } }, config: SIGNED_BY_MINER },
    async (request) => {
      const agent = await findActiveAgent(db, signerHotkey(request), request.params.track);
      if (agent === undefined) throw new VigilError('agent_not_found');
      return agent;
    },
  );

  app.delete(
    '/v1/miners/agents/:track',
    { schema: { summary: "Withdraw the signing miner's agent from a track", params: MinerTrackParams }, config: SIGNED_BY_MINER },
    async (request, reply) => {
      await deleteAgent(db, { hotkey: signerHotkey(request), track: request.params.track, now: clock() });
      return reply.code(204).send();
    },
  );
};
