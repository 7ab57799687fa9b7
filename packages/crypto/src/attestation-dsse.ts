import {
  AttestationPayload,
  type DsseEnvelope,
  type AttestationSubmission,
  IN_TOTO_PAYLOAD_TYPE,
  attestationDsseMessage,
  attestationStatementBytes,
  canonicalHash,
  dssePreAuthEncoding,
} from '@vigil/core';
import { constantTimeEqual, fromHex, toHex } from './bytes.js';
import { getPublicKey, sign, verify } from './ed25519.js';
import { assertSecretKey } from './ed25519-contract.js';
import { signAttestation } from './attestation.js';
import { CryptoInputError, HotkeyMismatchError } from './errors.js';
import { ss58Decode, ss58Encode } from './ss58.js';

/**
 * The in-toto/DSSE form of an attestation (docs/attestations.md, "In-toto statement and DSSE
 * envelope"): the validator signs PAE(`application/vnd.in-toto+json`, the canonical statement of its
 * payload) with its hotkey, beside the envelope's own signature over the canonical payload. Standard
 * DSSE tooling checks this signature; Vigil's own checks stay on the canonical payload.
 */

const HEX_SIGNATURE = /^[0-9a-f]{128}$/;

/**
 * The most signatures `verifyAttestationDsse` reads: an envelope comes from wherever its holder got
 * it, and each entry costs an Ed25519 verification. A validator's envelope has one.
 */
export const MAX_DSSE_SIGNATURES = 16;

/**
 * An envelope as a verifier takes it: `keyid` is optional in DSSE (a hint; the key comes from the
 * predicate's `validator_hotkey`), so it is neither required nor read.
 */
