import { sha256 } from '@noble/hashes/sha2';
import { base64 } from '@scure/base';
import { TlogError } from './errors.js';

/** A SHA-256 Merkle tree hash (RFC 6962 §2.1): always 32 bytes. */
export type Hash = Uint8Array;

export const HASH_SIZE = 32;

/** MTH({}) = SHA-256(""): the root of the empty tree. */
export const EMPTY_TREE_HASH: Hash = sha256(new Uint8Array(0));

/** The leaf hash of an entry: SHA-256(0x00 || entry) (RFC 6962 §2.1, "record hash" in Go's tlog). */
export function leafHash(entry: Uint8Array): Hash {
  if (!(entry instanceof Uint8Array)) throw new TlogError('invalid_input', 'an entry must be bytes');
  const buffer = new Uint8Array(1 + entry.length);
  buffer[0] = 0x00;
  buffer.set(entry, 1);
  return sha256(buffer);
}

/** True for a 32-byte Uint8Array: what every function here takes as a hash. */
export function isHash(value: unknown): value is Hash {
  return value instanceof Uint8Array && value.length === HASH_SIZE;
}

export function assertHash(value: unknown, name: string): asserts value is Hash {
  if (!isHash(value)) throw new TlogError('invalid_input', `${name} must be a 32-byte hash`);
}

/** The interior node hash: SHA-256(0x01 || left || right). */
export function nodeHash(left: Hash, right: Hash): Hash {
  assertHash(left, 'left');
  assertHash(right, 'right');
  const buffer = new Uint8Array(1 + 2 * HASH_SIZE);
  buffer[0] = 0x01;
  buffer.set(left, 1);
  buffer.set(right, 1 + HASH_SIZE);
  return sha256(buffer);
}

export function hashesEqual(a: Hash, b: Hash): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Standard padded base64 of a hash, as checkpoints and tlog-proof lines carry it. */
export function formatHash(hash: Hash): string {
  return base64.encode(hash);
}

/** Strict: standard base64 with padding, exactly 32 bytes; anything else throws. */
export function parseHash(text: string): Hash {
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(text);
  } catch {
    throw new TlogError('invalid_input', `malformed hash ${JSON.stringify(text)}`);
  }
  if (bytes.length !== HASH_SIZE) throw new TlogError('invalid_input', `malformed hash ${JSON.stringify(text)}`);
  return bytes;
}
