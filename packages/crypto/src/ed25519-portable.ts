import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2';
import {
  assertBytes,
  assertSecretKey,
  verifiableInputs,
  type Ed25519,
} from './ed25519-contract.js';

// noble's synchronous API needs a SHA-512; setting it is idempotent and harmless to other users
// of @noble/ed25519 in the same process (it is the same function they would set). The cast only
// bridges noble's TS 5.9 `Uint8Array<ArrayBuffer>` return type; the bytes are the same.
ed.hashes.sha512 = sha512 as NonNullable<typeof ed.hashes.sha512>;

const GROUP_ORDER = ed.Point.CURVE().n;

function numberFromLittleEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i] ?? 0);
  return value;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * RFC 8032 verification with the exact acceptance rules of OpenSSL (the native side), so the
 * two implementations accept the same set of signatures, hostile encodings included:
 * S < L, the cofactorless equation R = [S]B − [k]A, R compared byte for byte with the canonical
 * encoding of the result, A decoded as OpenSSL decodes it (small-order and non-canonical
 * encodings load). noble's own verify offers ZIP-215 (accepts more) or a strict mode (refuses
 * small-order keys); either would make Node and browsers disagree on crafted inputs.
 * All inputs are public, so variable-time arithmetic is fine here.
 */
function verifyLikeOpenSsl(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  const encodedR = signature.subarray(0, 32);
  const s = numberFromLittleEndian(signature.subarray(32, 64));
  if (s >= GROUP_ORDER) return false;
  let a: ed.Point;
  try {
    a = ed.Point.fromBytes(publicKey, true);
  } catch {
    return false;
  }
  const hashed = new Uint8Array(64 + message.length);
  hashed.set(encodedR, 0);
  hashed.set(publicKey, 32);
  hashed.set(message, 64);
  const k = numberFromLittleEndian(sha512(hashed)) % GROUP_ORDER;
  const r = ed.Point.BASE.multiply(s, false).subtract(a.multiply(k, false));
  return sameBytes(r.toBytes(), encodedR);
}

/** Pure JavaScript ed25519 (@noble/ed25519): runs in browsers, edge runtimes and Node alike. */
export const portableEd25519: Ed25519 = Object.freeze({
  name: 'portable' as const,
  available: true,
  getPublicKey(secretKey: Uint8Array): Uint8Array {
    assertSecretKey(secretKey);
    return ed.getPublicKey(secretKey);
  },
  sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
    assertBytes(message, 'message');
    assertSecretKey(secretKey);
    return ed.sign(message, secretKey);
  },
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
    if (!verifiableInputs(signature, message, publicKey)) return false;
    return verifyLikeOpenSsl(signature, message, publicKey);
  },
});

/** The module `#ed25519-default` resolves to outside Node. */
export { portableEd25519 as defaultEd25519 };
