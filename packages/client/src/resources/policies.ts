import { Policy, PolicyEvaluation, PolicyList } from '@vigil/core';
import type { PolicyCreateRequest, PolicyEvaluationRequest, PolicyUpdateRequest } from '@vigil/core';
import type { Dated } from '../dates.js';
import type { PagePromise } from '../pagination.js';
import type { CallOptions, PageOptions, Transport } from '../transport.js';
import { call, paginate, segment } from './shared.js';

/** `GET /v1/policies/{policy_id}/versions/{version}`. */
export class PolicyVersions {
  constructor(private readonly transport: Transport) {}

  /** A policy as it was at one version (1, 2, …). */
  get(policyId: string, version: number, options?: CallOptions): Promise<Dated<typeof Policy>> {
    if (!Number.isSafeInteger(version) || version < 1) throw new TypeError('version: expected a positive integer');
    return call(this.transport, { method: 'GET', path: `/v1/policies/${segment(policyId, 'policyId')}/versions/${version}`, schema: Policy, repeatable: 'safe' }, options);
  }
}

/** `GET /v1/policies/evaluations/{evaluation_id}`. */
export class PolicyEvaluations {
  constructor(private readonly transport: Transport) {}

  get(evaluationId: string, options?: CallOptions): Promise<Dated<typeof PolicyEvaluation>> {
    return call(this.transport, { method: 'GET', path: `/v1/policies/evaluations/${segment(evaluationId, 'evaluationId')}`, schema: PolicyEvaluation, repeatable: 'safe' }, options);
  }
}

/** `/v1/policies*` (docs/policies.md; scope `policies`). */
export class Policies {
  readonly versions: PolicyVersions;
  readonly evaluations: PolicyEvaluations;

  constructor(private readonly transport: Transport) {
    this.versions = new PolicyVersions(transport);
    this.evaluations = new PolicyEvaluations(transport);
  }

  /** A new policy (version 1) of the caller's organization. */
  create(params: PolicyCreateRequest, options?: CallOptions): Promise<Dated<typeof Policy>> {
    return call(this.transport, { method: 'POST', path: '/v1/policies', body: { json: params }, schema: Policy, repeatable: 'keyed' }, options);
  }

  /** The organization's policies by name (paginated). */
  list(options?: PageOptions): PagePromise<Dated<typeof Policy>> {
    return paginate(this.transport, { path: '/v1/policies', schema: PolicyList }, (body) => body.policies, options);
  }

  /** A policy's current version (`pol_default`: the built-in one). */
  get(policyId: string, options?: CallOptions): Promise<Dated<typeof Policy>> {
    return call(this.transport, { method: 'GET', path: `/v1/policies/${segment(policyId, 'policyId')}`, schema: Policy, repeatable: 'safe' }, options);
  }

  /** The next version: what is left out stays as it was. */
  update(policyId: string, params: PolicyUpdateRequest, options?: CallOptions): Promise<Dated<typeof Policy>> {
    return call(this.transport, { method: 'POST', path: `/v1/policies/${segment(policyId, 'policyId')}`, body: { json: params }, schema: Policy, repeatable: 'keyed' }, options);
  }

  /** Deletes a policy; answers it as it was. */
  delete(policyId: string, options?: CallOptions): Promise<Dated<typeof Policy>> {
    return call(this.transport, { method: 'DELETE', path: `/v1/policies/${segment(policyId, 'policyId')}`, schema: Policy, repeatable: 'keyed' }, options);
  }

  /** Evaluates a package reference against a policy (paid plan); stored, readable by `evaluations.get`. */
  evaluate(params: PolicyEvaluationRequest, options?: CallOptions): Promise<Dated<typeof PolicyEvaluation>> {
    return call(this.transport, { method: 'POST', path: '/v1/policies/evaluate', body: { json: params }, schema: PolicyEvaluation, repeatable: 'keyed' }, options);
  }
}
