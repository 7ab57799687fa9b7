import { describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.js';
import { AttestationEnvelope, AttestationPayload } from './attestation.js';
import { ALICE, attestationEnvelope, attestationPayload } from '../test-support/fixtures.js';
import { REMOVE, expectAccepted, expectRejectedAt, rejectCase, withChange } from '../test-support/schema-cases.js';

describe('AttestationPayload', () => {
  it('accepts the documented payload', () => {
    expect(expectAccepted(AttestationPayload, attestationPayload())).toEqual(attestationPayload());
  });

  it('keeps fields beyond the required ones, since the hash and signature cover them', () => {
    const extended = { ...attestationPayload(), agent_version: 3, artifact: { ...attestationPayload().artifact, size: 1024 } };
    expect(expectAccepted(AttestationPayload, extended)).toEqual(extended);
  });

  it.each([
    'round_id',
    'task_id',
    'track',
    'miner_hotkey',
    'agent_hash',
    'artifact',
    'verdict',
    'risk_score',
    'findings',
    'policy_version',
    'validator_hotkey',
    'created_at',
  ])('requires %s', (field) => {
    expectRejectedAt(AttestationPayload, withChange(attestationPayload(), [field], REMOVE), [field]);
  });

  it.each([
    rejectCase('risk_score 101', ['risk_score'], 101),
    rejectCase(
      'more findings than an attestation may carry',
      ['findings'],
      Array.from({ length: LIMITS.maxFindingsPerAttestation + 1 }, () => ({ type: 'static', category: 'x', severity: 'LOW', title: 't', file: 'f' })),
    ),
    rejectCase('a finding title longer than the text limit', ['findings', 0, 'title'], 'a'.repeat(LIMITS.maxFindingTextLength + 1)),
    rejectCase('an unknown verdict', ['verdict'], 'QUARANTINE'),
    rejectCase('an unknown track', ['track'], 'images'),
    rejectCase('an uppercase round_id', ['round_id'], 'ABCDEF0123'),
    rejectCase('a naive created_at (attestations carry an offset)', ['created_at'], '2026-11-21T10:00:00.000'),
    rejectCase('a bundle_hash with an unknown track', ['artifact', 'bundle_hash'], 'images/latest/alpine'),
    rejectCase('an artifact sha256 without the prefix', ['artifact', 'sha256'], 'e3'.repeat(32)),
    rejectCase('a 49-character validator_hotkey', ['validator_hotkey'], `${ALICE}1`),
    rejectCase('an empty task_id', ['task_id'], ''),
    rejectCase('a finding with an unknown severity', ['findings', 0, 'severity'], 'INFO'),
    rejectCase('an empty policy_version', ['policy_version'], ''),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(AttestationPayload, withChange(attestationPayload(), path, value), path);
  });
});

describe('AttestationEnvelope', () => {
  it('accepts {payload, canonical_hash, signature}', () => {
    expectAccepted(AttestationEnvelope, attestationEnvelope());
  });

  it.each([
    rejectCase('a 127-character signature', ['signature'], 'a'.repeat(127)),
    rejectCase('an uppercase signature', ['signature'], 'AB'.repeat(64)),
    rejectCase('a canonical_hash in uppercase hex', ['canonical_hash'], `sha256:${'AB'.repeat(32)}`),
    rejectCase('a canonical_hash of another algorithm', ['canonical_hash'], `sha512:${'ab'.repeat(32)}`),
    rejectCase('a payload missing its validator', ['payload', 'validator_hotkey'], REMOVE),
    rejectCase('signature missing', ['signature'], REMOVE),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(AttestationEnvelope, withChange(attestationEnvelope(), path, value), path);
  });
});
