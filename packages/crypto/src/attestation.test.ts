import { describe, expect, it } from 'vitest';
import { JsonDepthError, canonicalBytes, canonicalHash, type AttestationPayload, type MetagraphSnapshot } from '@vigil/core';
import { createAttestationVerifier, signAttestation, verifyAttestation } from './attestation.js';
import { fromHex, toHex } from './bytes.js';
import { generateSecretKey, getPublicKey, sign } from './ed25519.js';
import { portableEd25519 } from './ed25519-portable.js';
import { CryptoInputError, HotkeyMismatchError } from './errors.js';
import { ss58Encode } from './ss58.js';

const validatorKey = fromHex('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb');
const validatorHotkey = ss58Encode(getPublicKey(validatorKey));
const outsiderKey = fromHex('c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7');
const outsiderHotkey = ss58Encode(getPublicKey(outsiderKey));
const minerHotkey = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

function payloadFor(hotkey: string): AttestationPayload {
  return {
    round_id: '5f2c9a1e0b7d4c11',
    task_id: 'task-0001',
    track: 'packages',
    miner_hotkey: minerHotkey,
    agent_hash: `sha256:${'a'.repeat(64)}`,
    artifact: { bundle_hash: 'packages/npm/pkg:npm/left-pad@1.3.0', sha256: `sha256:${'b'.repeat(64)}` },
    verdict: 'BLOCK',
    risk_score: 87,
    findings: [
      { type: 'exfiltration', category: 'network', severity: 'HIGH', title: 'Posts ~/.npmrc to a remote host', file: 'index.js' },
    ],
    policy_version: '2026-01',
    validator_hotkey: hotkey,
    created_at: '2026-01-05T12:00:00Z',
  };
}

function snapshot(neurons: MetagraphSnapshot['neurons'], netuid = 76): MetagraphSnapshot {
  return { netuid, block: 4_200_000, taken_at: '2026-01-05T11:59:00Z', neurons };
}

const metagraph = snapshot([
  { uid: 0, hotkey: validatorHotkey, validator_permit: true },
  { uid: 1, hotkey: outsiderHotkey, validator_permit: false },
  { uid: 2, hotkey: minerHotkey, validator_permit: false },
]);

/** The envelope as a verifier receives it: JSON text off the wire. */
function overTheWire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('signAttestation', () => {
  it('produces an envelope that passes all three checks', () => {
    const envelope = signAttestation(payloadFor(validatorHotkey), validatorKey);
    expect(envelope.canonical_hash).toBe(canonicalHash(payloadFor(validatorHotkey)));
    expect(envelope.signature).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyAttestation(overTheWire(envelope), metagraph)).toEqual({
      ok: true,
      checks: { hash: true, signature: true, permit: true },
      reason: null,
    });
  });

  it('signs the canonical bytes: key order of the input does not matter', () => {
    const payload = payloadFor(validatorHotkey);
    const reordered = Object.fromEntries(Object.entries(payload).reverse()) as AttestationPayload;
    expect(signAttestation(reordered, validatorKey)).toEqual(signAttestation(payload, validatorKey));
  });

  it('is not affected by later changes to the caller object', () => {
    const payload = payloadFor(validatorHotkey);
    const envelope = signAttestation(payload, validatorKey);
    payload.risk_score = 1;
    expect(verifyAttestation(envelope, metagraph).ok).toBe(true);
  });

  it('refuses to sign under another hotkey, naming payload.validator_hotkey', () => {
    let caught: unknown;
    try {
      signAttestation(payloadFor(outsiderHotkey), validatorKey);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HotkeyMismatchError);
    expect((caught as HotkeyMismatchError).argument).toBe('payload.validator_hotkey');
    expect((caught as Error).message).toContain(validatorHotkey);
  });

  it('refuses a payload that fails the schema, naming the field', () => {
    const payload = { ...payloadFor(validatorHotkey), risk_score: 101 };
    expect(() => signAttestation(payload, validatorKey)).toThrow(CryptoInputError);
    try {
      signAttestation(payload, validatorKey);
    } catch (error) {
      expect((error as CryptoInputError).argument).toBe('payload.risk_score');
    }
    expect(() => signAttestation(payloadFor(validatorHotkey), new Uint8Array(16))).toThrow(/^secretKey:/);
  });
});

