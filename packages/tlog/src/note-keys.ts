import { sha256 } from '@noble/hashes/sha2';
import { base64 } from '@scure/base';
import { getPublicKey, sign, verify } from '@vigil/crypto';
import { TlogError } from './errors.js';

/** Signature type bytes of C2SP signed-note. */
export const SIGNATURE_TYPE_ED25519 = 0x01;
export const SIGNATURE_TYPE_COSIGNATURE_V1 = 0x04;

/** Verifies one key's signatures over note text. `keyId` is the uint32 key ID. */
export interface NoteVerifier {
  readonly name: string;
  readonly keyId: number;
  verify(text: Uint8Array, signature: Uint8Array): boolean;
}

/** Signs note text as one key: returns the signature bytes that follow the 4-byte key ID. */
export interface NoteSigner {
  readonly name: string;
  readonly keyId: number;
  sign(text: Uint8Array): Uint8Array;
}

const encoder = new TextEncoder();

// Go's unicode.IsSpace (the White_Space property) and '+': what signed-note forbids in a key name.
const NAME_FORBIDDEN = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000+]/u;

const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** A key name is non-empty, with no Unicode space and no '+' (C2SP signed-note). */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !NAME_FORBIDDEN.test(name) && !LONE_SURROGATE.test(name);
}

/** SHA-256(name || 0x0A || type || public key)[:4] as a big-endian uint32. */
export function computeKeyId(name: string, type: number, publicKey: Uint8Array): number {
  if (typeof name !== 'string' || !Number.isInteger(type) || type < 0 || type > 255 || !(publicKey instanceof Uint8Array)) {
    throw new TlogError('invalid_input', 'computeKeyId needs a name, a type byte (0-255) and key bytes');
  }
  const nameBytes = encoder.encode(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes, 0);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = type;
  input.set(publicKey, nameBytes.length + 2);
  const digest = sha256(input);
  return ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
}

export function formatKeyId(keyId: number): string {
  if (!Number.isInteger(keyId) || keyId < 0 || keyId > 0xffffffff) throw new TlogError('invalid_input', `a key ID is a uint32, got ${keyId}`);
  return keyId.toString(16).padStart(8, '0');
}

/** `<name>+<hex key ID>+<base64(type || public key)>`: a verifier key (vkey). */
export function formatVerifierKey(name: string, publicKey: Uint8Array, type = SIGNATURE_TYPE_ED25519): string {
  if (!isValidKeyName(name)) throw new TlogError('malformed_key', `invalid key name ${JSON.stringify(name)}`);
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) throw new TlogError('malformed_key', 'an ed25519 public key is 32 bytes');
  if (type !== SIGNATURE_TYPE_ED25519 && type !== SIGNATURE_TYPE_COSIGNATURE_V1) {
    throw new TlogError('malformed_key', `unsupported signature type ${String(type)}: 0x01 (Ed25519) or 0x04 (cosignature/v1)`);
  }
  const material = new Uint8Array(33);
  material[0] = type;
  material.set(publicKey, 1);
  return `${name}+${formatKeyId(computeKeyId(name, type, publicKey))}+${base64.encode(material)}`;
}

/** The parts of a verifier key, checked: the key ID must be the one its name and key produce. */
export interface ParsedVerifierKey {
  readonly name: string;
  readonly keyId: number;
  readonly type: number;
  readonly publicKey: Uint8Array;
}

