import { randomBytes } from 'node:crypto';
import {
  formatOffsetTimestamp,
  parsePackageRef,
  type PolicyCheck,
  type PolicyEvaluation,
  type PolicyEvaluationRequestParsed,
  type PolicyVerdict,
  type RiskLevel,
  type VerifyResult,
} from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { sharedPolicyRunner, type PolicyRunner, type PolicyToRun } from './evaluation/index.js';
import type { PackageCoordinates, PolicyInputSources } from './input-sources.js';
import { buildPackageInput, type PackageInput, type PolicyPackage } from './policy-input.js';
import type { KeyPrincipal } from '../accounts/index.js';
import { artifactRowId, verifyReferencesWithFindings } from '../artifacts/index.js';
import { policyForEvaluation } from './stored-policies.js';
import { referenceViewOf, type ReferenceFetches, type ReferenceView } from '../artifacts/index.js';

export type { PolicyPackage } from './policy-input.js';

export interface PolicyEvaluationDeps {
  db: Kysely<Database>;
  sources: PolicyInputSources;
  /** Where rules run: the process's evaluation threads unless a caller (a test) brings its own. */
  runner?: PolicyRunner;
  /** On-demand registry fetching of unseen references (features/registries); absent, none. */
  fetches?: ReferenceFetches;
}

/** One package's result: the same verdict rules as a single evaluation (docs/policies.md). */
export interface PackageEvaluation {
  purl: string;
  /** `pending` while Vigil has no published verdict for it. */
  state: 'decided' | 'pending';
  verdict: PolicyVerdict;
  score: number;
  risk: RiskLevel;
  passed: string[];
  failed: string[];
  warnings: string[];
  checks: PolicyCheck[];
  /** What the rules read, for the answer's `include` sections. */
  input: PackageInput;
  /** Vigil's own answer for the package (published verdict, or pending and whether its bytes are queued). */
  verification: VerifyResult;
}

export interface PolicyBatchEvaluation {
  /** `block` when any package is blocked, else `warn` when any warns, else `allow`. */
  verdict: PolicyVerdict;
  /** One per package, in the order given. */
  packages: PackageEvaluation[];
}

const VERDICT_RANK: Record<PolicyVerdict, number> = { allow: 0, warn: 1, block: 2 };

function hasAdvisories(coordinates: PolicyPackage['coordinates']): coordinates is PackageCoordinates {
  return (coordinates.ecosystem === 'npm' || coordinates.ecosystem === 'pypi') && coordinates.version !== '';
}

/**
 * Evaluates a compiled policy over many packages (a lockfile's ~2,000 dependencies) with one
 * verification query set, one advisory lookup and one facts lookup for all of them: no query per
 * package. Single-artifact evaluation is this with one package. The verdicts come from the package
 * references that count for `options.view` (the evaluating account's own and trusted ones).
 */
export async function evaluatePackages(
  deps: PolicyEvaluationDeps,
  policy: PolicyToRun,
  packages: readonly PolicyPackage[],
  options: { now: number; view: ReferenceView },
): Promise<PolicyBatchEvaluation> {
  const verified = await verifyReferencesWithFindings(deps.db, packages.map((p) => p.reference ?? p.coordinates.purl), options.view, deps.fetches);
  const advisable = new Map<string, PackageCoordinates>();
  for (const { coordinates } of packages) if (hasAdvisories(coordinates)) advisable.set(coordinates.purl, coordinates);
  const artifactIds = [...new Set(verified.flatMap(({ result }) => (result.artifact_id === null ? [] : [artifactRowId(result.artifact_id)])))];
  const [vulnerabilities, facts] = await Promise.all([
    advisable.size > 0 ? deps.sources.vulnerabilities([...advisable.values()]) : new Map(),
    artifactIds.length > 0 ? deps.sources.facts(artifactIds) : new Map(),
  ]);
  const inputs = packages.map((pkg, index) => {
    const { result, findings } = verified[index]!;
    return buildPackageInput(
      pkg,
      {
        verification: result,
        findings,
        vulnerabilities: vulnerabilities.get(pkg.coordinates.purl) ?? [],
        facts: result.artifact_id === null ? undefined : facts.get(artifactRowId(result.artifact_id)),
      },
      options.now,
    );
  });
  // Rules run off the event loop, each within a time and memory budget (features/policies/evaluation/).
  const outcomes = await (deps.runner ?? sharedPolicyRunner()).run(
    policy,
    inputs.map((input) => input.cel),
  );
  let overall: PolicyVerdict = 'allow';
  const evaluated = packages.map((pkg, index): PackageEvaluation => {
    const input = inputs[index]!;
    const outcome = outcomes[index]!;
    if (VERDICT_RANK[outcome.verdict] > VERDICT_RANK[overall]) overall = outcome.verdict;
    return { purl: pkg.reference ?? pkg.coordinates.purl, state: input.state, score: input.score, risk: input.risk, ...outcome, input, verification: verified[index]!.result };
  });
  return { verdict: overall, packages: evaluated };
}

