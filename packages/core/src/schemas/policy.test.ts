import { describe, expect, it } from 'vitest';
import { MAX_POLICY_RULES, PolicyCreateRequest, PolicyEvaluation, PolicyEvaluationRequest, PolicyUpdateRequest, PolicyVersionParams } from './policy.js';
import { policyCreateRequest, policyEvaluation, policyEvaluationRequest } from '../test-support/fixtures.js';
import { REMOVE, expectAccepted, expectRejectedAt, rejectCase, withChange } from '../test-support/schema-cases.js';

describe('PolicyEvaluationRequest', () => {
  it('accepts the spec shape', () => {
    expect(expectAccepted(PolicyEvaluationRequest, policyEvaluationRequest())).toEqual(policyEvaluationRequest());
  });

  it('normalizes a short-form artifact to purl and defaults include to []', () => {
    const parsed = expectAccepted(PolicyEvaluationRequest, { artifact: 'npm:@scope/name@1.0.0', policy: 'default' });
    expect(parsed).toEqual({ artifact: 'pkg:npm/%40scope/name@1.0.0', policy: 'default', include: [] });
  });

  it('accepts findings, which Vigil adds to the include values the spec shows', () => {
    expectAccepted(PolicyEvaluationRequest, withChange(policyEvaluationRequest(), ['include'], ['findings']));
  });

  it.each([
    rejectCase('an artifact that is not a package reference', ['artifact'], 'lodash'),
    rejectCase('an artifact that is a number', ['artifact'], 42),
    rejectCase('an unknown include value', ['include', 0], 'malware'),
    rejectCase('include as a string', ['include'], 'licenses'),
    rejectCase('an empty policy name', ['policy'], ''),
    rejectCase('a policy name with a slash', ['policy'], '../default'),
    rejectCase('policy missing', ['policy'], REMOVE),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(PolicyEvaluationRequest, withChange(policyEvaluationRequest(), path, value), path);
  });
});

describe('PolicyEvaluation', () => {
  it('accepts the spec shape', () => {
    expectAccepted(PolicyEvaluation, policyEvaluation());
  });

  it.each(['allow', 'warn', 'block'])('accepts the lowercase verdict %s', (verdict) => {
    expectAccepted(PolicyEvaluation, withChange(policyEvaluation(), ['verdict'], verdict));
  });

  it.each([
    rejectCase('an uppercase verdict', ['verdict'], 'ALLOW'),
    rejectCase('an unknown verdict', ['verdict'], 'deny'),
    rejectCase('an id without the eval_ prefix', ['id'], 'evaluation_123'),
    rejectCase('an id with nothing after eval_', ['id'], 'eval_'),
    rejectCase('score 101', ['score'], 101),
    rejectCase('a fractional score', ['score'], 12.5),
    rejectCase('an unknown risk', ['risk'], 'severe'),
    rejectCase('details.failed missing', ['details', 'failed'], REMOVE),
    rejectCase('a check name that is not a string', ['details', 'passed', 0], 1),
    rejectCase('a naive evaluated_at', ['evaluated_at'], '2026-11-21T10:00:00.000'),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(PolicyEvaluation, withChange(policyEvaluation(), path, value), path);
  });
});

describe('PolicyEvaluationRequest (unknown fields)', () => {
  it('refuses a field the request does not name', () => {
    expectRejectedAt(PolicyEvaluationRequest, { ...policyEvaluationRequest(), strict: true }, []);
  });
});

describe('PolicyCreateRequest', () => {
  it('accepts a policy and defaults descriptions to null', () => {
    const parsed = expectAccepted(PolicyCreateRequest, policyCreateRequest());
    expect(parsed.rules[0]).toEqual({ name: 'vigil-block', expression: 'artifact.verdict != "BLOCK"', action: 'block', description: null });
  });

  it.each([
    rejectCase('no rules', ['rules'], []),
    rejectCase(`more than ${MAX_POLICY_RULES} rules`, ['rules'], Array.from({ length: MAX_POLICY_RULES + 1 }, (_, i) => ({ name: `r${i}`, expression: 'true', action: 'warn' }))),
    rejectCase('an unknown action', ['rules', 0, 'action'], 'deny'),
    rejectCase('an empty expression', ['rules', 0, 'expression'], ''),
    rejectCase('an expression over the limit', ['rules', 0, 'expression'], 'true || '.repeat(300) + 'true'),
    rejectCase('a rule name with a space', ['rules', 0, 'name'], 'no critical'),
    rejectCase('a rule name used twice', ['rules', 1, 'name'], 'vigil-block'),
    rejectCase('a policy name with a slash', ['name'], 'a/b'),
    rejectCase('a description with a NUL character', ['description'], 'a\u0000b'),
    rejectCase('a rule description over 500 characters', ['rules', 0, 'description'], 'x'.repeat(501)),
    rejectCase('an unknown rule field', ['rules', 0, 'when'], 'always', ['rules', 0]),
  ])('rejects $name', ({ path, value, at }) => {
    expectRejectedAt(PolicyCreateRequest, withChange(policyCreateRequest(), path, value), at ?? path);
  });
});

describe('PolicyUpdateRequest', () => {
  it('accepts any one field', () => {
    expectAccepted(PolicyUpdateRequest, { description: null });
    expectAccepted(PolicyUpdateRequest, { rules: policyCreateRequest().rules });
  });

  it('refuses an empty update', () => {
    expectRejectedAt(PolicyUpdateRequest, {}, []);
  });
});

describe('PolicyVersionParams', () => {
  it('reads the version as a number', () => {
    expect(expectAccepted(PolicyVersionParams, { policy_id: 'pol_0123456789abcdef', version: '12' })).toEqual({ policy_id: 'pol_0123456789abcdef', version: 12 });
  });

  it.each(['0', '01', '-1', '1.5', 'latest'])('refuses version %s', (version) => {
    expectRejectedAt(PolicyVersionParams, { policy_id: 'pol_default', version }, ['version']);
  });
});

describe('PolicyEvaluation include sections', () => {
  it('accepts the sections and refuses an unknown registry provenance', () => {
    const full = {
      ...policyEvaluation(),
      vulnerabilities: [{ id: 'GHSA-xxxx', aliases: ['CVE-2021-1'], summary: 'prototype pollution', severity: 'high', fixed_in: ['4.17.21'] }],
      licenses: { declared: 'MIT', valid: true, ids: ['MIT'] },
      provenance: { vigil_attested: true, attestations: [{ canonical_hash: `sha256:${'a'.repeat(64)}`, validator_hotkey: '5F' }], registry: 'absent' },
      findings: [],
    };
    expectAccepted(PolicyEvaluation, full);
    expectRejectedAt(PolicyEvaluation, withChange(full, ['provenance', 'registry'], 'signed'), ['provenance', 'registry']);
  });
});
