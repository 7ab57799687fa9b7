import { describe, expect, it } from 'vitest';
import { PolicyEvaluation, PolicyEvaluationRequest } from './policy.js';
import { policyEvaluation, policyEvaluationRequest } from '../test-support/fixtures.js';
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