/** The package a reference (purl or short form) names, as a direct dependency of unknown kind (what a single evaluation knows). */
export function packageOfReference(reference: string): PolicyPackage {
  const ref = parsePackageRef(reference);
  return {
    reference: ref.purl,
    coordinates: {
      ecosystem: ref.type,
      name: ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name,
      version: ref.version ?? '',
      // Qualifiers (`?checksum=…`) name one upload's bytes, not the package advisories are about.
      purl: ref.purl.split(/[?#]/)[0]!,
    },
    direct: true,
    dev: null,
  };
}

function newEvaluationId(): string {
  return `eval_${randomBytes(16).toString('base64url')}`;
}

/**
 * `POST /v1/policies/evaluate`: runs the policy the key applies (policies.ts, policyForEvaluation)
 * on the reference, stores the answer and returns it.
 */
export async function evaluateArtifact(
  deps: PolicyEvaluationDeps,
  request: PolicyEvaluationRequestParsed,
  context: { principal: KeyPrincipal; now: number },
): Promise<PolicyEvaluation> {
  const policy = await policyForEvaluation(deps.db, context.principal, request.policy);
  const { packages } = await evaluatePackages(deps, policy, [packageOfReference(request.artifact)], { now: context.now, view: referenceViewOf(context.principal) });
  const result = packages[0]!;
  // `artifact` echoes the request as sent (spec); `purl` is what was evaluated.
  const include = new Set(request.include);
  const sections = result.input.sections;
  const body: PolicyEvaluation = {
    id: newEvaluationId(),
    artifact: request.artifact,
    policy: request.policy,
    verdict: result.verdict,
    score: result.score,
    risk: result.risk,
    details: { passed: result.passed, failed: result.failed, warnings: result.warnings },
    evaluated_at: formatOffsetTimestamp(context.now),
    purl: result.purl,
    state: result.state,
    applied_policy: { id: policy.id, name: policy.name, version: policy.version, builtin: policy.builtin },
    checks: result.checks,
    ...(include.has('vulnerabilities') ? { vulnerabilities: sections.vulnerabilities } : {}),
    ...(include.has('licenses') ? { licenses: sections.licenses } : {}),
    ...(include.has('provenance') ? { provenance: sections.provenance } : {}),
    ...(include.has('findings') ? { findings: sections.findings } : {}),
    ...(result.state === 'pending' && result.verification.fetch !== undefined ? { fetch: result.verification.fetch } : {}),
  };
  await deps.db
    .insertInto('policy_evaluations')
    .values({
      evaluation_id: body.id,
      account_id: context.principal.accountId,
      key_id: context.principal.keyId,
      artifact: body.purl,
      policy_id: policy.id,
      policy_version: policy.version,
      verdict: body.verdict,
      body: JSON.stringify(body),
      evaluated_at: context.now,
    })
    .execute();
  return body;
}

/** `GET /v1/policies/evaluations/{id}`: the stored answer, for the account that asked only. */
export async function findEvaluation(db: Kysely<Database>, accountId: string, evaluationId: string): Promise<PolicyEvaluation> {
  const row = await db
    .selectFrom('policy_evaluations')
    .select('body')
    .where('evaluation_id', '=', evaluationId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (row === undefined) throw new VigilError('evaluation_not_found');
  const stored = JSON.parse(row.body) as Omit<PolicyEvaluation, 'purl'> & { purl?: string };
  // Answers stored before `purl` existed carried the canonical purl in `artifact`.
  return { ...stored, purl: stored.purl ?? stored.artifact };
}
