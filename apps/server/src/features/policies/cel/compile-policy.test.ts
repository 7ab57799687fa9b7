import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VigilError } from '../../../platform/errors.js';
import { assertRulesCompile, compilePolicy, positionOf } from './compile-policy.js';
import { DEFAULT_POLICY } from '../default-policy.js';
import { estimateCost, MAX_RULE_COST } from './rule-cost.js';
import { policyEnvironment } from './cel-environment.js';
import { doublingRule, HOSTILE_RULES } from '../test-support/hostile-rules.js';

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
    ['dyn() around a misspelt field', 'dyn(pkg).nmae == "left-pad"', 'rule r at line 1, column 1: dyn() is not available in policy rules'],
    ['dyn() anywhere', 'score == 1 || [dyn(pkg)][0].x == 1', 'rule r at line 1, column 16: dyn() is not available in policy rules'],
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

  it('holds chains of unary operators to the nesting depth, like parentheses', () => {
    // The expression is level 1: 31 operators or parentheses in a row are the most.
    expect(issuesOf([rule(`${'!'.repeat(31)}true`), rule(`${'-'.repeat(31)}1 > 0`), rule(`${'('.repeat(31)}true${')'.repeat(31)}`)])).toEqual([]);
    expect(issuesOf([rule(`${'!'.repeat(40)}(score > 0)`, 'nots'), rule(`${'-'.repeat(32)}1 > 0`, 'minus'), rule(`${'('.repeat(32)}true${')'.repeat(32)}`, 'parens'), rule(`!${'('.repeat(31)} true${')'.repeat(31)}`, 'mixed')])).toEqual([
      { path: 'body.rules.0.expression', message: 'rule nots at line 1, column 32: Exceeded maxDepth (32)' },
      { path: 'body.rules.1.expression', message: 'rule minus at line 1, column 32: Exceeded maxDepth (32)' },
      { path: 'body.rules.2.expression', message: 'rule parens at line 1, column 32: Exceeded maxDepth (32)' },
      // Within other nesting, the parenthesis that goes past is still the one named.
      { path: 'body.rules.3.expression', message: 'rule mixed at line 1, column 32: Exceeded maxDepth (32)' },
    ]);
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

describe('the cost estimate against rules that grow what they build', () => {
  it.each(HOSTILE_RULES.map((expression) => [expression.length, expression]))("refuses the attacker's rule of %i characters for its cost", (_length, expression) => {
    const issues = issuesOf([rule(expression)]);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toMatch(/^rule r at line 1, column 1: estimated cost (\d+|Infinity) exceeds 25000 \(comprehensions multiply by the length of the list they run over, and growing values by their size\)$/);
  });

  it('grows with every doubling: each costs at least as much as the list it builds', () => {
    const costs = [1, 2, 3, 4, 5, 6].map((times) => {
      const parsed = policyEnvironment().parse(doublingRule(times, 'pkg.name.split("")'));
      expect(parsed.check().valid).toBe(true);
      return estimateCost(parsed.ast);
    });
    for (let i = 1; i < costs.length; i++) expect(costs[i]! / costs[i - 1]!).toBeGreaterThan(1.8);
    // Four doublings of a 1,024-character name stay under the limit; five do not.
    expect(costs[3]).toBeLessThanOrEqual(MAX_RULE_COST);
    expect(costs[4]).toBeGreaterThan(MAX_RULE_COST);
  });

  it('still accepts everyday rules over strings and nested input lists', () => {
    expect(
      issuesOf([
        rule('!findings.exists(f, f.title.contains("token") || size(f.title) > 500)'),
        rule('vulnerabilities.all(v, v.fixed_in.exists(f, f == pkg.version))'),
        rule('pkg.name + "@" + pkg.version != "event-stream@3.3.6"'),
        rule('pkg.install_scripts.filter(s, s.endsWith("install")) == pkg.install_scripts'),
        rule('cel.bind(names, findings.map(f, f.category), !("malware" in names))'),
      ]),
    ).toEqual([]);
  });
});
