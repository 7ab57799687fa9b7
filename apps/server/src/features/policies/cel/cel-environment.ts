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

export type PolicyInputTypeName = keyof typeof POLICY_INPUT_TYPES;

/** The JavaScript value of each CEL field type the input declares (CEL ints are bigints). */
type JsValueOf<T> = T extends 'string' ? string : T extends 'bool' ? boolean : T extends 'int' ? bigint : T extends 'list<string>' ? string[] : never;

/** The fields of one declared type, as the input builder fills them. */
export type PolicyInputFields<N extends PolicyInputTypeName> = { -readonly [K in keyof (typeof POLICY_INPUT_TYPES)[N]]: JsValueOf<(typeof POLICY_INPUT_TYPES)[N][K]> };

type InputClass = new (fields: object) => object;

/**
 * One class per declared type. The library knows a value's CEL type by its constructor: it turns a
 * plain object given as a variable into the variable's declared type, but never an element of a
 * list, so `findings[0]` on plain objects fails at run time ("List item with index '0' is not of
 * type 'Finding'") although it type-checked. Building every object of the input as an instance of
 * its type's class makes indexing and macros see the same typed values.
 */
const INPUT_CLASSES = Object.fromEntries(
  Object.keys(POLICY_INPUT_TYPES).map((name) => [
    name,
    {
      [name]: class {
        constructor(fields: object) {
          Object.assign(this, fields);
        }
      },
    }[name]!,
  ]),
) as Record<PolicyInputTypeName, InputClass>;

/** A value of a declared input type (`Finding`, `Vulnerability`, …) that rules can index, iterate and read. */
export function policyInputObject<N extends PolicyInputTypeName>(type: N, fields: PolicyInputFields<N>): object {
  return new INPUT_CLASSES[type](fields);
}

/**
 * The input again as rules must see it, after it crossed to an evaluation thread: a structured
 * clone keeps the fields of each object but not its class, so each object of a declared type
 * (`Finding`, `list<Finding>`, …) is made an instance of its type's class once more.
 */
export function reviveCelInput(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const revived: Record<string, unknown> = { ...input };
  for (const [name, type] of Object.entries(POLICY_INPUT_VARIABLES)) {
    const value = input[name];
    const list = /^list<(\w+)>$/.exec(type);
    const declared = (list ? list[1] : type) as string;
    if (!(declared in INPUT_CLASSES) || value === undefined || value === null) continue;
    const revive = (fields: unknown): unknown => {
      const Class = INPUT_CLASSES[declared as PolicyInputTypeName];
      return fields instanceof Class ? fields : new Class(fields as object);
    };
    revived[name] = list ? (value as unknown[]).map(revive) : revive(value);
  }
  return revived;
}

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
  for (const [name, fields] of Object.entries(POLICY_INPUT_TYPES)) {
    env.registerType(name, { ctor: INPUT_CLASSES[name as PolicyInputTypeName], fields: { ...fields } });
  }
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
