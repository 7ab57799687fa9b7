import { describe, expect, it } from 'vitest';
import { attestationStatement, canonicalHash, canonicalJson, dssePreAuthEncoding, type AttestationPayload } from '@vigil/core';
import {
  MAX_DSSE_SIGNATURES,
  attestationDsseEnvelope,
  signAttestationStatement,
  signAttestationSubmission,
  verifyAttestationDsse,
  verifyAttestationStatementSignature,
} from './attestation-dsse.js';
import { signAttestation } from './attestation.js';
import { fromHex, toHex } from './bytes.js';
import { getPublicKey, verify } from './ed25519.js';
import { CryptoInputError, HotkeyMismatchError } from './errors.js';
import { ss58Encode } from './ss58.js';

const validatorKey = fromHex('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb');
const validatorHotkey = ss58Encode(getPublicKey(validatorKey));
const outsiderKey = fromHex('c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7');
const outsiderHotkey = ss58Encode(getPublicKey(outsiderKey));

function payloadFor(hotkey: string): AttestationPayload {
  return {
    round_id: '5f2c9a1e0b7d4c11',
    task_id: 'task-0001',
    track: 'packages',
    miner_hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
    agent_hash: `sha256:${'a'.repeat(64)}`,
    artifact: { bundle_hash: 'packages/left-pad-1.3.0/npm/left-pad', sha256: `sha256:${'b'.repeat(64)}` },
    verdict: 'BLOCK',
    risk_score: 87,
    findings: [{ type: 'exfiltration', category: 'network', severity: 'HIGH', title: 'Posts ~/.npmrc to a remote host', file: 'index.js' }],
    policy_version: '2026-01',
    validator_hotkey: hotkey,
    created_at: '2026-01-05T12:00:00Z',
  };
}

const decodeBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

describe('DSSE pre-authentication encoding', () => {
  it('matches the DSSE specification’s example', () => {
    // github.com/secure-systems-lab/dsse protocol.md: PAE("http://example.com/HelloWorld", "hello world").
    const pae = dssePreAuthEncoding('http://example.com/HelloWorld', new TextEncoder().encode('hello world'));
    expect(new TextDecoder().decode(pae)).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
  });

  it('counts lengths in bytes, not characters', () => {
    const pae = dssePreAuthEncoding('t', new TextEncoder().encode('é'));
    expect(new TextDecoder().decode(pae)).toBe('DSSEv1 1 t 2 é');
  });
});

describe('attestation statement signatures', () => {
  const payload = payloadFor(validatorHotkey);

  it('signs the canonical statement: the signature verifies over PAE(in-toto type, statement bytes) with the hotkey’s key', () => {
    const signature = signAttestationStatement(payload, validatorKey);
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    const statementBytes = new TextEncoder().encode(canonicalJson(attestationStatement(payload)));
    expect(verify(fromHex(signature), dssePreAuthEncoding('application/vnd.in-toto+json', statementBytes), getPublicKey(validatorKey))).toBe(true);
    expect(verifyAttestationStatementSignature(payload, signature)).toBe(true);
    // Deterministic (Ed25519): the same payload, however its keys are ordered, gives the same signature.
    const reordered = Object.fromEntries(Object.entries(payload).reverse()) as AttestationPayload;
    expect(signAttestationStatement(reordered, validatorKey)).toBe(signature);
  });

  it('differs from the envelope signature, which stays over the canonical payload', () => {
    const envelope = signAttestation(payload, validatorKey);
    expect(signAttestationStatement(payload, validatorKey)).not.toBe(envelope.signature);
    expect(verifyAttestationStatementSignature(payload, envelope.signature)).toBe(false);
  });

  it('does not verify for a changed payload, another key, or malformed input', () => {
    const signature = signAttestationStatement(payload, validatorKey);
    expect(verifyAttestationStatementSignature({ ...payload, risk_score: 86 }, signature)).toBe(false);
    expect(verifyAttestationStatementSignature({ ...payload, extra: 'signed fields include unknown ones' }, signature)).toBe(false);
    expect(verifyAttestationStatementSignature(payloadFor(outsiderHotkey), signAttestationStatement(payloadFor(outsiderHotkey), outsiderKey))).toBe(true);
    expect(verifyAttestationStatementSignature({ ...payload, validator_hotkey: outsiderHotkey }, signature)).toBe(false);
    expect(verifyAttestationStatementSignature(payload, signature.toUpperCase())).toBe(false);
    expect(verifyAttestationStatementSignature(null, signature)).toBe(false);
  });

  it('signAttestationSubmission: the envelope signAttestation makes, plus the statement signature', () => {
    expect(signAttestationSubmission(payload, validatorKey)).toEqual({ ...signAttestation(payload, validatorKey), dsse_signature: signAttestationStatement(payload, validatorKey) });
    expect(() => signAttestationSubmission(payloadFor(outsiderHotkey), validatorKey)).toThrow(HotkeyMismatchError);
  });

  it('refuses to sign another validator’s payload or a malformed one', () => {
    expect(() => signAttestationStatement(payloadFor(outsiderHotkey), validatorKey)).toThrow(HotkeyMismatchError);
    expect(() => signAttestationStatement({ ...payload, risk_score: 101 }, validatorKey)).toThrow(CryptoInputError);
  });
});

