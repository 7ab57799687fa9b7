import { base58Decode } from '@polkadot/util-crypto/base58';
import { checkAddressChecksum } from '@polkadot/util-crypto/address/checksum';
import { decodeAddress } from '@polkadot/util-crypto/address/decode';
import { encodeAddress } from '@polkadot/util-crypto/address/encode';
import { CryptoInputError, Ss58Error } from './errors.js';
import { PUBLIC_KEY_LENGTH } from './ed25519-contract.js';

// Subpath imports on purpose: the @polkadot/util-crypto root starts loading its WASM on import.
// Address encoding needs only base58 and blake2b, which it computes in JS synchronously.

/** Substrate's generic prefix, the one Bittensor hotkeys use. */
export const SS58_DEFAULT_PREFIX = 42;

const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]+$/;
// Prefixes 46 and 47 are reserved by the ss58 registry; above 16383 does not fit two bytes.
const RESERVED_PREFIXES = new Set([46, 47]);

function assertPrefix(prefix: number, argument: string): void {
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 16383 || RESERVED_PREFIXES.has(prefix)) {
    throw new CryptoInputError(argument, `expected an ss58 prefix in 0..16383 other than 46 and 47, got ${String(prefix)}`);
  }
}

export function ss58Encode(publicKey: Uint8Array, prefix: number = SS58_DEFAULT_PREFIX): string {
  if (!(publicKey instanceof Uint8Array)) throw new CryptoInputError('publicKey', 'expected a Uint8Array');
  if (publicKey.length !== PUBLIC_KEY_LENGTH) {
    throw new CryptoInputError('publicKey', `expected ${PUBLIC_KEY_LENGTH} bytes, got ${publicKey.length}`);
  }
  assertPrefix(prefix, 'prefix');
  return encodeAddress(publicKey, prefix);
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
  // Classified here rather than from @polkadot's messages so the reason is a stable, typed field.
  if (!BASE58_RE.test(address)) {
    throw new Ss58Error(argument, 'alphabet', 'not an ss58 address: characters outside the base58 alphabet');
  }
  const raw = base58Decode(address);
  const prefixLength = (raw[0] ?? 0) & 0b0100_0000 ? 2 : 1;
  if (raw.length !== prefixLength + PUBLIC_KEY_LENGTH + 2) {
    throw new Ss58Error(
      argument,
      'length',
      `not an ss58 account address: decodes to ${raw.length} bytes, expected ${prefixLength + PUBLIC_KEY_LENGTH + 2}`,
    );
  }
  const first = raw[0] ?? 0;
  if (first & 0b1000_0000 || RESERVED_PREFIXES.has(first)) {
    throw new Ss58Error(argument, 'prefix', 'not an ss58 address: reserved or invalid prefix byte');
  }
  const [checksumOk, , , prefix] = checkAddressChecksum(raw);
  if (!checksumOk) throw new Ss58Error(argument, 'checksum', 'not an ss58 address: checksum mismatch');
  if (options.prefix !== undefined && prefix !== options.prefix) {
    throw new Ss58Error(argument, 'prefix', `expected ss58 prefix ${options.prefix}, got ${prefix}`);
  }
  const publicKey = decodeAddress(address);
  return { publicKey: Uint8Array.from(publicKey), prefix };
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
