import type { Context, ParseResult } from '@marcbachmann/cel-js';
import type { PolicyAction, PolicyRule, ValidationIssue } from '@vigil/core';
import { VigilError } from '../../../platform/errors.js';
import { policyEnvironment } from './cel-environment.js';
import { callsOf, estimateCost, MAX_POLICY_COST, MAX_RULE_COST } from './rule-cost.js';
import { licenseListProblem } from './spdx-licenses.js';

/** A policy as stored: one version of an organization's policy, or the built-in one. */
export interface PolicyDefinition {
  id: string;
  name: string;
  version: number;
  builtin: boolean;
  rules: readonly PolicyRule[];
}

export interface CompiledRule {
  name: string;
  action: PolicyAction;
  expression: string;
  /** Evaluates the expression; absent when it no longer compiles (the check then counts as an error). */
  run?: (input: Context) => unknown;
  /** Why it does not compile. */
  problem?: string;
}

export interface CompiledPolicy {
  id: string;
  name: string;
  version: number;
  builtin: boolean;
  rules: readonly CompiledRule[];
}

/** `line 2, column 7` of a 0-based offset into the expression. */
export function positionOf(expression: string, offset: number): string {
  const before = expression.slice(0, Math.max(0, Math.min(offset, expression.length)));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

interface Located {
  range?: { start: number } | undefined;
  summary?: string;
  message: string;
}

/** What is wrong with an expression, and where (a 0-based offset) when it points somewhere. */
interface Problem {
  at?: number;
  message: string;
}

function problemOf(error: Located): Problem {
  const message = error.summary ?? error.message.split('\n')[0] ?? 'invalid expression';
  return error.range === undefined ? { message } : { at: error.range.start, message };
}

/** `line 1, column 5: No such key: nmae`, or the message alone when it points nowhere. */
function describeProblem(expression: string, problem: Problem): string {
  return problem.at === undefined ? problem.message : `${positionOf(expression, problem.at)}: ${problem.message}`;
}

/** The library's one-line description with the position it points at, when it has one. */
export function describeCelError(expression: string, error: Located): string {
  return describeProblem(expression, problemOf(error));
}

type Compiled = { ok: true; parsed: ParseResult; cost: number } | { ok: false; problem: Problem };

/**
 * Parse, type-check against the declared input, then Vigil's own checks: bool result, no regex, no
 * dyn(), literal license lists, and (when saving) cost.
 */
function compileExpression(expression: string, checkCost: boolean): Compiled {
  let parsed: ParseResult;
  try {
    parsed = policyEnvironment().parse(expression);
  } catch (error) {
    return { ok: false, problem: problemOf(error as Located) };
  }
  let checked;
  try {
    checked = parsed.check();
  } catch (error) {
    return { ok: false, problem: problemOf(error as Located) };
  }
  if (!checked.valid) return { ok: false, problem: problemOf(checked.error as Located) };
  if (checked.type !== 'bool') {
    return { ok: false, problem: { at: 0, message: `a rule must be of type bool (true: the check passes), this one is ${checked.type}` } };
  }
  // JavaScript regular expressions can backtrack for minutes on a crafted name: not offered.
  const regex = callsOf(parsed.ast, 'matches')[0];
  if (regex) return { ok: false, problem: { at: regex.range.start, message: 'matches() is not available in policy rules; use startsWith, endsWith, contains or in' } };
  // dyn() switches the checker off for its operand: `dyn(pkg).nmae` would be saved and fail only when run.
  const untyped = callsOf(parsed.ast, 'dyn')[0];
  if (untyped) {
    return { ok: false, problem: { at: untyped.range.start, message: 'dyn() is not available in policy rules: every value of the input has a declared type, and dyn() would hide a misspelt field until the rule runs' } };
  }
  for (const name of ['license_allowed', 'license_denied']) {
    for (const call of callsOf(parsed.ast, name)) {
      const list = call.op === 'call' ? call.args[1][1] : undefined;
      if (list?.op !== 'list' || !list.args.every((item) => item.op === 'value' && typeof item.args === 'string')) continue;
      const problem = licenseListProblem(list.args.map((item) => item.args as string));
      if (problem !== null) return { ok: false, problem: { at: list.range.start, message: problem } };
    }
  }
  const cost = checkCost ? estimateCost(parsed.ast) : 0;
  if (cost > MAX_RULE_COST) {
    return {
      ok: false,
      problem: { at: 0, message: `estimated cost ${cost} exceeds ${MAX_RULE_COST} (comprehensions multiply by the length of the list they run over, and growing values by their size)` },
    };
  }
  return { ok: true, parsed, cost };
}

/**
 * Checks a policy's rules as they are saved: every rule that does not compile is one issue naming
 * the rule and the position (`body.rules.<i>.expression`). 422 `policy rules do not compile`.
 */
export function assertRulesCompile(rules: readonly Pick<PolicyRule, 'name' | 'expression'>[]): void {
  const issues: ValidationIssue[] = [];
  let total = 0;
  rules.forEach((rule, index) => {
    const compiled = compileExpression(rule.expression, true);
    if (compiled.ok) total += compiled.cost;
    else {
      const at = compiled.problem.at === undefined ? '' : ` at ${positionOf(rule.expression, compiled.problem.at)}`;
      issues.push({ path: `body.rules.${index}.expression`, message: `rule ${rule.name}${at}: ${compiled.problem.message}` });
    }
  });
  if (issues.length === 0 && total > MAX_POLICY_COST) {
    issues.push({ path: 'body.rules', message: `the rules' estimated cost ${total} exceeds ${MAX_POLICY_COST} for one policy` });
  }
  if (issues.length > 0) throw new VigilError('policy_rules_invalid', { issues });
}

/**
 * Compiles a stored policy for evaluation. Its rules compiled when it was saved; one that no longer
 * does (a library upgrade, say) is kept with its problem and counts as an error when evaluated. The
 * cost estimate is not applied again: a rule saved under an older estimate keeps running, and the
 * run-time budget (features/policies/evaluation/) bounds it like every rule.
 */
export function compilePolicy(definition: PolicyDefinition): CompiledPolicy {
  return {
    id: definition.id,
    name: definition.name,
    version: definition.version,
    builtin: definition.builtin,
    rules: definition.rules.map((rule): CompiledRule => {
      const base = { name: rule.name, action: rule.action, expression: rule.expression };
      if (rule.action === 'ignore') return base;
      const compiled = compileExpression(rule.expression, false);
      if (!compiled.ok) return { ...base, problem: describeProblem(rule.expression, compiled.problem) };
      const parsed = compiled.parsed;
      return { ...base, run: (input) => parsed(input) };
    }),
  };
}
