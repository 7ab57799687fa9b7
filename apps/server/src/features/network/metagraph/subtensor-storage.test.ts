import { describe, expect, it } from 'vitest';
import { SUBTENSOR_MODULE_PREFIX, standInKey } from './test-support/stand-in-subtensor.js';
import {
  StorageDecodeError,
  decodeAccountId,
  decodeBoolVec,
  decodeU16,
  subtensorStorageKey,
} from './subtensor-storage.js';

// The well-known Substrate development account Alice.
const ALICE_PUBLIC_KEY = '0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
const ALICE_SS58 = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

describe('subtensorStorageKey', () => {
  it('lays keys out as twox128(pallet) ++ twox128(item) ++ little-endian u16 keys', () => {
    expect(subtensorStorageKey('SubnetworkN', 76)).toBe(standInKey('SubnetworkN', 76));
    expect(subtensorStorageKey('ValidatorPermit', 76)).toBe(standInKey('ValidatorPermit', 76));
    const keys = subtensorStorageKey('Keys', 76, 300);
    expect(keys).toBe(standInKey('Keys', 76, 300));
    expect(keys.startsWith(`0x${SUBTENSOR_MODULE_PREFIX}`)).toBe(true);
    // 16 + 16 bytes of hashes, then 76 = 0x004c and 300 = 0x012c, little-endian, unhashed.
    expect(keys).toHaveLength(2 + 2 * (32 + 4));
    expect(keys.endsWith('4c002c01')).toBe(true);
  });

  it('rejects keys that are not u16 and names the argument', () => {
    expect(() => subtensorStorageKey('Keys', 76, 65_536)).toThrow(/keys\[1\]/);
    expect(() => subtensorStorageKey('Keys', -1, 0)).toThrow(/keys\[0\]/);
  });
});

describe('SCALE decoding of storage values', () => {
  it('decodes u16, Vec<bool> and AccountId32 (as ss58 prefix 42)', () => {
    expect(decodeU16('0x4c00', 'n')).toBe(76);
    expect(decodeU16('0x2c01', 'n')).toBe(300);
    expect(decodeBoolVec('0x0c010001', 'permits')).toEqual([true, false, true]);
    expect(decodeBoolVec('0x00', 'permits')).toEqual([]);
    expect(decodeAccountId(ALICE_PUBLIC_KEY, 'hotkey')).toBe(ALICE_SS58);
  });

  it('decodes a Vec<bool> longer than 63 elements (two-byte compact length)', () => {
    const flags = Array.from({ length: 300 }, (_, i) => i % 7 === 0);
    const value = `0x${'b104'}${flags.map((f) => (f ? '01' : '00')).join('')}`;
    expect(decodeBoolVec(value, 'permits')).toEqual(flags);
  });

  it('rejects values whose length does not match the type, naming the item', () => {
    expect(() => decodeU16('0x4c', 'SubnetworkN(76)')).toThrow(StorageDecodeError);
    expect(() => decodeU16('0x4c', 'SubnetworkN(76)')).toThrow(/SubnetworkN\(76\): expected 2 bytes/);
    expect(() => decodeBoolVec('0x0c0100', 'permits')).toThrow(/permits/);
    expect(() => decodeBoolVec('0x0401ff', 'permits')).toThrow(/permits/);
    expect(() => decodeBoolVec('0x0402', 'permits')).toThrow(/not a SCALE bool/);
    expect(() => decodeAccountId(ALICE_PUBLIC_KEY.slice(0, -2), 'Keys(76, 3)')).toThrow(/Keys\(76, 3\): expected 32 bytes/);
    expect(() => decodeAccountId('not hex', 'Keys(76, 3)')).toThrow(/0x-hex/);
  });
});
