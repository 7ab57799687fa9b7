import type { PolicyRule } from '@vigil/core';
import { afterEach, describe, expect, it } from 'vitest';
import { compilePolicy } from '../cel/compile-policy.js';
import { buildPackageInput, type CelInput, type PolicyPackage } from '../policy-input.js';
import { runPolicy } from '../cel/run-policy.js';
import { doublingRule } from '../test-support/hostile-rules.js';
import { createPolicyRunner, type PolicyRunner } from './index.js';

// These run the compiled evaluation thread (dist/): `pnpm test` builds before it tests.

const NOW = Date.UTC(2026, 10, 21);

function input(name: string, verdict: 'ALLOW' | 'WARN' | 'BLOCK', titles: string[] = []): CelInput {
  const pkg: PolicyPackage = { coordinates: { ecosystem: 'npm', name, version: '1.0.0', purl: `pkg:npm/${name}@1.0.0` }, direct: true, dev: false };
  return buildPackageInput(
    pkg,
    {
      verification: {
        artifact: pkg.coordinates.purl,
        state: 'decided',
        queued: false,
        artifact_id: 'art_1',
        sha256: `sha256:${'ab'.repeat(32)}`,
        verdict,
        risk_score: verdict === 'BLOCK' ? 90 : 0,
        round_id: null,
        decided_at: null,
        findings_summary: null,
        attestations: [],
      },
      findings: titles.map((title) => ({ type: 'static', category: 'malware', severity: 'HIGH', title, file: 'index.js' })),
      vulnerabilities: [],
      facts: { license: 'MIT', install_scripts: [], registry_provenance: 'absent', published_at: NOW - 86_400_000 },
    },
    NOW,
  ).cel;
}

const rule = (name: string, expression: string, action: PolicyRule['action'] = 'block'): PolicyRule => ({ name, expression, action, description: null });
const policyOf = (rules: PolicyRule[], version = 1) => ({ id: 'pol_00000000000000aa', name: 'p', version, builtin: false, rules });

/** Counts the event loop's turns while `work` runs: a blocked loop counts none. */
async function turnsDuring<T>(work: Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  const timer = setInterval(() => (turns += 1), 5);
  try {
    return { value: await work, turns };
  } finally {
    clearInterval(timer);
  }
}

let runner: PolicyRunner | undefined;
afterEach(async () => {
  await runner?.close();
  runner = undefined;
});

