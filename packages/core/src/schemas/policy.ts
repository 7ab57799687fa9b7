import * as z from 'zod';
import { PolicyAction, PolicyInclude, PolicyVerdict, RiskLevel } from '../enums.js';
import { PackageRefText } from '../purl.js';
import { OffsetTimestamp } from '../timestamps.js';
import { REGISTRY_PROVENANCE_STATES } from './package-facts.js';
import { Finding } from './rounds.js';
import { ReferenceFetch } from './artifacts-api.js';

/** Rules one policy may hold (docs/policies.md, "Limits"). */
export const MAX_POLICY_RULES = 50;
/** Characters of one rule's CEL expression. */
export const MAX_RULE_EXPRESSION_LENGTH = 2_000;
/** Characters of a policy's or a rule's description. */
export const MAX_POLICY_DESCRIPTION_LENGTH = 500;

/** The name of the built-in public policy that personal keys get (spec part 5 item 4). */
export const DEFAULT_POLICY_NAME = 'default';
/** The id the built-in public policy is read under. */
export const DEFAULT_POLICY_ID = 'pol_default';

export const PolicyName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected a policy name of letters, digits, ".", "_" or "-"');

/** A check name: what `details.passed`, `failed` and `warnings` list. */
export const PolicyRuleName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected a rule name of letters, digits, ".", "_" or "-"');

/** `pol_<16 hex>` for an organization's policy, `pol_default` for the built-in one. */
export const PolicyId = z.string().regex(/^pol_(?:[0-9a-f]{16}|default)$/, 'expected pol_<16 lowercase hex>');
export type PolicyId = z.infer<typeof PolicyId>;

// NUL cannot be stored in a PostgreSQL text column; no description needs it.
const Description = z
  .string()
  .max(MAX_POLICY_DESCRIPTION_LENGTH)
  .refine((text) => !text.includes('\u0000'), 'expected no NUL characters');

export const PolicyRuleInput = z.strictObject({
  name: PolicyRuleName,
  /** A CEL expression of type bool: true means the check passes. */
  expression: z.string().min(1).max(MAX_RULE_EXPRESSION_LENGTH),
  action: PolicyAction,
  description: Description.nullable().default(null),
});
export type PolicyRuleInput = z.input<typeof PolicyRuleInput>;

const PolicyRules = z
  .array(PolicyRuleInput)
  .min(1)
  .max(MAX_POLICY_RULES)
  .superRefine((rules, ctx) => {
    const seen = new Set<string>();
    rules.forEach((rule, index) => {
      if (seen.has(rule.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `rule name ${rule.name} is used twice` });
      seen.add(rule.name);
    });
  });

export const PolicyCreateRequest = z.strictObject({
  name: PolicyName,
  description: Description.nullable().default(null),
  rules: PolicyRules,
});
export type PolicyCreateRequest = z.input<typeof PolicyCreateRequest>;
export type PolicyCreateRequestParsed = z.output<typeof PolicyCreateRequest>;

/** Every field optional (what is left out stays as it was), at least one given; each update is a new version. */
export const PolicyUpdateRequest = z
  .strictObject({
    name: PolicyName.optional(),
    description: Description.nullable().optional(),
    rules: PolicyRules.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'expected at least one of name, description, rules' });
export type PolicyUpdateRequest = z.input<typeof PolicyUpdateRequest>;
export type PolicyUpdateRequestParsed = z.output<typeof PolicyUpdateRequest>;

export const PolicyRule = z.object({
  name: z.string(),
  expression: z.string(),
  action: PolicyAction,
  description: z.string().nullable(),
});
export type PolicyRule = z.infer<typeof PolicyRule>;

export const Policy = z.object({
  id: PolicyId,
  name: z.string(),
  description: z.string().nullable(),
  /** 1 on creation, one more on every update. */
  version: z.int().min(1),
  /** True for the built-in public policy only. */
  builtin: z.boolean(),
  rules: z.array(PolicyRule),
  created_at: OffsetTimestamp,
  /** When this version was saved. */
  updated_at: OffsetTimestamp,
});
export type Policy = z.infer<typeof Policy>;

export const PolicyList = z.object({ policies: z.array(Policy) });
export type PolicyList = z.infer<typeof PolicyList>;

export const PolicyIdParams = z.object({ policy_id: PolicyId });
export const PolicyVersionParams = z.object({
  policy_id: PolicyId,
  version: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'expected a version number')
    .transform(Number),
});

