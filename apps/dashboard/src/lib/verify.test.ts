import { keypairFromSeed } from '@vigil/client';
import { signAttestation } from '@vigil/crypto';
import { describe, expect, it } from 'vitest';
import { verifyPasted } from './verify.js';

const validator = keypairFromSeed('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
const miner = keypairFromSeed('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb');

const envelope = signAttestation(
  {
    round_id: '5f2c9a1e',
    task_id: 'task-1',
    track: 'skills',
    miner_hotkey: miner.hotkey,
    agent_hash: `sha256:${'a'.repeat(64)}`,
    artifact: { bundle_hash: 'skills/benign/1', sha256: `sha256:${'b'.repeat(64)}` },
    verdict: 'WARN',
    risk_score: 40,
    findings: [{ type: 'pattern', category: 'prompt_injection', severity: 'MED', title: 'asks to ignore instructions', file: 'SKILL.md' }],
    policy_version: 'v1',
    validator_hotkey: validator.hotkey,
    created_at: '2026-11-21T10:00:00.000+00:00',
  },
  validator.secretKey,
);
const snapshot = (permit: boolean, netuid = 76) =>
  JSON.stringify({ netuid, block: 42, taken_at: '2026-11-21T09:00:00.000', neurons: [{ uid: 0, hotkey: validator.hotkey, validator_permit: permit }] });

describe('verifyPasted', () => {
  it('a genuine envelope passes all three checks', () => {
    const outcome = verifyPasted(JSON.stringify(envelope, null, 2), snapshot(true));
    expect(outcome).toMatchObject({ kind: 'checked', result: { ok: true, checks: { hash: true, signature: true, permit: true }, reason: null }, validator: validator.hotkey });
  });

  it('one changed digit of the payload fails the hash and the signature', () => {
    const tampered = JSON.stringify({ ...envelope, payload: { ...envelope.payload, risk_score: 41 } });
    expect(verifyPasted(tampered, snapshot(true))).toMatchObject({ kind: 'checked', result: { ok: false, checks: { hash: false, signature: false, permit: true }, reason: 'canonical hash mismatch' } });
  });

  it('a validator without a permit, or a snapshot of another subnet, fails the permit only', () => {
    expect(verifyPasted(JSON.stringify(envelope), snapshot(false))).toMatchObject({ result: { checks: { hash: true, signature: true, permit: false } } });
    expect(verifyPasted(JSON.stringify(envelope), snapshot(true, 1))).toMatchObject({ result: { ok: false, reason: 'metagraph snapshot is for netuid 1, not 76' } });
  });

  it('says which input is wrong before checking anything', () => {
    expect(verifyPasted('', snapshot(true))).toMatchObject({ kind: 'input_error', field: 'envelope' });
    expect(verifyPasted('{', snapshot(true))).toMatchObject({ kind: 'input_error', field: 'envelope' });
    expect(verifyPasted(JSON.stringify(envelope), '{"netuid":76}')).toMatchObject({ kind: 'input_error', field: 'snapshot', message: expect.stringMatching(/^Not a metagraph snapshot: /) });
  });
});