describe('the policy evaluation threads', () => {
  it('answer exactly what runPolicy answers on the calling thread, in input order', async () => {
    runner = createPolicyRunner({ size: 2 });
    const policy = policyOf([
      rule('verdict', 'artifact.verdict != "BLOCK"'),
      rule('warned', 'artifact.verdict != "WARN"', 'warn'),
      rule('titles', '!findings.exists(f, f.title.contains("token"))'),
      rule('broken', 'size(findings) == 0 || findings[1].title == "x"', 'warn'),
      rule('skipped', 'false', 'ignore'),
    ]);
    const inputs = Array.from({ length: 60 }, (_, i) => input(`pkg-${i}`, (['ALLOW', 'WARN', 'BLOCK'] as const)[i % 3]!, i % 4 === 0 ? ['reads a token'] : []));
    const outcomes = await runner.run(policy, inputs);
    const compiled = compilePolicy(policy);
    expect(outcomes).toEqual(inputs.map((cel) => runPolicy(compiled, cel)));
    expect(new Set(outcomes.map((o) => o.verdict))).toEqual(new Set(['allow', 'warn', 'block']));
  });

  it('stops a rule that runs past the time limit, keeps the event loop free, and does not run it again on the other packages', async () => {
    runner = createPolicyRunner({ size: 1, ruleTimeLimitMs: 300 });
    // Quadratic in a 38,400-element list: far past any time limit, in little memory.
    const slow = doublingRule(7, `"${'x'.repeat(300)}".split("")`, (l) => `${l}.exists(a, ${l}.exists(b, a == b + "y"))`);
    const policy = policyOf([rule('before', 'artifact.verdict != "BLOCK"'), rule('slow', slow, 'warn'), rule('after', 'size(findings) == 0')]);
    const inputs = Array.from({ length: 25 }, (_, i) => input(`pkg-${i}`, 'ALLOW'));
    const { value: outcomes, turns } = await turnsDuring(runner.run(policy, inputs));
    expect(turns).toBeGreaterThan(0);
    expect(outcomes).toHaveLength(25);
    for (const outcome of outcomes) {
      expect(outcome.checks).toEqual([
        { name: 'before', action: 'block', outcome: 'passed', error: null },
        { name: 'slow', action: 'warn', outcome: 'error', error: 'the rule exceeded its evaluation time limit (300 ms) and was stopped' },
        { name: 'after', action: 'block', outcome: 'passed', error: null },
      ]);
      expect(outcome.verdict).toBe('warn');
      expect(outcome.warnings).toEqual(['slow']);
    }
    // The thread was replaced: the next call is answered as usual.
    const [next] = await runner.run(policyOf([rule('ok', 'true')]), [input('again', 'ALLOW')]);
    expect(next!.verdict).toBe('allow');
  });

  it("stops the attacker's rule on a small heap with a memory error, and the process lives on", async () => {
    runner = createPolicyRunner({ size: 1, heapMb: 32, ruleTimeLimitMs: 20_000 });
    const policy = policyOf([rule('doubling', doublingRule(14, `"${'x'.repeat(1000)}".split("")`)), rule('after', 'artifact.verdict != "BLOCK"')]);
    const { value: outcomes, turns } = await turnsDuring(runner.run(policy, [input('a', 'ALLOW'), input('b', 'BLOCK')]));
    expect(turns).toBeGreaterThan(0);
    expect(outcomes.map((o) => o.checks[0])).toEqual([
      { name: 'doubling', action: 'block', outcome: 'error', error: 'the rule exceeded its evaluation memory limit (32 MB) and was stopped' },
      { name: 'doubling', action: 'block', outcome: 'error', error: 'the rule exceeded its evaluation memory limit (32 MB) and was stopped' },
    ]);
    expect(outcomes.map((o) => o.checks[1]!.outcome)).toEqual(['passed', 'failed']);
    expect(outcomes.map((o) => o.verdict)).toEqual(['block', 'block']);
  });

  it('stops a whole evaluation past its total time limit: the rules of the packages not finished report it', async () => {
    runner = createPolicyRunner({ size: 1, ruleTimeLimitMs: 20_000, evaluationTimeLimitMs: 500 });
    const slow = doublingRule(7, `"${'x'.repeat(300)}".split("")`, (l) => `${l}.exists(a, ${l}.exists(b, a == b + "y"))`);
    const policy = policyOf([rule('slow', slow, 'warn'), rule('verdict', 'artifact.verdict != "BLOCK"')]);
    const outcomes = await runner.run(policy, Array.from({ length: 10 }, (_, i) => input(`pkg-${i}`, 'ALLOW')));
    expect(outcomes).toHaveLength(10);
    const total = 'the evaluation exceeded its total time limit (500 ms): the rule was not run';
    for (const outcome of outcomes) {
      expect(outcome.checks).toEqual([
        { name: 'slow', action: 'warn', outcome: 'error', error: total },
        { name: 'verdict', action: 'block', outcome: 'error', error: total },
      ]);
      expect(outcome.verdict).toBe('block');
    }
  });

  it('does not charge the total budget for the time a thread takes to start', async () => {
    // Each thread spends 800 ms starting; the evaluation's own work takes milliseconds.
    const workerUrl = new URL('../../../../test/fixtures/policy-worker/slow-start-worker.mjs', import.meta.url);
    runner = createPolicyRunner({ size: 1, evaluationTimeLimitMs: 500, workerUrl });
    const policy = policyOf([rule('verdict', 'artifact.verdict != "BLOCK"')]);
    const outcomes = await runner.run(policy, [input('a', 'ALLOW'), input('b', 'BLOCK')]);
    expect(outcomes.map((o) => o.checks[0]!.outcome)).toEqual(['passed', 'failed']);
  });

  it('serves concurrent calls, each with its own budget, and refuses calls once closed', async () => {
    runner = createPolicyRunner({ size: 2, ruleTimeLimitMs: 300 });
    const slow = doublingRule(7, `"${'x'.repeat(300)}".split("")`, (l) => `${l}.exists(a, ${l}.exists(b, a == b + "y"))`);
    const [hostile, plain] = await Promise.all([
      runner.run(policyOf([rule('slow', slow)], 2), [input('a', 'ALLOW')]),
      runner.run(policyOf([rule('ok', 'artifact.verdict != "BLOCK"')], 3), [input('b', 'BLOCK'), input('c', 'ALLOW')]),
    ]);
    expect(hostile[0]!.checks[0]!.outcome).toBe('error');
    expect(plain.map((o) => o.verdict)).toEqual(['block', 'allow']);
    await runner.close();
    await expect(runner.run(policyOf([rule('ok', 'true')]), [input('d', 'ALLOW')])).rejects.toThrow('the policy runner is closed');
  });

  it('names a bad size', () => {
    expect(() => createPolicyRunner({ size: 0 })).toThrow('options.size: expected a positive integer, got 0');
  });
});
