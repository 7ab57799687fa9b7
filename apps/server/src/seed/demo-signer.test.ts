import { TRACKS, formatOffsetTimestamp, type AttestationPayload } from '@vigil/core';
import { getPublicKey, signAttestationSubmission, ss58Encode, verifyAttestation, verifyAttestationStatementSignature } from '@vigil/crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoSigner, type DemoSigner, type SignItem } from './demo-signer.js';

const SHIM = new URL('./test-support/dist-demo-sign-worker.mjs', import.meta.url);

function items(n: number): SignItem[] {
  const keys = [1, 2, 3].map((k) => new Uint8Array(32).fill(k));
  return Array.from({ length: n }, (_, i) => {
    const secretKey = keys[i % keys.length]!;
    const payload: AttestationPayload = {
      round_id: '0123456789abcdef',
      task_id: `task-${i}`,
      track: TRACKS[i % TRACKS.length]!,
      miner_hotkey: ss58Encode(getPublicKey(new Uint8Array(32).fill(9))),
      agent_hash: `sha256:${'a'.repeat(64)}`,
      artifact: { bundle_hash: `${TRACKS[i % TRACKS.length]!}/demo/item-${i}`, sha256: `sha256:${'c'.repeat(64)}` },
      verdict: 'WARN',
      risk_score: i % 100,
      findings: [{ type: 'static', category: 'malware', severity: 'HIGH', title: `finding ${i}`, file: 'a.js' }],
      policy_version: 'vigil-policy-2026.11',
      validator_hotkey: ss58Encode(getPublicKey(secretKey)),
      created_at: formatOffsetTimestamp(Date.UTC(2026, 10, 1) + i * 1000),
    };
    return { payload, secretKey };
  });
}

describe('createDemoSigner', () => {
  let signer: DemoSigner | undefined;
  afterEach(async () => {
    await signer?.close();
    signer = undefined;
  });

  it('signs on its thread and inline exactly what signAttestationSubmission signs, in order, and the envelopes and their DSSE signatures verify', async () => {
    signer = createDemoSigner({ workerUrl: SHIM, threaded: true });
    const batch = items(301);
    const envelopes = await signer.sign(batch);
    expect(envelopes).toEqual(batch.map((item) => signAttestationSubmission(item.payload, item.secretKey)));
    const snapshot = {
      netuid: 76,
      block: 1,
      taken_at: '2026-11-01T00:00:00Z',
      neurons: [1, 2, 3].map((k, uid) => ({ uid, hotkey: ss58Encode(getPublicKey(new Uint8Array(32).fill(k))), validator_permit: true })),
    };
    for (const envelope of envelopes) {
      expect(verifyAttestation(envelope, snapshot).ok).toBe(true);
      expect(verifyAttestationStatementSignature(envelope.payload, envelope.dsse_signature!)).toBe(true);
    }
    // A second batch on the same thread.
    expect(await signer.sign(batch.slice(0, 100))).toEqual(envelopes.slice(0, 100));
  });

  it('rejects when its thread cannot start, rather than returning fewer envelopes', async () => {
    signer = createDemoSigner({ workerUrl: new URL('./no-such-worker.mjs', import.meta.url), threaded: true });
    await expect(signer.sign(items(200))).rejects.toThrow();
  });

  it('refuses a payload signAttestation refuses, on its thread too', async () => {
    signer = createDemoSigner({ workerUrl: SHIM, threaded: true });
    const batch = items(200);
    batch[3] = { ...batch[3]!, secretKey: new Uint8Array(32).fill(7) };
    await expect(signer.sign(batch)).rejects.toThrow(/demo signer: .*validator_hotkey/);
  });
});
