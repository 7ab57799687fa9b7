/**
 * docs/policies.md is what outside teams write rules from: its input tables, functions, limits,
 * built-in policy and examples must say exactly what the server does.
 */
import { readFileSync } from 'node:fs';
import { MAX_POLICY_RULES, MAX_RULE_EXPRESSION_LENGTH } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { EXPRESSION_LIMITS, POLICY_FUNCTIONS, POLICY_INPUT_TYPES, POLICY_INPUT_VARIABLES, policyEnvironment } from '../src/features/policies/cel/cel-environment.js';
import type { VigilError } from '../src/platform/errors.js';
import { assertRulesCompile } from '../src/features/policies/cel/compile-policy.js';
import { DEFAULT_POLICY_RULES, DEFAULT_POLICY_VERSION } from '../src/features/policies/default-policy.js';
import { INPUT_LIST_CAPS, VULNERABILITY_SCORES } from '../src/features/policies/policy-input.js';
import { estimateCost, MAX_POLICY_COST, MAX_RULE_COST } from '../src/features/policies/cel/rule-cost.js';

const DOC = readFileSync(new URL('../../../docs/policies.md', import.meta.url), 'utf8');

/** How each declared type's fields are written in the doc's tables. */
const PREFIXES: Record<keyof typeof POLICY_INPUT_TYPES, string> = {
  Artifact: 'artifact.',
  Package: 'pkg.',
  Finding: 'findings[].',
  Vulnerability: 'vulnerabilities[].',
  License: 'license.',
  Provenance: 'provenance.',
};

/** `| `a` | `b` | …` rows: the first two cells without their backticks. */
function rows(): [string, string][] {
  return [...DOC.matchAll(/^\| `([^`]+)` \| `([^`]+)` \|/gm)].map((m) => [m[1]!, m[2]!]);
}

const fmt = (n: number) => n.toLocaleString('en-US');

