import { TypeRegistry } from '@polkadot/types';
import { u8aConcat, u8aToHex, hexToU8a, isHex } from '@polkadot/util';
import { encodeAddress, xxhashAsU8a } from '@polkadot/util-crypto';
import { StorageDecodeError } from './storage-decode-error.js';

/**
 * Storage layout of the subtensor pallet items Vigil reads (opentensor/subtensor,
 * pallets/subtensor/src/lib.rs), all keyed with the Identity hasher:
 *   SubnetworkN:     map NetUid → u16                       (number of uids on the subnet)
 *   Keys:            double_map (NetUid, u16 uid) → AccountId32 (the uid's hotkey)
 *   ValidatorPermit: map NetUid → Vec<bool>                  (indexed by uid)
 * NetUid is a transparent newtype over u16, so it SCALE-encodes as a little-endian u16.
 */
export const SUBTENSOR_PALLET = 'SubtensorModule';
export const SUBTENSOR_ITEMS = ['SubnetworkN', 'Keys', 'ValidatorPermit'] as const;
export type SubtensorItem = (typeof SUBTENSOR_ITEMS)[number];

/** Bittensor's ss58 address format (the generic Substrate prefix). */
export const BITTENSOR_SS58_PREFIX = 42;

const registry = new TypeRegistry();

function twox128(text: string): Uint8Array {
  return xxhashAsU8a(text, 128);
}

function u16Key(value: number, argument: string): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) {
    throw new RangeError(`${argument}: expected an integer 0-65535, got ${String(value)}`);
  }
  return registry.createType('u16', value).toU8a();
}

/** twox128(pallet) ++ twox128(item) ++ SCALE(u16) of each Identity-hashed key, as 0x-hex. */
export function subtensorStorageKey(item: SubtensorItem, ...keys: number[]): `0x${string}` {
  if (!SUBTENSOR_ITEMS.includes(item)) throw new RangeError(`item: unknown subtensor storage item ${String(item)}`);
  const parts = [twox128(SUBTENSOR_PALLET), twox128(item), ...keys.map((key, i) => u16Key(key, `keys[${i}]`))];
  return u8aToHex(u8aConcat(...parts)) as `0x${string}`;
}

export { StorageDecodeError };

function bytesOf(value: unknown, what: string): Uint8Array {
  if (typeof value !== 'string' || !isHex(value)) {
    throw new StorageDecodeError(`${what}: expected a 0x-hex SCALE value, got ${JSON.stringify(value)}`);
  }
  return hexToU8a(value);
}

export function decodeU16(value: unknown, what: string): number {
  const bytes = bytesOf(value, what);
  if (bytes.length !== 2) throw new StorageDecodeError(`${what}: expected 2 bytes (u16), got ${bytes.length}`);
  return registry.createType('u16', bytes).toNumber();
}

export function decodeBoolVec(value: unknown, what: string): boolean[] {
  const bytes = bytesOf(value, what);
  let decoded;
  try {
    decoded = registry.createType('Vec<bool>', bytes);
  } catch (error) {
    throw new StorageDecodeError(`${what}: not a SCALE Vec<bool>: ${(error as Error).message}`);
  }
  // A shorter or longer buffer than the encoding means this is not the item we asked for.
  if (decoded.encodedLength !== bytes.length) {
    throw new StorageDecodeError(`${what}: ${bytes.length} bytes but a Vec<bool> of ${decoded.length} takes ${decoded.encodedLength}`);
  }
  for (let i = 0; i < decoded.length; i += 1) {
    const byte = bytes[bytes.length - decoded.length + i];
    if (byte !== 0 && byte !== 1) throw new StorageDecodeError(`${what}: element ${i} is not a SCALE bool (byte ${byte})`);
  }
  return decoded.map((flag) => flag.isTrue);
}

export function decodeAccountId(value: unknown, what: string, ss58Prefix = BITTENSOR_SS58_PREFIX): string {
  const bytes = bytesOf(value, what);
  if (bytes.length !== 32) throw new StorageDecodeError(`${what}: expected 32 bytes (AccountId32), got ${bytes.length}`);
  return encodeAddress(registry.createType('AccountId32', bytes).toU8a(), ss58Prefix);
}
