import { Environment } from '@marcbachmann/cel-js';
import { licenseAllowed, licenseDenied } from './spdx-licenses.js';

/**
 * The typed input every rule reads (docs/policies.md, "The input", lists each field with the same
 * type; a test keeps the two equal). Declaring the types lets the checker refuse `pkg.nmae` or
 * `score > "x"` when a policy is saved instead of failing when it runs.
 */
export const POLICY_INPUT_TYPES = {
  Artifact: { purl: 'string', state: 'string', known: 'bool', queued: 'bool', verdict: 'string', risk_score: 'int' },
  Package: {
    purl: 'string',
    ecosystem: 'string',
    name: 'string',
    version: 'string',
    dependency: 'string',
    environment: 'string',
    inspected: 'bool',
    install_scripts: 'list<string>',
    age_days: 'int',
  },
  Finding: { type: 'string', category: 'string', severity: 'string', title: 'string', file: 'string' },
  Vulnerability: { id: 'string', aliases: 'list<string>', summary: 'string', severity: 'string', fixed_in: 'list<string>' },
  License: { declared: 'bool', expression: 'string', valid: 'bool', ids: 'list<string>' },
  Provenance: { vigil_attested: 'bool', attestations: 'int', registry: 'string' },
} as const;

/** `package` is a reserved word of CEL, so the package is `pkg`. */
export const POLICY_INPUT_VARIABLES = {
  artifact: 'Artifact',
  pkg: 'Package',
  findings: 'list<Finding>',
  vulnerabilities: 'list<Vulnerability>',
  license: 'License',
  provenance: 'Provenance',
  score: 'int',
  risk: 'string',
} as const;

/** The functions Vigil adds to CEL's standard ones, with their signatures as docs/policies.md shows them. */
export const POLICY_FUNCTIONS = {
  'license_allowed(string, list<string>): bool': licenseAllowed,
  'license_denied(string, list<string>): bool': licenseDenied,
} as const;

/**
 * Parse-time bounds of one expression: syntax-tree nodes, nesting, literal sizes. With the input's
 * list caps (policy-input.ts) and the cost estimate (rule-cost.ts) they bound what a rule can cost.
 */
export const EXPRESSION_LIMITS = {
  maxAstNodes: 500,
  maxDepth: 32,
  maxListElements: 100,
  maxMapEntries: 100,
  maxCallArguments: 8,
} as const;

function createEnvironment(): Environment {
  const env = new Environment({ limits: { ...EXPRESSION_LIMITS } });
  for (const [name, fields] of Object.entries(POLICY_INPUT_TYPES)) env.registerType(name, { fields: { ...fields } });
  for (const [name, type] of Object.entries(POLICY_INPUT_VARIABLES)) env.registerVariable(name, type);
  for (const [signature, handler] of Object.entries(POLICY_FUNCTIONS)) {
    env.registerFunction(signature, (expression: string, list: readonly string[]) => handler(expression, list));
  }
  return env;
}

let shared: Environment | undefined;

/** One environment per process: building one is the expensive part, and it is immutable once built. */
export function policyEnvironment(): Environment {
  shared ??= createEnvironment();
  return shared;
}