describe('verifyAttestation', () => {
  const envelope = overTheWire(signAttestation(payloadFor(validatorHotkey), validatorKey));

  it('a payload changed by one unit fails the hash, and the signature over the recomputed bytes too', () => {
    const tampered = overTheWire(envelope);
    tampered.payload.risk_score += 1;
    expect(verifyAttestation(tampered, metagraph)).toEqual({
      ok: false,
      checks: { hash: false, signature: false, permit: true },
      reason: 'canonical hash mismatch',
    });
  });

  it('a payload changed by one character of a finding title fails hash and signature', () => {
    const tampered = overTheWire(envelope);
    tampered.payload.findings[0]!.title = tampered.payload.findings[0]!.title.replace('~', '-');
    const result = verifyAttestation(tampered, metagraph);
    expect(result.checks).toEqual({ hash: false, signature: false, permit: true });
    expect(result.reason).toBe('canonical hash mismatch');
  });

  it('a changed canonical_hash alone fails only the hash check', () => {
    const tampered = { ...envelope, canonical_hash: `sha256:${'0'.repeat(64)}` };
    expect(verifyAttestation(tampered, metagraph).checks).toEqual({ hash: false, signature: true, permit: true });
  });

  it('a changed signature fails only the signature check', () => {
    const flipped = envelope.signature.slice(0, -1) + (envelope.signature.endsWith('0') ? '1' : '0');
    expect(verifyAttestation({ ...envelope, signature: flipped }, metagraph)).toEqual({
      ok: false,
      checks: { hash: true, signature: false, permit: true },
      reason: 'signature does not verify against validator_hotkey',
    });
  });

  it('a valid signature from a hotkey without a permit fails only the permit check', () => {
    const outsider = overTheWire(signAttestation(payloadFor(outsiderHotkey), outsiderKey));
    expect(verifyAttestation(outsider, metagraph)).toEqual({
      ok: false,
      checks: { hash: true, signature: true, permit: false },
      reason: 'validator_hotkey holds no validator permit on netuid 76',
    });
  });

  it('a hotkey missing from the metagraph is not registered', () => {
    const unlisted = snapshot([{ uid: 5, hotkey: minerHotkey, validator_permit: true }]);
    expect(verifyAttestation(envelope, unlisted)).toMatchObject({
      checks: { hash: true, signature: true, permit: false },
      reason: 'validator_hotkey is not registered on netuid 76',
    });
  });

  it('a snapshot of another netuid grants no permit', () => {
    const other = snapshot(metagraph.neurons, 1);
    expect(verifyAttestation(envelope, other)).toEqual({
      ok: false,
      checks: { hash: true, signature: true, permit: false },
      reason: 'metagraph snapshot is for netuid 1, not 76',
    });
  });

  it('hashes the payload exactly as received, fields the schema does not know included', () => {
    // Finding is a closed schema: parsing strips `line`. Hashing the parsed copy would report a
    // mismatch for an honest envelope; hashing a stripped copy would let `line` change unnoticed.
    const payload = payloadFor(validatorHotkey);
    const withExtras = {
      ...payload,
      sandbox: { image: 'vigil/sandbox:3', seconds: 41.5 },
      findings: [{ ...payload.findings[0]!, line: 12 }],
    } as unknown as AttestationPayload;
    const signed = overTheWire(signAttestation(withExtras, validatorKey));
    expect(verifyAttestation(signed, metagraph).ok).toBe(true);
    const moved = overTheWire(signed) as unknown as { payload: { findings: { line: number }[] } };
    moved.payload.findings[0]!.line = 13;
    expect(verifyAttestation(moved, metagraph).checks).toEqual({ hash: false, signature: false, permit: true });
  });

  it('verifies a payload nested 64 levels deep, and reports a deeper one by its depth, whatever the depth (probe finding: 10,000 levels were "not canonicalizable")', () => {
    // The payload object is level 1: `extra` holds the other levels, as arrays.
    const withDepth = (levels: number) => ({ ...payloadFor(validatorHotkey), extra: JSON.parse(`${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}`) as unknown });
    const deepest = overTheWire(signAttestation(withDepth(64) as unknown as AttestationPayload, validatorKey));
    expect(verifyAttestation(deepest, metagraph)).toEqual({ ok: true, checks: { hash: true, signature: true, permit: true }, reason: null });
    expect(() => signAttestation(withDepth(65) as unknown as AttestationPayload, validatorKey)).toThrow(JsonDepthError);
    for (const levels of [65, 10_000, 100_000]) {
      const deeper = { ...deepest, payload: withDepth(levels) };
      expect(verifyAttestation(deeper, metagraph), `${levels} levels`).toEqual({
        ok: false,
        checks: { hash: false, signature: false, permit: true },
        reason: 'payload nests deeper than 64 levels',
      });
    }
  });

  it('accepts signatures made by either implementation', () => {
    const payload = payloadFor(validatorHotkey);
    const envelopeNative = signAttestation(payload, validatorKey);
    const portableSignature = toHex(portableEd25519.sign(canonicalBytes(payload), validatorKey));
    expect(portableSignature).toBe(envelopeNative.signature);
    expect(verifyAttestation({ ...envelopeNative, signature: portableSignature }, metagraph).ok).toBe(true);
  });

  it('reports a malformed envelope with every check false', () => {
    for (const bad of [null, 'x', {}, { ...envelope, signature: 'zz' }, { ...envelope, payload: { ...envelope.payload, verdict: 'MAYBE' } }]) {
      const result = verifyAttestation(bad, metagraph);
      expect(result.ok).toBe(false);
      expect(result.checks).toEqual({ hash: false, signature: false, permit: false });
      expect(result.reason).toMatch(/^malformed attestation envelope/);
    }
  });

  it('reports a validator_hotkey that is not a valid address as a signature failure', () => {
    const payload = { ...envelope.payload, validator_hotkey: `${validatorHotkey.slice(0, -1)}Z` };
    const forged = { payload, canonical_hash: canonicalHash(payload), signature: envelope.signature };
    const result = verifyAttestation(forged, metagraph);
    expect(result.checks).toEqual({ hash: true, signature: false, permit: false });
    expect(result.reason).toMatch(/^validator_hotkey is not a valid ss58 address .*checksum/);
  });

  it('refuses a signature over the right bytes by the wrong key', () => {
    const payload = payloadFor(validatorHotkey);
    const signature = toHex(sign(canonicalBytes(payload), outsiderKey));
    const forged = { payload, canonical_hash: canonicalHash(payload), signature };
    expect(verifyAttestation(forged, metagraph).checks).toEqual({ hash: true, signature: false, permit: true });
  });
});

