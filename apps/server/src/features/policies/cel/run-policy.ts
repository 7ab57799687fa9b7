import type { PolicyCheck, PolicyVerdict } from '@vigil/core';
import type { CompiledPolicy } from './compile-policy.js';
import { describeCelError } from './compile-policy.js';
import type { CelInput } from '../policy-input.js';

export interface PolicyOutcome {
  verdict: PolicyVerdict;
  /** Checks that passed (every action but `ignore`). */
  passed: string[];
  /** `block` checks that failed or could not be evaluated. */
  failed: string[];
  /** `warn` checks that failed or could not be evaluated. */
  warnings: string[];
  /** Every rule in policy order, `ignore` ones as `skipped`. */
  checks: PolicyCheck[];
}

function describeRuntimeError(expression: string, error: unknown): string {
  return error instanceof Error ? describeCelError(expression, error as Error & { range?: { start: number }; summary?: string }) : String(error);
}

export interface RunPolicyOptions {
  /** Rules not to run, by index, each with the error its check reports (one that overran its budget earlier in the same evaluation). */
  skip?: ReadonlyMap<number, string>;
  /** Called just before rule `index` runs (the evaluation thread's watchdog reads it). */
  beforeRule?: (index: number) => void;
}

/**
 * Runs every rule on one package's input. A rule that throws (division by zero, a missing key, a
 * bad license list) or does not answer a bool counts as failed with its action, and the check says
 * why: an evaluation never fails because of a rule.
 */
export function runPolicy(policy: CompiledPolicy, input: CelInput, options: RunPolicyOptions = {}): PolicyOutcome {
  const outcome: PolicyOutcome = { verdict: 'allow', passed: [], failed: [], warnings: [], checks: [] };
  policy.rules.forEach((rule, index) => {
    if (rule.action === 'ignore') {
      outcome.checks.push({ name: rule.name, action: rule.action, outcome: 'skipped', error: null });
      return;
    }
    let passed = false;
    let error: string | null = null;
    const overran = options.skip?.get(index);
    if (overran !== undefined) {
      error = overran;
    } else if (rule.run === undefined) {
      error = `the rule no longer compiles: ${rule.problem ?? 'unknown reason'}`;
    } else {
      options.beforeRule?.(index);
      try {
        const value = rule.run(input);
        if (typeof value === 'boolean') passed = value;
        else error = `the rule answered ${typeof value}, not a bool`;
      } catch (thrown) {
        error = describeRuntimeError(rule.expression, thrown);
      }
    }
    outcome.checks.push({ name: rule.name, action: rule.action, outcome: passed ? 'passed' : error === null ? 'failed' : 'error', error });
    if (passed) outcome.passed.push(rule.name);
    else if (rule.action === 'block') outcome.failed.push(rule.name);
    else if (rule.action === 'warn') outcome.warnings.push(rule.name);
  });
  outcome.verdict = outcome.failed.length > 0 ? 'block' : outcome.warnings.length > 0 ? 'warn' : 'allow';
  return outcome;
}
