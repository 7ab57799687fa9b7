import { blake2b } from '@noble/hashes/blake2b';
import { base58 } from '@scure/base';
import { CryptoInputError, Ss58Error } from './errors.js';
import { PUBLIC_KEY_LENGTH } from './ed25519-contract.js';

// ss58 is base58(prefix ‖ public key ‖ first two bytes of blake2b-512("SS58PRE" ‖ prefix ‖ key)).
// Computed here with @noble/hashes and @scure/base rather than @polkadot/util-crypto: that package
// reaches blake2b through @polkadot/wasm-crypto, which puts ~226 KB of WASM into every browser
// bundle of @vigil/client. ss58.test.ts checks byte-for-byte parity with @polkadot/util-crypto.

/** Substrate's generic prefix, the one Bittensor hotkeys use. */
export const SS58_DEFAULT_PREFIX = 42;

const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]+$/;
// Prefixes 46 and 47 are reserved by the ss58 registry; above 16383 does not fit two bytes.
const RESERVED_PREFIXES = new Set([46, 47]);
const CHECKSUM_CONTEXT = new TextEncoder().encode('SS58PRE');
const CHECKSUM_LENGTH = 2;

function assertPrefix(prefix: number, argument: string): void {
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 16383 || RESERVED_PREFIXES.has(prefix)) {
    throw new CryptoInputError(argument, `expected an ss58 prefix in 0..16383 other than 46 and 47, got ${String(prefix)}`);
  }
}

/** The prefix bytes: one for 0..63, two (the ss58 "full" form) for 64..16383. */
function prefixBytes(prefix: number): Uint8Array {
  if (prefix < 64) return Uint8Array.of(prefix);
  return Uint8Array.of(((prefix & 0b1111_1100) >> 2) | 0b0100_0000, (prefix >> 8) | ((prefix & 0b11) << 6));
}

function checksum(payload: Uint8Array): Uint8Array {
  const input = new Uint8Array(CHECKSUM_CONTEXT.length + payload.length);
  input.set(CHECKSUM_CONTEXT);
  input.set(payload, CHECKSUM_CONTEXT.length);
  return blake2b(input, { dkLen: 64 }).subarray(0, CHECKSUM_LENGTH);
}

export function ss58Encode(publicKey: Uint8Array, prefix: number = SS58_DEFAULT_PREFIX): string {
  if (!(publicKey instanceof Uint8Array)) throw new CryptoInputError('publicKey', 'expected a Uint8Array');
  if (publicKey.length !== PUBLIC_KEY_LENGTH) {
    throw new CryptoInputError('publicKey', `expected ${PUBLIC_KEY_LENGTH} bytes, got ${publicKey.length}`);
  }
  assertPrefix(prefix, 'prefix');
  const head = prefixBytes(prefix);
  const raw = new Uint8Array(head.length + PUBLIC_KEY_LENGTH + CHECKSUM_LENGTH);
  raw.set(head);
  raw.set(publicKey, head.length);
  raw.set(checksum(raw.subarray(0, head.length + PUBLIC_KEY_LENGTH)), head.length + PUBLIC_KEY_LENGTH);
  return base58.encode(raw);
}

export interface Ss58DecodeOptions {
  /** Refuse addresses made for another network. Any prefix is accepted when absent. */
  prefix?: number;
  /** Name used in error messages (e.g. `payload.validator_hotkey`). Default `address`. */
  argument?: string;
}

/** The prefix an ss58 address was encoded with, and the 32-byte public key it carries. */
export function ss58DecodeWithPrefix(
  address: string,
  options: Ss58DecodeOptions = {},
): { publicKey: Uint8Array; prefix: number } {
  const argument = options.argument ?? 'address';
  if (typeof address !== 'string') throw new Ss58Error(argument, 'type', 'expected an ss58 address string');
  if (!BASE58_RE.test(address)) {
    throw new Ss58Error(argument, 'alphabet', 'not an ss58 address: characters outside the base58 alphabet');
  }
  const raw = base58.decode(address);
  const first = raw[0] ?? 0;
  const prefixLength = first & 0b0100_0000 ? 2 : 1;
  if (raw.length !== prefixLength + PUBLIC_KEY_LENGTH + CHECKSUM_LENGTH) {
    throw new Ss58Error(
      argument,
      'length',
      `not an ss58 account address: decodes to ${raw.length} bytes, expected ${prefixLength + PUBLIC_KEY_LENGTH + CHECKSUM_LENGTH}`,
    );
  }
  if (first & 0b1000_0000 || RESERVED_PREFIXES.has(first)) {
    throw new Ss58Error(argument, 'prefix', 'not an ss58 address: reserved or invalid prefix byte');
  }
  const second = raw[1] ?? 0;
  const prefix =
    prefixLength === 1 ? first : ((first & 0b0011_1111) << 2) | (second >> 6) | ((second & 0b0011_1111) << 8);
  const body = raw.subarray(0, prefixLength + PUBLIC_KEY_LENGTH);
  const expected = checksum(body);
  if (raw[body.length] !== expected[0] || raw[body.length + 1] !== expected[1]) {
    throw new Ss58Error(argument, 'checksum', 'not an ss58 address: checksum mismatch');
  }
  if (options.prefix !== undefined && prefix !== options.prefix) {
    throw new Ss58Error(argument, 'prefix', `expected ss58 prefix ${options.prefix}, got ${prefix}`);
  }
  return { publicKey: raw.slice(prefixLength, prefixLength + PUBLIC_KEY_LENGTH), prefix };
}

/** The 32-byte public key in an ss58 address. Throws Ss58Error with a typed `reason`. */
export function ss58Decode(address: string, options: Ss58DecodeOptions = {}): Uint8Array {
  return ss58DecodeWithPrefix(address, options).publicKey;
}

/** True for a well-formed ss58 account address with the Bittensor prefix (or `prefix`). */
export function isValidHotkey(address: unknown, prefix: number = SS58_DEFAULT_PREFIX): boolean {
  if (typeof address !== 'string') return false;
  try {
    ss58Decode(address, { prefix });
    return true;
  } catch {
    return false;
  }
}