describe('docs/policies.md', () => {
  it('lists every input variable and field with its CEL type, and nothing the input does not have', () => {
    const documented = new Map(rows());
    for (const [name, type] of Object.entries(POLICY_INPUT_VARIABLES)) expect(documented.get(name), name).toBe(type);
    const declared = new Set<string>(Object.keys(POLICY_INPUT_VARIABLES));
    for (const [type, fields] of Object.entries(POLICY_INPUT_TYPES)) {
      for (const [field, fieldType] of Object.entries(fields)) {
        const key = PREFIXES[type as keyof typeof POLICY_INPUT_TYPES] + field;
        declared.add(key);
        expect(documented.get(key), key).toBe(fieldType);
      }
    }
    const inputRows = [...documented.keys()].filter((key) => Object.values(PREFIXES).some((p) => key.startsWith(p)));
    for (const key of inputRows) expect(declared, `${key} is documented but not declared`).toContain(key);
  });

  it('shows the functions Vigil adds with their signatures', () => {
    for (const signature of Object.keys(POLICY_FUNCTIONS)) {
      const [, name, args, result] = /^(\w+)\((.*)\): (\w+)$/.exec(signature)!;
      const typed = args!.split(', ');
      expect(DOC).toContain(`\`${name}(${typed[0]} expression, ${typed[1]} ${name === 'license_allowed' ? 'allowed' : 'denied'}) → ${result}\``);
    }
    expect(DOC).toContain('**`matches` is refused when a rule is saved**');
  });

  it('states the limits the server applies', () => {
    const limits = DOC.slice(DOC.indexOf('### Limits'), DOC.indexOf('**Cost**'));
    for (const line of [
      `| rules per policy | ${MAX_POLICY_RULES} |`,
      `| characters per expression | ${fmt(MAX_RULE_EXPRESSION_LENGTH)} |`,
      `| syntax-tree nodes per expression | ${EXPRESSION_LIMITS.maxAstNodes} |`,
      `| nesting depth | ${EXPRESSION_LIMITS.maxDepth} |`,
      `| elements of a list literal, entries of a map literal | ${EXPRESSION_LIMITS.maxListElements} |`,
      `| arguments of one call | ${EXPRESSION_LIMITS.maxCallArguments} |`,
      `| estimated cost of one rule | ${fmt(MAX_RULE_COST)} |`,
      `| estimated cost of a policy (all its rules) | ${fmt(MAX_POLICY_COST)} |`,
      `| input lists: \`findings\` / \`vulnerabilities\` | ${INPUT_LIST_CAPS.findings} / ${INPUT_LIST_CAPS.vulnerabilities} (the most severe kept) |`,
      `| input lists: \`aliases\`, \`fixed_in\`, \`install_scripts\`, \`license.ids\` | ${INPUT_LIST_CAPS.aliases} each |`,
    ]) {
      expect(limits).toContain(line);
    }
    expect(new Set([INPUT_LIST_CAPS.aliases, INPUT_LIST_CAPS.fixed_in, INPUT_LIST_CAPS.install_scripts, INPUT_LIST_CAPS.ids]).size).toBe(1);
    expect(EXPRESSION_LIMITS.maxMapEntries).toBe(EXPRESSION_LIMITS.maxListElements);
    for (const [severity, score] of Object.entries(VULNERABILITY_SCORES)) expect(DOC).toContain(`\`${severity}\` ${score}`);
  });

  it('gives the costs the estimate computes', () => {
    const examples = [...DOC.matchAll(/`(findings\.exists\([^`]+\))`\s+costs ([\d,]+)/g)];
    expect(examples).toHaveLength(2);
    for (const [, expression, cost] of examples) {
      // The estimate reads the types the checker puts on the tree, as compiling a rule does.
      const parsed = policyEnvironment().parse(expression!);
      parsed.check();
      expect(fmt(estimateCost(parsed.ast)), expression).toBe(cost);
    }
  });

  it('shows the built-in policy rule by rule, as it is', () => {
    const section = DOC.slice(DOC.indexOf('## The built-in policy, rule by rule'), DOC.indexOf('## Worked examples'));
    expect(section).toContain(`version ${DEFAULT_POLICY_VERSION}:`);
    const table = [...section.matchAll(/^\| `([^`]+)` \| `(.+)` \| `(\w+)` \|/gm)].map((m) => ({ name: m[1], expression: m[2], action: m[3] }));
    expect(table).toEqual(DEFAULT_POLICY_RULES.map(({ name, expression, action }) => ({ name, expression, action })));
  });

  it('lists the compile errors as the server words them', () => {
    const problemOf = (rules: { name: string; expression: string }[]) => {
      try {
        assertRulesCompile(rules);
      } catch (error) {
        return (error as VigilError).issues![0]!.message;
      }
      throw new Error(`${rules[0]!.expression} compiled`);
    };
    const forms: [expression: string, documented: string][] = [
      ['score + 1', 'a rule must be of type bool (true: the check passes), this one is <type>'],
      ['pkg.name.matches("^left-")', 'matches() is not available in policy rules; use startsWith, endsWith, contains or in'],
      ['dyn(pkg).nmae == ""', 'dyn() is not available in policy rules: every value of the input has a declared type, and dyn() would hide a misspelt field until the rule runs'],
      ['license_denied(license.expression, ["MIT OR ISC"])', '"<entry>" is not an SPDX license identifier'],
      [Array.from({ length: 300 }, () => 'true').join(' && '), 'Exceeded maxAstNodes (500)'],
      [`${'!'.repeat(32)}true`, 'Exceeded maxDepth (32)'],
      [`score in [${Array.from({ length: 101 }, (_, i) => i).join(', ')}]`, 'Exceeded maxListElements (100)'],
      [`{${Array.from({ length: 101 }, (_, i) => `${i}: 1`).join(', ')}}[0] == 1`, 'Exceeded maxMapEntries (100)'],
      ['license_allowed("MIT", ["MIT"], 1, 2, 3, 4, 5, 6, 7)', 'Exceeded maxCallArguments (8)'],
      ['findings.exists(a, findings.exists(b, a.title == b.title))', 'estimated cost <n> exceeds 25000 (comprehensions multiply by the length of the list they run over, and growing values by their size)'],
    ];
    for (const [expression, documented] of forms) {
      expect(DOC, documented).toContain(`| \`${documented}\``);
      const pattern = documented.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[a-z]+>/g, '.+');
      expect(problemOf([{ name: 'r', expression }]), expression).toMatch(new RegExp(`^rule r at line \\d+, column \\d+: ${pattern}$`));
    }
    const heavy = DOC.match(/policy instead, with `path` `body.rules`: (\d+) rules of\n`([^`]+)`/)!;
    const wholePolicy = problemOf(Array.from({ length: Number(heavy[1]) }, (_, i) => ({ name: `h${i}`, expression: heavy[2]! })));
    expect(DOC).toContain(`{ "path": "body.rules", "message": ${JSON.stringify(wholePolicy)} }`);
  });

  it('has examples that compile', () => {
    const rules = [...DOC.matchAll(/\{ "name": "([^"]+)", "expression": "((?:[^"\\]|\\.)+)", "action": "(\w+)"/g)].map((m) => ({
      name: m[1]!,
      expression: JSON.parse(`"${m[2]!}"`) as string,
    }));
    expect(rules.length).toBeGreaterThan(12);
    for (const rule of rules) expect(() => assertRulesCompile([rule]), rule.expression).not.toThrow();
  });
});
