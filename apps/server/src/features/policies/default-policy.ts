import { DEFAULT_POLICY_ID, DEFAULT_POLICY_NAME, type Policy, type PolicyRule } from '@vigil/core';
import type { PolicyDefinition } from './cel/compile-policy.js';

/**
 * The built-in public policy (spec part 5 item 4): what every personal key gets, and what an
 * organization gets when it names `default`. docs/policies.md explains it rule by rule; a change
 * here is a new `DEFAULT_POLICY_VERSION`, so stored evaluations keep naming what they ran.
 */
export const DEFAULT_POLICY_VERSION = 1;

/** When version 1 was published (its `created_at` and `updated_at`). */
const PUBLISHED_AT = '2026-11-01T00:00:00.000+00:00';

export const DEFAULT_POLICY_RULES: readonly PolicyRule[] = [
  {
    name: 'vigil-block',
    expression: 'artifact.verdict != "BLOCK"',
    action: 'block',
    description: "Vigil's published verdict is BLOCK.",
  },
  {
    name: 'vigil-warn',
    expression: 'artifact.verdict != "WARN"',
    action: 'warn',
    description: "Vigil's published verdict is WARN.",
  },
  {
    name: 'evaluated',
    expression: 'artifact.state == "decided"',
    action: 'warn',
    description: 'Vigil has no verdict yet (never seen, or waiting for a round): a warning, never a silent allow.',
  },
  {
    name: 'no-critical-vulnerabilities',
    expression: '!vulnerabilities.exists(v, v.severity == "critical")',
    action: 'block',
    description: 'A known vulnerability rated critical affects this version.',
  },
  {
    name: 'no-high-vulnerabilities',
    expression: '!vulnerabilities.exists(v, v.severity == "high")',
    action: 'warn',
    description: 'A known vulnerability rated high affects this version.',
  },
  {
    name: 'no-install-scripts',
    expression: 'size(pkg.install_scripts) == 0',
    action: 'monitor',
    description: 'The package runs scripts when installed (recorded, not enforced).',
  },
  {
    name: 'spdx-license',
    expression: 'license.valid',
    action: 'monitor',
    description: 'The package declares no license Vigil can read as SPDX (recorded, not enforced).',
  },
];

export const DEFAULT_POLICY: PolicyDefinition = {
  id: DEFAULT_POLICY_ID,
  name: DEFAULT_POLICY_NAME,
  version: DEFAULT_POLICY_VERSION,
  builtin: true,
  rules: DEFAULT_POLICY_RULES,
};

/** The built-in policy as `GET /v1/policies/pol_default` shows it. */
export function defaultPolicyBody(): Policy {
  return {
    id: DEFAULT_POLICY_ID,
    name: DEFAULT_POLICY_NAME,
    description: 'The public default policy: what personal keys evaluate, and what any key gets by naming "default".',
    version: DEFAULT_POLICY_VERSION,
    builtin: true,
    rules: DEFAULT_POLICY_RULES.map((rule) => ({ ...rule })),
    created_at: PUBLISHED_AT,
    updated_at: PUBLISHED_AT,
  };
}
