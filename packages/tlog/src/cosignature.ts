import { getPublicKey, sign, verify } from '@vigil/crypto';
import { base64 } from '@scure/base';
import { TlogError } from './errors.js';
import { assertSeed, computeKeyId, isValidKeyName, parseVerifierKey, SIGNATURE_TYPE_COSIGNATURE_V1, type NoteSigner, type NoteVerifier } from './note-keys.js';
import type { NoteSignature } from './signed-note.js';

const encoder = new TextEncoder();
const MAX_TIMESTAMP = 2n ** 63n - 1n;

/**
 * The message an Ed25519 witness signs (C2SP tlog-cosignature, `cosignature/v1`):
 * `cosignature/v1\ntime <timestamp>\n` followed by the whole checkpoint note text.
 */
export function cosignatureMessage(checkpointText: string, timestamp: number | bigint): Uint8Array {
  const valid = typeof timestamp === 'bigint' ? timestamp >= 0n && timestamp <= MAX_TIMESTAMP : Number.isSafeInteger(timestamp) && timestamp >= 0;
  if (!valid) throw new TlogError('invalid_input', 'the timestamp must be a non-negative integer of seconds below 2^63');
  if (typeof checkpointText !== 'string') throw new TlogError('invalid_input', 'the checkpoint text must be a string');
  return encoder.encode(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);
}

/**
 * A verifier for a witness's type 0x04 vkey: checks the 72-byte timestamped_signature (big-endian
 * uint64 seconds || Ed25519 signature) over the cosignature/v1 message. Use with openNote or
 * openCheckpoint like any note verifier.
 */
export function cosignatureVerifier(vkey: string): NoteVerifier {
  const key = parseVerifierKey(vkey);
  if (key.type !== SIGNATURE_TYPE_COSIGNATURE_V1) {
    throw new TlogError('malformed_key', `${key.name} is not a cosignature/v1 (type 0x04) key`);
  }
  const decoder = new TextDecoder();
  const verifier: NoteVerifier = {
    name: key.name,
    keyId: key.keyId,
    verify(text, signature) {
      if (signature.length !== 72) return false;
      const timestamp = new DataView(signature.buffer, signature.byteOffset, 8).getBigUint64(0);
      // Any uint64 below 2^63 is a valid timestamp (spec): verified exactly, past 2^53 too.
      if (timestamp > MAX_TIMESTAMP) return false;
      const message = cosignatureMessage(decoder.decode(text), timestamp);
      return verify(signature.subarray(8), message, key.publicKey);
    },
  };
  cosignatureVerifiers.add(verifier);
  return verifier;
}

const cosignatureVerifiers = new WeakSet<NoteVerifier>();

/** True for a verifier made by cosignatureVerifier: a witness key, never a log's checkpoint key. */
export function isCosignatureVerifier(verifier: NoteVerifier): boolean {
  return cosignatureVerifiers.has(verifier);
}

/** A witness cosigner for an ed25519 seed; `now` gives the POSIX seconds to sign with. */
export function cosigner(name: string, secretKey: Uint8Array, now: () => number | bigint = () => Math.floor(Date.now() / 1000)): NoteSigner {
  if (typeof name !== 'string' || !isValidKeyName(name)) throw new TlogError('malformed_key', `invalid key name ${JSON.stringify(name)}`);
  assertSeed(secretKey);
  const publicKey = getPublicKey(secretKey);
  const decoder = new TextDecoder();
  return {
    name,
    keyId: computeKeyId(name, SIGNATURE_TYPE_COSIGNATURE_V1, publicKey),
    sign(text) {
      const timestamp = now();
      const signature = sign(cosignatureMessage(decoder.decode(text), timestamp), secretKey);
      
      const out = new Uint8Array(72);
      new DataView(out.buffer).setBigUint64(0, BigInt(timestamp));
      out.set(signature, 8);
      return out;
    },
  };
}

/**
 * The timestamp (POSIX seconds) a cosignature line carries, or undefined if it is not one or is
 * above 2^53 - 1 (Number.MAX_SAFE_INTEGER; such a cosignature still verifies).
 */
export function cosignatureTimestamp(signature: NoteSignature): number | undefined {
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(signature.base64);
  } catch {
    return undefined;
  }
  if (bytes.length !== 4 + 72) return undefined;
  const timestamp = new DataView(bytes.buffer, bytes.byteOffset + 4, 8).getBigUint64(0);
  return timestamp > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(timestamp);
}
