import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VigilError } from '../errors.js';
import { assertRulesCompile, compilePolicy, positionOf } from './compile-policy.js';
import { DEFAULT_POLICY } from './default-policy.js';
import { MAX_RULE_COST } from './rule-cost.js';

function issuesOf(rules: { name: string; expression: string }[]) {
  try {
    assertRulesCompile(rules);
  } catch (error) {
    expect(error).toBeInstanceOf(VigilError);
    expect((error as VigilError).code).toBe('policy_rules_invalid');
    return (error as VigilError).issues ?? [];
  }
  return [];
}

const rule = (expression: string, name = 'r') => ({ name, expression });

describe('rules checked when a policy is saved', () => {
  it('accepts rules over the declared input', () => {
    expect(
      issuesOf([
        rule('artifact.verdict != "BLOCK" && score < 80'),
        rule('!vulnerabilities.exists(v, v.severity == "critical" && v.aliases.exists(a, a.startsWith("CVE-")))'),
        rule('license_allowed(license.expression, ["MIT", "Apache-2.0", "GPL-2.0+"]) || !license.declared'),
        rule('pkg.dependency == "direct" ? pkg.age_days < 0 || pkg.age_days >= 7 : true'),
      ]),
    ).toEqual([]);
  });

  it.each([
    ['a misspelt field', 'pkg.nmae == "left-pad"', 'rule r at line 1, column 5: No such key: nmae'],
    ['a comparison of an int with a string', 'score > "x"', 'rule r at line 1, column 1: no such overload: int > string'],
    ['a syntax error on the second line', 'artifact.state == "decided" &&\n  (score < ', 'rule r at line 2, column 12: Unexpected token: EOF'],
    ['an undeclared variable', 'package.name == "x"', 'rule r at line 1, column 1: '],
    ['a result that is not a bool', 'score + 1', 'rule r at line 1, column 1: a rule must be of type bool (true: the check passes), this one is int'],
    ['a regular expression', 'pkg.name.matches("^left-")', 'rule r at line 1, column 1: matches() is not available in policy rules'],
    ['a license list with a typo', 'license_allowed(license.expression, ["MIT", "Apache 2.0"])', 'rule r at line 1, column 37: "Apache 2.0" is not an SPDX license identifier'],
    ['a function with the wrong argument types', 'license_denied(license.expression, [1, 2])', "found no matching overload for 'license_denied(string, list<int>)'"],
  ])('refuses %s, naming the rule and the position', (_name, expression, message) => {
    const issues = issuesOf([rule('true', 'fine'), rule(expression)]);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe('body.rules.1.expression');
    expect(issues[0]!.message).toContain(message);
  });

  it('refuses a comprehension whose worst case is too expensive, and names every bad rule at once', () => {
    const nested = 'findings.exists(a, findings.exists(b, a.title == b.title))';
    const issues = issuesOf([rule(nested, 'pairs'), rule('pkg.nmae == ""', 'typo')]);
    expect(issues.map((i) => i.path)).toEqual(['body.rules.0.expression', 'body.rules.1.expression']);
    expect(issues[0]!.message).toMatch(new RegExp(`^rule pairs at line 1, column 1: estimated cost \\d+ exceeds ${MAX_RULE_COST}`));
  });

  it('refuses expressions past the parse limits', () => {
    const [issue] = issuesOf([rule(Array.from({ length: 300 }, () => 'true').join(' && '))]);
    expect(issue!.message).toBe('rule r at line 1, column 1: Exceeded maxAstNodes (500)');
  });

  it('reports positions as line and column', () => {
    expect(positionOf('a &&\n  b', 7)).toBe('line 2, column 3');
    expect(positionOf('abc', 0)).toBe('line 1, column 1');
  });

  it('never fails on an arbitrary rule: it compiles or is one 422 issue naming it', () => {
    const fragments = fc.constantFrom('pkg', '.', 'name', 'score', ' ', '(', ')', '[', ']', '"', "'", '\\', '&&', '||', '!', '==', '<', '+', '/', '0', '1.5', 'true',
      'findings', 'exists', 'v', ',', '?', ':', 'license_allowed', 'size', 'has', '{', '}', '`', 'b"', 'r"', '\n', '9223372036854775808', 'é', '\u0000');
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.array(fragments, { maxLength: 40 }).map((parts) => parts.join(''))), (expression) => {
        const issues = issuesOf([rule(expression || 'x', 'fuzz')]);
        expect(issues.length).toBeLessThanOrEqual(1);
        if (issues.length === 1) expect(issues[0]!.message).toMatch(/^rule fuzz( at line \d+, column \d+)?: ./);
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('the built-in policy', () => {
  it('compiles, every rule of it', () => {
    expect(() => assertRulesCompile(DEFAULT_POLICY.rules)).not.toThrow();
    expect(compilePolicy(DEFAULT_POLICY).rules.every((r) => r.run !== undefined && r.problem === undefined)).toBe(true);
  });
});