export function parseVerifierKey(vkey: string): ParsedVerifierKey {
  const refuse = (why: string): never => {
    throw new TlogError('malformed_key', `malformed verifier key: ${why}`);
  };
  if (typeof vkey !== 'string') refuse('not a string');
  const first = vkey.indexOf('+');
  const second = first < 0 ? -1 : vkey.indexOf('+', first + 1);
  if (first < 0 || second < 0) return refuse('want <name>+<key id>+<key>');
  const name = vkey.slice(0, first);
  const idText = vkey.slice(first + 1, second);
  const keyText = vkey.slice(second + 1);
  if (!isValidKeyName(name)) refuse('invalid key name');
  if (!/^[0-9a-f]{8}$/.test(idText)) refuse('the key ID is not 8 lowercase hex digits');
  let material: Uint8Array;
  try {
    material = base64.decode(keyText);
  } catch {
    return refuse('the key is not standard base64');
  }
  if (material.length === 0) refuse('empty key');
  // Go's base64.StdEncoding refuses missing padding; so does this (one spelling per key).
  if (base64.encode(material) !== keyText) refuse('the key is not standard padded base64');
  const keyId = Number.parseInt(idText, 16);
  if (computeKeyId(name, material[0]!, material.subarray(1)) !== keyId) refuse('the key ID does not match the name and key');
  const type = material[0]!;
  if (type !== SIGNATURE_TYPE_ED25519 && type !== SIGNATURE_TYPE_COSIGNATURE_V1) refuse(`unsupported signature type 0x${type.toString(16)}`);
  if (material.length !== 33) refuse('an ed25519 public key is 32 bytes');
  return { name, keyId, type, publicKey: material.slice(1) };
}

/** An Ed25519 seed is 32 bytes; checked here so a wrong one is a TlogError, not a crypto error. */
export function assertSeed(secretKey: unknown): asserts secretKey is Uint8Array {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== 32) throw new TlogError('malformed_key', 'an Ed25519 secret key (seed) is 32 bytes');
}

/**
 * A verifier for a type 0x01 (Ed25519 note signature) verifier key. Type 0x04 keys are witness
 * cosigner keys: use cosignatureVerifier, whose signed message differs.
 */
export function noteVerifier(vkey: string): NoteVerifier {
  const key = parseVerifierKey(vkey);
  if (key.type !== SIGNATURE_TYPE_ED25519) {
    throw new TlogError('malformed_key', `${key.name} is a type 0x${key.type.toString(16).padStart(2, '0')} key, not an Ed25519 note key`);
  }
  return {
    name: key.name,
    keyId: key.keyId,
    verify: (text, signature) => signature.length === 64 && verify(signature, text, key.publicKey),
  };
}

/** A note signer for an ed25519 seed (32 bytes), e.g. the server identity key. */
export function noteSigner(name: string, secretKey: Uint8Array): NoteSigner {
  if (typeof name !== 'string' || !isValidKeyName(name)) throw new TlogError('malformed_key', `invalid key name ${JSON.stringify(name)}`);
  assertSeed(secretKey);
  const publicKey = getPublicKey(secretKey);
  return {
    name,
    keyId: computeKeyId(name, SIGNATURE_TYPE_ED25519, publicKey),
    sign: (text) => sign(text, secretKey),
  };
}

/**
 * Parses Go's signer key string `PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 || seed)>`
 * (golang.org/x/mod/sumdb/note), so keys made by Go's `note.GenerateKey` sign here too.
 */
export function parseSignerKey(skey: string): { name: string; secretKey: Uint8Array } {
  // Base64 has '+' in its alphabet: only the first four '+' separate fields.
  const parts = skey.split('+');
  const refuse = (): never => {
    throw new TlogError('malformed_key', 'malformed signer key');
  };
  if (parts.length < 5 || parts[0] !== 'PRIVATE' || parts[1] !== 'KEY') return refuse();
  const [, , name, idText] = parts as [string, string, string, string];
  const keyText = parts.slice(4).join('+');
  if (!isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(idText)) refuse();
  let material: Uint8Array;
  try {
    material = base64.decode(keyText);
  } catch {
    return refuse();
  }
  if (material.length !== 33 || material[0] !== SIGNATURE_TYPE_ED25519) refuse();
  const secretKey = material.slice(1);
  if (computeKeyId(name, SIGNATURE_TYPE_ED25519, getPublicKey(secretKey)) !== Number.parseInt(idText, 16)) refuse();
  return { name, secretKey };
}