describe('createAttestationVerifier', () => {
  it('gives the same answers as verifyAttestation, for many envelopes against one snapshot', () => {
    const secretKey = generateSecretKey();
    const hotkey = ss58Encode(getPublicKey(secretKey));
    const snapshot: MetagraphSnapshot = { netuid: 76, block: 1, taken_at: '2026-11-21T00:00:00Z', neurons: [{ uid: 0, hotkey, validator_permit: true }] };
    const verifier = createAttestationVerifier(snapshot);
    const base = signAttestation(payloadFor(hotkey), secretKey);
    const tampered = { ...base, payload: { ...base.payload, risk_score: base.payload.risk_score + 1 } };
    for (const envelope of [base, tampered, { nonsense: true }]) {
      expect(verifier.verify(envelope)).toEqual(verifyAttestation(envelope, snapshot));
    }
    expect(verifier.verify(base).ok).toBe(true);
    expect(verifier.verify(tampered).checks).toEqual({ hash: false, signature: false, permit: true });
  });

  it('reads a mutable snapshot afresh on every call, and reuses a frozen one safely', () => {
    const secretKey = generateSecretKey();
    const hotkey = ss58Encode(getPublicKey(secretKey));
    const envelope = signAttestation(payloadFor(hotkey), secretKey);
    const snapshot = { netuid: 76, block: 1, taken_at: '2026-11-21T00:00:00Z', neurons: [{ uid: 0, hotkey, validator_permit: true }] };
    expect(verifyAttestation(envelope, snapshot).ok).toBe(true);
    snapshot.neurons[0]!.validator_permit = false;
    expect(verifyAttestation(envelope, snapshot).checks.permit).toBe(false);
    const frozen = Object.freeze({ ...snapshot, neurons: Object.freeze([Object.freeze({ uid: 0, hotkey, validator_permit: true })]) }) as unknown as MetagraphSnapshot;
    expect(verifyAttestation(envelope, frozen).ok).toBe(true);
    expect(verifyAttestation(envelope, frozen).ok).toBe(true);
  });
});