function verifiableEnvelope(value: unknown): { payloadType: string; payload: string; signatures: { sig: string }[] } | null {
  if (typeof value !== 'object' || value === null) return null;
  const { payloadType, payload, signatures } = value as Record<string, unknown>;
  if (typeof payloadType !== 'string' || typeof payload !== 'string' || !Array.isArray(signatures)) return null;
  if (signatures.length === 0 || signatures.length > MAX_DSSE_SIGNATURES) return null;
  for (const entry of signatures as unknown[]) {
    if (typeof entry !== 'object' || entry === null) return null;
    const { keyid, sig } = entry as Record<string, unknown>;
    if (typeof sig !== 'string' || (keyid !== undefined && typeof keyid !== 'string')) return null;
  }
  return { payloadType, payload, signatures: signatures as { sig: string }[] };
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array | null {
  // atob accepts whitespace and missing padding; DSSE payloads are plain standard base64.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * The validator's DSSE signature (128 lowercase hex) of an attestation payload: what it sends as
 * `dsse_signature` beside the envelope. Refuses, as signAttestation does, a payload the schema
 * refuses or one whose `validator_hotkey` is not the signer's own address.
 */
export function signAttestationStatement(payload: AttestationPayload, secretKey: Uint8Array): string {
  assertSecretKey(secretKey);
  const parsed = AttestationPayload.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('') ?? '';
    throw new CryptoInputError(`payload${path}`, issue?.message ?? 'invalid');
  }
  const signerKey = getPublicKey(secretKey);
  if (!constantTimeEqual(ss58Decode(payload.validator_hotkey, { argument: 'payload.validator_hotkey' }), signerKey)) {
    throw new HotkeyMismatchError(
      'payload.validator_hotkey',
      `is not the address of the signing key (the secret key's address is ${ss58Encode(signerKey)})`,
    );
  }
  return toHex(sign(attestationDsseMessage(payload), secretKey));
}

/**
 * What a validator submits: signAttestation's envelope and, beside it, signAttestationStatement's
 * `dsse_signature`, both by the payload's validator. The envelope fields are exactly signAttestation's.
 */
export function signAttestationSubmission(payload: AttestationPayload, secretKey: Uint8Array): AttestationSubmission {
  const envelope = signAttestation(payload, secretKey);
  // signAttestation has checked the payload and that the key is validator_hotkey's; checking again
  // costs as much as the signature (the demo seed signs tens of thousands). Signed over the
  // envelope's own copy: exactly the payload the canonical hash covers.
  return { ...envelope, dsse_signature: toHex(sign(attestationDsseMessage(envelope.payload), secretKey)) };
}

/**
 * Whether `dsseSignature` (hex) is `payload.validator_hotkey`'s signature of the payload's statement.
 * The payload is taken as received (unknown fields included), as the envelope's own checks take it;
 * anything malformed (no such key, a payload that cannot be canonicalized) is simply false.
 */
export function verifyAttestationStatementSignature(payload: unknown, dsseSignature: string): boolean {
  const parsed = AttestationPayload.safeParse(payload);
  if (!parsed.success || !HEX_SIGNATURE.test(dsseSignature)) return false;
  try {
    const publicKey = ss58Decode(parsed.data.validator_hotkey);
    return verify(fromHex(dsseSignature), attestationDsseMessage(payload as AttestationPayload), publicKey);
  } catch {
    return false;
  }
}

/**
 * The DSSE envelope of a signed attestation: the canonical statement (base64) and the validator's
 * signature, `keyid` the hex of its 32-byte public key (what `validator_hotkey` decodes to).
 */
export function attestationDsseEnvelope(payload: AttestationPayload, dsseSignature: string): DsseEnvelope {
  return {
    payloadType: IN_TOTO_PAYLOAD_TYPE,
    payload: base64(attestationStatementBytes(payload)),
    signatures: [{ keyid: toHex(ss58Decode(payload.validator_hotkey)), sig: base64(fromHex(dsseSignature)) }],
  };
}

export interface AttestationDsseVerification {
  ok: boolean;
  /** Why not, the first failing check; null when ok. */
  reason: string | null;
  /** The attestation payload (the statement's predicate) once the statement is well formed, else null. */
  payload: AttestationPayload | null;
  /** The canonical hash of that payload: the attestation's `canonical_hash`; null with `payload`. */
  canonical_hash: string | null;
}

function refused(reason: string, payload: AttestationPayload | null = null): AttestationDsseVerification {
  return { ok: false, reason, payload, canonical_hash: null };
}

/**
 * Offline check of an attestation's DSSE envelope, no network: the payload type, that the payload is
 * exactly the canonical in-toto statement of the attestation payload it carries (so subject and
 * predicate agree and nothing was re-encoded), and that a signature verifies against the public key
 * of the payload's `validator_hotkey`. Whether that hotkey holds a validator permit is the metagraph's
 * question: check the payload with verifyAttestation for that.
 */
export function verifyAttestationDsse(envelope: unknown): AttestationDsseVerification {
  const envelopeRead = verifiableEnvelope(envelope);
  if (envelopeRead === null) return refused('malformed DSSE envelope');
  const parsed = { data: envelopeRead };
  if (parsed.data.payloadType !== IN_TOTO_PAYLOAD_TYPE) return refused(`payloadType is not ${IN_TOTO_PAYLOAD_TYPE}`);
  const bytes = fromBase64(parsed.data.payload);
  if (bytes === null) return refused('payload is not base64');
  let statement: unknown;
  try {
    statement = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return refused('payload is not a JSON document');
  }
  const predicate = (statement as { predicate?: unknown } | null)?.predicate;
  const payload = AttestationPayload.safeParse(predicate);
  if (!payload.success) return refused('payload is not a statement whose predicate is an attestation payload');
  let expected: Uint8Array;
  try {
    expected = attestationStatementBytes(predicate as AttestationPayload);
  } catch {
    return refused('predicate is not canonicalizable JSON');
  }
  const signed = payload.data;
  if (!constantTimeEqual(expected, bytes)) return refused('payload is not the canonical in-toto statement of its predicate', signed);
  let publicKey: Uint8Array;
  try {
    publicKey = ss58Decode(signed.validator_hotkey);
  } catch (error) {
    return refused(`validator_hotkey is not a valid ss58 address (${(error as Error).message})`, signed);
  }
  const message = dssePreAuthEncoding(IN_TOTO_PAYLOAD_TYPE, bytes);
  const verified = parsed.data.signatures.some((entry) => {
    const sig = fromBase64(entry.sig);
    return sig !== null && sig.length === 64 && verify(sig, message, publicKey);
  });
  if (!verified) return refused('no signature verifies against validator_hotkey', signed);
  return { ok: true, reason: null, payload: signed, canonical_hash: canonicalHash(predicate) };
}
