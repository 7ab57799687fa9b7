import { describe, expect, it } from 'vitest';
import { REMOVE, expectAccepted, expectRejectedAt, withChange } from '../test-support/schema-cases.js';
import {
  AttestationReceipt,
  MAX_TASKS_PER_CLAIM,
  TaskClaim,
  TaskClaimRequest,
  TaskProgressRequest,
  ThreatIntel,
  ValidatorRegistration,
  ValidatorRegistrationRequest,
} from './validators.js';

const HOTKEY = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const SHA = `sha256:${'ab'.repeat(32)}`;

function claim() {
  return {
    round: {
      round_id: '0123456789abcdef',
      track: 'skills',
      round_number: 3,
      policy_version: 'policy-2026.11',
      closes_at: '2026-11-21T12:00:00.000+00:00',
    },
    tasks: [
      {
        task_id: '6f1c1f0e-2d4b-4e57-9a3e-5d6f7a8b9c0d',
        lease_expires_at: '2026-11-21T11:10:00.000+00:00',
        miner_hotkey: HOTKEY,
        agent_hash: SHA,
        artifact: { bundle_hash: 'skills/acme/foo', sha256: SHA },
      },
    ],
  };
}

describe('validator request schemas', () => {
  it('accept the documented requests', () => {
    expectAccepted(ValidatorRegistrationRequest, { allowed_ips: ['203.0.113.7', '2001:db8::1'] });
    expect(expectAccepted(TaskClaimRequest, {})).toEqual({});
    expectAccepted(TaskClaimRequest, { track: 'packages', max: MAX_TASKS_PER_CLAIM });
    expectAccepted(TaskProgressRequest, { state: 'failed', detail: 'sandbox timed out' });
  });

  it.each([
    ['allowed_ips missing', ValidatorRegistrationRequest, {}, ['allowed_ips']],
    ['an empty allowlist', ValidatorRegistrationRequest, { allowed_ips: [] }, ['allowed_ips']],
    ['33 allowed ips', ValidatorRegistrationRequest, { allowed_ips: Array(33).fill('10.0.0.1') }, ['allowed_ips']],
    ['an unknown field', ValidatorRegistrationRequest, { allowed_ips: ['10.0.0.1'], uid: 3 }, []],
    ['max 0', TaskClaimRequest, { max: 0 }, ['max']],
    ['max 101', TaskClaimRequest, { max: 101 }, ['max']],
    ['max 1.5', TaskClaimRequest, { max: 1.5 }, ['max']],
    ['an unknown track', TaskClaimRequest, { track: 'browsers' }, ['track']],
    ['state completed', TaskProgressRequest, { state: 'completed' }, ['state']],
    ['a detail over 1000 characters', TaskProgressRequest, { state: 'running', detail: 'x'.repeat(1001) }, ['detail']],
  ] as const)('reject %s', (_name, schema, value, path) => {
    expectRejectedAt(schema, value, path);
  });
});

describe('validator response schemas', () => {
  it('accept a claim, an empty claim and a receipt', () => {
    expectAccepted(TaskClaim, claim());
    expectAccepted(TaskClaim, { round: null, tasks: [] });
    expectAccepted(AttestationReceipt, { canonical_hash: SHA, task_id: 't-1', created: false });
    expectAccepted(ValidatorRegistration, { hotkey: HOTKEY, uid: 4, status: 'active', allowed_ips: ['127.0.0.1'] });
  });

  it('keeps the labeled/live kind and ground truth out of a leased task', () => {
    const parsed = expectAccepted(TaskClaim, withChange(claim(), ['tasks', 0, 'artifact', 'kind'], 'labeled'));
    expect(parsed.tasks[0]!.artifact).toEqual({ bundle_hash: 'skills/acme/foo', sha256: SHA });
    const withTruth = expectAccepted(TaskClaim, withChange(claim(), ['tasks', 0, 'ground_truth'], 'BLOCK'));
    expect(withTruth.tasks[0]).not.toHaveProperty('ground_truth');
  });

  it.each([
    ['a naive closes_at', ['round', 'closes_at'], '2026-11-21T12:00:00'],
    ['a task without lease_expires_at', ['tasks', 0, 'lease_expires_at'], REMOVE],
    ['a malformed agent hash', ['tasks', 0, 'agent_hash'], 'sha256:XYZ'],
  ] as const)('reject a claim with %s', (_name, path, value) => {
    expectRejectedAt(TaskClaim, withChange(claim(), path, value), path);
  });

  it('accepts threat intel with and without a verdict', () => {
    expectAccepted(ThreatIntel, { sha256: SHA, bundle_hashes: [], verdict: null, verdict_updated_at: null, findings: [] });
    expectAccepted(ThreatIntel, {
      sha256: SHA,
      bundle_hashes: ['skills/acme/foo'],
      verdict: 'BLOCK',
      verdict_updated_at: '2026-11-21T12:00:00.000+00:00',
      findings: [{ type: 'static', category: 'exfiltration', severity: 'HIGH', title: 'posts env', file: 'SKILL.md' }],
    });
    expectRejectedAt(
      ThreatIntel,
      { sha256: SHA, bundle_hashes: [], verdict: 'MAYBE', verdict_updated_at: null, findings: [] },
      ['verdict'],
    );
  });
});
