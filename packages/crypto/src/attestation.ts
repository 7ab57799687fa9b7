import {
  AttestationEnvelope,
  AttestationPayload,
  JsonDepthError,
  MAX_JSON_DEPTH,
  MetagraphSnapshot,
  NETUID,
  canonicalBytes,
  canonicalJson,
  sha256Hex,
} from '@vigil/core';
import { utf8ToBytes } from '@noble/hashes/utils';
import { toHex, fromHex, constantTimeEqual } from './bytes.js';
import { getPublicKey, sign, verify } from './ed25519.js';
import { assertSecretKey } from './ed25519-contract.js';
import { CryptoInputError, HotkeyMismatchError } from './errors.js';
import { ss58Decode, ss58Encode } from './ss58.js';

interface SchemaError {
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>;
}

/** The first schema issue as an argument path (`payload.findings[0].title`) and its message. */
function firstIssue(error: SchemaError, root: string): { argument: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { argument: root, message: 'invalid' };
  const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
  return { argument: `${root}${path}`, message: issue.message };
}

function describeIssue(error: SchemaError, root: string): string {
  const { argument, message } = firstIssue(error, root);
  return `${argument}: ${message}`;
}

/**
 * Signs an attestation as `payload.validator_hotkey`. The payload must satisfy core's
 * AttestationPayload schema; extra fields are kept and covered by the hash and signature.
 * Refuses (HotkeyMismatchError) when the hotkey is not the signer's own address: an envelope
 * signed by one key under another's name could never verify.
 */
export function signAttestation(payload: AttestationPayload, secretKey: Uint8Array): AttestationEnvelope {
  assertSecretKey(secretKey);
  const parsed = AttestationPayload.safeParse(payload);
  if (!parsed.success) {
    const { argument, message } = firstIssue(parsed.error, 'payload');
    throw new CryptoInputError(argument, message);
  }
  const signerKey = getPublicKey(secretKey);
  // Decoded once per address (the verifiers' cache); an invalid one is decoded again to throw its error.
  const known = decodeHotkey(payload.validator_hotkey);
  const hotkeyKey = typeof known === 'string' ? ss58Decode(payload.validator_hotkey, { argument: 'payload.validator_hotkey' }) : known;
  if (!constantTimeEqual(hotkeyKey, signerKey)) {
    throw new HotkeyMismatchError(
      'payload.validator_hotkey',
      `is not the address of the signing key (the secret key's address is ${ss58Encode(signerKey)})`,
    );
  }
  // Canonicalized once: the hash, the signature and the envelope's copy all come from this text.
  const text = canonicalJson(payload);
  const bytes = utf8ToBytes(text);
  // The envelope carries its own copy of exactly what was signed, so later changes to the
  // caller's object cannot silently invalidate it.
  const signed = JSON.parse(text) as AttestationPayload;
  return {
    payload: signed,
    canonical_hash: `sha256:${sha256Hex(bytes)}`,
    signature: toHex(sign(bytes, secretKey)),
  };
}

export interface AttestationChecks {
  /** canonical_hash equals sha256 of the RFC 8785 bytes of payload as received. */
  hash: boolean;
  /** signature verifies over those recomputed bytes against payload.validator_hotkey. */
  signature: boolean;
  /** the metagraph is netuid 76 and lists validator_hotkey with validator_permit true. */
  permit: boolean;
}

export interface AttestationVerification {
  ok: boolean;
  checks: AttestationChecks;
  /** The first failing check, in the order hash, signature, permit; null when ok. */
  reason: string | null;
}

/** Answers the permit check for any hotkey from one snapshot, validated once. */
type PermitLookup = (hotkey: string) => string | null;

function preparePermits(metagraph: unknown): PermitLookup {
  const snapshot = MetagraphSnapshot.safeParse(metagraph);
  if (!snapshot.success) {
    const reason = `metagraph snapshot is malformed (${describeIssue(snapshot.error, 'metagraph')})`;
    return () => reason;
  }
  if (snapshot.data.netuid !== NETUID) {
    const reason = `metagraph snapshot is for netuid ${snapshot.data.netuid}, not ${NETUID}`;
    return () => reason;
  }
  const permits = new Map<string, boolean>();
  for (const neuron of snapshot.data.neurons) {
    permits.set(neuron.hotkey, (permits.get(neuron.hotkey) ?? false) || neuron.validator_permit);
  }
  return (hotkey) => {
    const permit = permits.get(hotkey);
    if (permit === undefined) return `validator_hotkey is not registered on netuid ${NETUID}`;
    return permit ? null : `validator_hotkey holds no validator permit on netuid ${NETUID}`;
  };
}

