import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { constantTimeEqual } from './bytes.js';
import {
  assertBytes,
  assertSecretKey,
  verifiableInputs,
  type Ed25519,
} from './ed25519-contract.js';

// DER headers that turn a raw RFC 8032 seed / public key into PKCS#8 / SPKI (RFC 8410):
// OpenSSL takes ed25519 keys only in those containers.
const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

// Loading a private key costs OpenSSL a scalar multiplication (it derives the public key), about
// ten times the cost of the signature itself; signers use one or two keys over and over, so the
// last few are kept. Lookup compares every cached seed in full (no early exit on a secret).
const PRIVATE_KEY_CACHE_SIZE = 8;
// Each entry also keeps its public key once exported: a signer asks for its own address with
// every attestation it signs, and exporting costs more than the signature.
const privateKeyCache: { seed: Uint8Array; key: KeyObject; publicKey?: Uint8Array }[] = [];

function cachedPrivateKey(secretKey: Uint8Array): (typeof privateKeyCache)[number] {
  let found = -1;
  for (let i = 0; i < privateKeyCache.length; i++) {
    if (constantTimeEqual(privateKeyCache[i]!.seed, secretKey) && found < 0) found = i;
  }
  if (found >= 0) {
    const [entry] = privateKeyCache.splice(found, 1);
    privateKeyCache.unshift(entry!);
    return entry!;
  }
  const key = createPrivateKey({ key: Buffer.from(concat(PKCS8_PREFIX, secretKey)), format: 'der', type: 'pkcs8' });
  const entry = { seed: Uint8Array.from(secretKey), key };
  privateKeyCache.unshift(entry);
  privateKeyCache.length = Math.min(privateKeyCache.length, PRIVATE_KEY_CACHE_SIZE);
  return entry;
}

function privateKeyObject(secretKey: Uint8Array): KeyObject {
  return cachedPrivateKey(secretKey).key;
}

// Servers verify many signatures from a few hundred validator hotkeys; parsing the key is a
// sizeable share of a native verify, so recently used public keys are kept (bounded, LRU).
const PUBLIC_KEY_CACHE_SIZE = 1024;
const publicKeyCache = new Map<string, KeyObject>();

function publicKeyObject(publicKey: Uint8Array): KeyObject {
  const id = Buffer.from(publicKey).toString('hex');
  const cached = publicKeyCache.get(id);
  if (cached) {
    publicKeyCache.delete(id);
    publicKeyCache.set(id, cached);
    return cached;
  }
  const key = createPublicKey({ key: Buffer.from(concat(SPKI_PREFIX, publicKey)), format: 'der', type: 'spki' });
  publicKeyCache.set(id, key);
  if (publicKeyCache.size > PUBLIC_KEY_CACHE_SIZE) {
    const oldest = publicKeyCache.keys().next().value;
    if (oldest !== undefined) publicKeyCache.delete(oldest);
  }
  return key;
}

function fresh(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
}

/** ed25519 through node:crypto (OpenSSL): many times faster than pure JS; Node only. */
export const nativeEd25519: Ed25519 = Object.freeze({
  name: 'native' as const,
  available: true,
  getPublicKey(secretKey: Uint8Array): Uint8Array {
    assertSecretKey(secretKey);
    const entry = cachedPrivateKey(secretKey);
    if (entry.publicKey === undefined) {
      const spki = createPublicKey(entry.key).export({ format: 'der', type: 'spki' });
      entry.publicKey = fresh(spki.subarray(SPKI_PREFIX.length));
    }
    // A copy: the caller may change what it is given.
    return Uint8Array.from(entry.publicKey);
  },
  sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
    assertBytes(message, 'message');
    assertSecretKey(secretKey);
    return fresh(sign(null, message, privateKeyObject(secretKey)));
  },
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
    if (!verifiableInputs(signature, message, publicKey)) return false;
    try {
      return verify(null, message, publicKeyObject(publicKey), signature);
    } catch {
      // OpenSSL refuses to load some 32-byte strings as a public key: that key verifies nothing.
      return false;
    }
  },
});

/** The module `#ed25519-default` resolves to in Node. */
export { nativeEd25519 as defaultEd25519 };