export const PolicyEvaluationRequest = z.strictObject({
  /** purl or short form, kept as sent: the answer echoes it (spec) and adds the canonical `purl`. */
  artifact: PackageRefText,
  policy: PolicyName,
  include: z.array(PolicyInclude).max(10).default([]),
});
export type PolicyEvaluationRequest = z.input<typeof PolicyEvaluationRequest>;
export type PolicyEvaluationRequestParsed = z.output<typeof PolicyEvaluationRequest>;

export const EVALUATION_ID_RE = /^eval_[A-Za-z0-9_-]+$/;
export const EvaluationIdParams = z.object({ evaluation_id: z.string().regex(EVALUATION_ID_RE, 'expected eval_<token>') });

/** What happened to one rule: `error` counts as failed (docs/policies.md, "Runtime errors"); `skipped` is an `ignore` rule. */
export const POLICY_CHECK_OUTCOMES = ['passed', 'failed', 'error', 'skipped'] as const;

export const PolicyCheck = z.object({
  name: z.string(),
  action: PolicyAction,
  outcome: z.enum(POLICY_CHECK_OUTCOMES),
  /** The evaluation error with its position, for `error`; otherwise null. */
  error: z.string().nullable(),
});
export type PolicyCheck = z.infer<typeof PolicyCheck>;

/** The policy that ran: for a personal key always the built-in default, whatever `policy` named. */
export const AppliedPolicy = z.object({
  id: PolicyId,
  name: z.string(),
  version: z.int().min(1),
  builtin: z.boolean(),
});
export type AppliedPolicy = z.infer<typeof AppliedPolicy>;

export const VULNERABILITY_SEVERITIES = ['low', 'moderate', 'high', 'critical', 'unknown'] as const;

export const EvaluationVulnerability = z.object({
  id: z.string(),
  aliases: z.array(z.string()),
  summary: z.string(),
  severity: z.enum(VULNERABILITY_SEVERITIES),
  fixed_in: z.array(z.string()),
});
export type EvaluationVulnerability = z.infer<typeof EvaluationVulnerability>;

export const EvaluationLicenses = z.object({
  /** The declared license as written, null when the artifact declares none or Vigil could not read it. */
  declared: z.string().nullable(),
  /** Whether `declared` parses as an SPDX expression. */
  valid: z.boolean(),
  /** The expression's licenses (`MIT`, `GPL-2.0+`, `GPL-2.0-only WITH Classpath-exception-2.0`), in order. */
  ids: z.array(z.string()),
});
export type EvaluationLicenses = z.infer<typeof EvaluationLicenses>;

export const EvaluationProvenance = z.object({
  /** A published verdict backed by signed attestations. */
  vigil_attested: z.boolean(),
  attestations: z.array(z.object({ canonical_hash: z.string(), validator_hotkey: z.string() })),
  /** The artifact's registry provenance; `unknown` when Vigil could not read the artifact's facts. */
  registry: z.enum([...REGISTRY_PROVENANCE_STATES, 'unknown']),
});
export type EvaluationProvenance = z.infer<typeof EvaluationProvenance>;

export const PolicyEvaluation = z.object({
  id: z.string().regex(EVALUATION_ID_RE, 'expected eval_<token>'),
  /** The request's `artifact`, exactly as sent (spec: "echoed from the request"). */
  artifact: z.string(),
  policy: z.string(),
  verdict: PolicyVerdict,
  score: z.int().min(0).max(100),
  risk: RiskLevel,
  details: z.object({
    passed: z.array(z.string()),
    failed: z.array(z.string()),
    warnings: z.array(z.string()),
  }),
  evaluated_at: OffsetTimestamp,
  // Vigil's additions (docs/policies.md); the fields above are the spec's, unchanged.
  /** The canonical purl evaluated (`npm:lodash@4.17.21` is `pkg:npm/lodash@4.17.21`). */
  purl: z.string(),
  state: z.enum(['decided', 'pending']),
  applied_policy: AppliedPolicy,
  checks: z.array(PolicyCheck),
  vulnerabilities: z.array(EvaluationVulnerability).optional(),
  licenses: EvaluationLicenses.optional(),
  provenance: EvaluationProvenance.optional(),
  findings: z.array(Finding).optional(),
  /** While pending on a registry fetch Vigil made: where it stands (docs/registries.md); absent otherwise. */
  fetch: ReferenceFetch.optional(),
});
export type PolicyEvaluation = z.infer<typeof PolicyEvaluation>;