/**
 * Decoded validator addresses. A network has a few hundred validators, and base58 with its
 * checksum costs more than a tenth of a verification, so each is decoded once.
 */
const DECODED_LIMIT = 4096;
const decoded = new Map<string, Uint8Array | string>();
function decodeHotkey(hotkey: string): Uint8Array | string {
  const hit = decoded.get(hotkey);
  if (hit !== undefined) return hit;
  let value: Uint8Array | string;
  try {
    value = ss58Decode(hotkey, { argument: 'payload.validator_hotkey' });
  } catch (error) {
    value = `validator_hotkey is not a valid ss58 address (${(error as Error).message})`;
  }
  if (decoded.size >= DECODED_LIMIT) decoded.delete(decoded.keys().next().value as string);
  decoded.set(hotkey, value);
  return value;
}

export interface AttestationVerifier {
  /** The three offline checks of one envelope against the verifier's metagraph snapshot. */
  verify(envelope: unknown): AttestationVerification;
}

/**
 * A verifier bound to one metagraph snapshot: the snapshot is validated and indexed once, so
 * checking many attestations (a validator's batch, an ingestion pipeline) costs little beyond the
 * ed25519 verification itself.
 */
export function createAttestationVerifier(metagraph: MetagraphSnapshot): AttestationVerifier {
  const permitOf = preparePermits(metagraph);
  return {
    verify(envelope) {
      const parsed = AttestationEnvelope.safeParse(envelope);
      if (!parsed.success) {
        return {
          ok: false,
          checks: { hash: false, signature: false, permit: false },
          reason: `malformed attestation envelope (${describeIssue(parsed.error, 'envelope')})`,
        };
      }
      const rawPayload = (envelope as { payload: unknown }).payload;
      const hotkey = parsed.data.payload.validator_hotkey;
      let bytes: Uint8Array | null = null;
      let uncanonical = 'payload is not canonicalizable JSON';
      try {
        bytes = canonicalBytes(rawPayload);
      } catch (error) {
        // Parsed JSON fails only by nesting too deep; anything else is an in-memory object holding
        // non-JSON values. Either way there are no bytes to check.
        if (error instanceof JsonDepthError) uncanonical = `payload nests deeper than ${MAX_JSON_DEPTH} levels`;
      }

      // Hash and signature cover the same bytes, canonicalized once.
      const hash = bytes !== null && `sha256:${sha256Hex(bytes)}` === parsed.data.canonical_hash;

      let signature = false;
      let signatureReason = 'signature does not verify against validator_hotkey';
      if (bytes !== null) {
        const publicKey = decodeHotkey(hotkey);
        if (typeof publicKey === 'string') signatureReason = publicKey;
        else signature = verify(fromHex(parsed.data.signature), bytes, publicKey);
      }

      const permitReason = permitOf(hotkey);
      const permit = permitReason === null;

      let reason: string | null = null;
      if (!hash) reason = bytes === null ? uncanonical : 'canonical hash mismatch';
      else if (!signature) reason = signatureReason;
      else if (!permit) reason = permitReason;

      return { ok: hash && signature && permit, checks: { hash, signature, permit }, reason };
    },
  };
}

/**
 * Prepared verifiers of frozen snapshots (the server's metagraph cache freezes each snapshot it
 * serves). Only frozen ones are remembered: a snapshot that can still change must be read afresh.
 */
const verifiers = new WeakMap<object, AttestationVerifier>();

/**
 * The three offline checks of an attestation. Each is computed on its own, so all three booleans
 * are meaningful together (a valid signature by a key without a permit reads hash ✓ signature ✓
 * permit ✗). The hash and the signature are both computed over the canonical bytes of
 * `envelope.payload` exactly as received — never over a re-serialized, schema-stripped copy —
 * so a changed payload fails both; a changed `canonical_hash` alone fails only the hash.
 * Repeated calls with the same frozen snapshot object reuse one prepared verifier.
 */
export function verifyAttestation(envelope: unknown, metagraph: MetagraphSnapshot): AttestationVerification {
  if (typeof metagraph !== 'object' || metagraph === null || !Object.isFrozen(metagraph)) {
    return createAttestationVerifier(metagraph).verify(envelope);
  }
  let verifier = verifiers.get(metagraph);
  if (verifier === undefined) {
    verifier = createAttestationVerifier(metagraph);
    verifiers.set(metagraph, verifier);
  }
  return verifier.verify(envelope);
}
