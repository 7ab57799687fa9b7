import {
  EvaluationIdParams,
  Policy,
  PolicyCreateRequest,
  PolicyEvaluation,
  PolicyEvaluationRequest,
  PolicyIdParams,
  PolicyList,
  PolicyUpdateRequest,
  PolicyVersionParams,
} from '@vigil/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { PolicyInputSources } from './input-sources.js';
import { createPolicy, deletePolicy, getPolicy, listPolicies, updatePolicy } from './stored-policies.js';
import { evaluateArtifact, findEvaluation } from './evaluate-packages.js';
import { readPage, sendPageHeaders } from '../../platform/http/pagination.js';
import '../../platform/http/route-config.js';
import { notFoundWhenInvalid } from '../../platform/http/zod-compilers.js';
import { actorOf, principalOf } from '../accounts/index.js';
import type { ReferenceFetches } from '../artifacts/index.js';

export interface PolicyRoutesOptions {
  db: Kysely<Database>;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
  /** Advisories and artifact facts for evaluation (features/policies/input-sources.ts). */
  sources: PolicyInputSources;
  /** On-demand registry fetching of unseen references (features/registries); absent, none. */
  fetches?: ReferenceFetches;
}

// An id that cannot name a policy or an evaluation is the same 404 as an unknown one.
notFoundWhenInvalid.add(PolicyIdParams, { code: 'policy_not_found' });
notFoundWhenInvalid.add(PolicyVersionParams, { code: 'policy_not_found' });
notFoundWhenInvalid.add(EvaluationIdParams, { code: 'evaluation_not_found' });

const POLICIES = { scope: 'policies' } as const;

/**
 * Policies (docs/policies.md): an organization's named CEL rules, versioned on every update, and
 * their evaluation against a package reference (paid plans), stored and readable by id.
 */
export const policyRoutes: FastifyPluginAsyncZod<PolicyRoutesOptions> = async (app, { db, clock, sources, fetches }) => {
  const writer = (request: FastifyRequest) => ({ principal: principalOf(request), actor: actorOf(request), now: clock() });

  app.post(
    '/v1/policies',
    {
      schema: { summary: "Create a policy of the caller's organization (version 1)", body: PolicyCreateRequest, response: { 201: Policy } },
      config: { apiKey: POLICIES, idempotent: true },
    },
    async (request, reply) => reply.code(201).send(await createPolicy(db, request.body, writer(request))),
  );

  app.get(
    '/v1/policies',
    { schema: { summary: "The organization's policies by name (pagination headers)", response: { 200: PolicyList } }, config: { apiKey: POLICIES } },
    async (request, reply) => {
      const page = readPage(request);
      const rows = await listPolicies(db, principalOf(request).accountId, { offset: (page.page - 1) * page.size, limit: page.size + 1 });
      sendPageHeaders(reply, page, rows.length > page.size);
      return { policies: rows.slice(0, page.size) };
    },
  );

  app.post(
    '/v1/policies/evaluate',
    {
      schema: { summary: 'Evaluate a package reference against a policy (spec part 4)', body: PolicyEvaluationRequest, response: { 200: PolicyEvaluation } },
      config: { apiKey: { scope: 'policies', plan: 'paid' }, idempotent: true },
    },
    async (request) => evaluateArtifact({ db, sources, ...(fetches ? { fetches } : {}) }, request.body, { principal: principalOf(request), now: clock() }),
  );

  app.get(
    '/v1/policies/evaluations/:evaluation_id',
    { schema: { summary: 'A stored evaluation, for the account that made it', params: EvaluationIdParams, response: { 200: PolicyEvaluation } }, config: { apiKey: POLICIES } },
    async (request) => findEvaluation(db, principalOf(request).accountId, request.params.evaluation_id),
  );

  app.get(
    '/v1/policies/:policy_id',
    { schema: { summary: 'A policy, current version (pol_default: the built-in one)', params: PolicyIdParams, response: { 200: Policy } }, config: { apiKey: POLICIES } },
    async (request) => getPolicy(db, principalOf(request).accountId, request.params.policy_id),
  );

  app.get(
    '/v1/policies/:policy_id/versions/:version',
    { schema: { summary: 'A policy as it was at one version', params: PolicyVersionParams, response: { 200: Policy } }, config: { apiKey: POLICIES } },
    async (request) => getPolicy(db, principalOf(request).accountId, request.params.policy_id, request.params.version),
  );

  app.post(
    '/v1/policies/:policy_id',
    {
      schema: { summary: 'Update a policy: the next version', params: PolicyIdParams, body: PolicyUpdateRequest, response: { 200: Policy } },
      config: { apiKey: POLICIES, idempotent: true },
    },
    async (request) => updatePolicy(db, request.params.policy_id, request.body, writer(request)),
  );

  app.delete(
    '/v1/policies/:policy_id',
    { schema: { summary: 'Delete a policy (answers it as it was)', params: PolicyIdParams, response: { 200: Policy } }, config: { apiKey: POLICIES, idempotent: true } },
    async (request) => deletePolicy(db, request.params.policy_id, writer(request)),
  );
};
