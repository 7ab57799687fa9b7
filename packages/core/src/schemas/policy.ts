import * as z from 'zod';
import { PolicyInclude, PolicyVerdict, RiskLevel } from '../enums.js';
import { PackageRefString } from '../purl.js';
import { OffsetTimestamp } from '../timestamps.js';

const PolicyName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected a policy name of letters, digits, ".", "_" or "-"');

export const PolicyEvaluationRequest = z.object({
  /** purl or short form; normalized to purl. */
  artifact: PackageRefString,
  policy: PolicyName,
  include: z.array(PolicyInclude).max(10).default([]),
});
export type PolicyEvaluationRequest = z.input<typeof PolicyEvaluationRequest>;
export type PolicyEvaluationRequestParsed = z.output<typeof PolicyEvaluationRequest>;

export const PolicyEvaluation = z.object({
  id: z.string().regex(/^eval_[A-Za-z0-9_-]+$/, 'expected eval_<token>'),
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
});
export type PolicyEvaluation = z.infer<typeof PolicyEvaluation>;