describe('attestation DSSE envelopes', () => {
  const payload = payloadFor(validatorHotkey);
  const signature = signAttestationStatement(payload, validatorKey);
  const envelope = attestationDsseEnvelope(payload, signature);

  it('carries the canonical statement, keyid the public key in hex, sig the signature in base64', () => {
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    expect(new TextDecoder().decode(decodeBase64(envelope.payload))).toBe(canonicalJson(attestationStatement(payload)));
    expect(envelope.signatures).toEqual([{ keyid: toHex(getPublicKey(validatorKey)), sig: btoa(String.fromCharCode(...fromHex(signature))) }]);
    expect(attestationStatement(payload)).toEqual({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: 'packages/left-pad-1.3.0/npm/left-pad', digest: { sha256: 'b'.repeat(64) } }],
      predicateType: 'https://vigil.dev/attestation/v1',
      predicate: payload,
    });
  });

  it('verifies offline and names the attestation it carries', () => {
    expect(verifyAttestationDsse(envelope)).toEqual({ ok: true, reason: null, payload, canonical_hash: canonicalHash(payload) });
    expect(verifyAttestationDsse(JSON.parse(JSON.stringify(envelope)))).toMatchObject({ ok: true });
  });

  it('reads keyid as the optional hint DSSE makes it, and at most MAX_DSSE_SIGNATURES signatures (outsider finding)', () => {
    const sig = envelope.signatures[0]!.sig;
    expect(verifyAttestationDsse({ ...envelope, signatures: [{ sig }] })).toMatchObject({ ok: true });
    const forged = { keyid: '', sig: btoa(String.fromCharCode(...new Uint8Array(64))) };
    const many = (n: number) => ({ ...envelope, signatures: [...Array.from({ length: n - 1 }, () => forged), { sig }] });
    expect(verifyAttestationDsse(many(MAX_DSSE_SIGNATURES))).toMatchObject({ ok: true });
    expect(verifyAttestationDsse(many(MAX_DSSE_SIGNATURES + 1))).toMatchObject({ ok: false, reason: 'malformed DSSE envelope' });
    expect(verifyAttestationDsse({ ...envelope, signatures: [{ keyid: 7, sig }] })).toMatchObject({ ok: false, reason: 'malformed DSSE envelope' });
  });

  it('names the first failing check', () => {
    const statement = attestationStatement(payload) as { subject: unknown[] };
    const encode = (value: unknown) => btoa(String.fromCharCode(...new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value))));
    const cases: Array<[unknown, string]> = [
      [{ ...envelope, signatures: [] }, 'malformed DSSE envelope'],
      [{ ...envelope, payloadType: 'application/json' }, 'payloadType is not application/vnd.in-toto+json'],
      [{ ...envelope, payload: '***' }, 'payload is not base64'],
      [{ ...envelope, payload: encode('not json') }, 'payload is not a JSON document'],
      [{ ...envelope, payload: encode({ ...statement, predicate: { verdict: 'ALLOW' } }) }, 'payload is not a statement whose predicate is an attestation payload'],
      // Same content, not canonical (pretty-printed), or a subject that does not match the predicate.
      [{ ...envelope, payload: encode(JSON.stringify(attestationStatement(payload), null, 2)) }, 'payload is not the canonical in-toto statement of its predicate'],
      [{ ...envelope, payload: encode(canonicalJson({ ...statement, subject: [{ name: 'x', digest: { sha256: 'c'.repeat(64) } }] })) }, 'payload is not the canonical in-toto statement of its predicate'],
      [{ ...envelope, signatures: [{ keyid: '', sig: envelope.signatures[0]!.sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }] }, 'no signature verifies against validator_hotkey'],
      [{ ...envelope, payload: encode(canonicalJson(attestationStatement({ ...payload, risk_score: 1 }))) }, 'no signature verifies against validator_hotkey'],
    ];
    for (const [input, reason] of cases) expect(verifyAttestationDsse(input)).toMatchObject({ ok: false, reason });
  });
});
