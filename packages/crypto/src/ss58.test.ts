import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base58Decode, base58Encode } from '@polkadot/util-crypto/base58';
import { checkAddressChecksum } from '@polkadot/util-crypto/address/checksum';
import { decodeAddress } from '@polkadot/util-crypto/address/decode';
import { encodeAddress } from '@polkadot/util-crypto/address/encode';
import { fromHex, toHex } from './bytes.js';
import { CryptoInputError, Ss58Error, type Ss58ErrorReason } from './errors.js';
import { isValidHotkey, ss58Decode, ss58DecodeWithPrefix, ss58Encode } from './ss58.js';

const ALICE_PUBLIC_KEY = 'd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

function ss58Failure(address: unknown, argument?: string): { reason: Ss58ErrorReason; argument: string; message: string } {
  try {
    ss58Decode(address as string, argument === undefined ? {} : { argument });
  } catch (error) {
    expect(error).toBeInstanceOf(Ss58Error);
    const e = error as Ss58Error;
    return { reason: e.reason, argument: e.argument, message: e.message };
  }
  throw new Error(`expected ${String(address)} to be refused`);
}

describe('ss58', () => {
  it("encodes and decodes Alice's well-known key (prefix 42)", () => {
    expect(ss58Encode(fromHex(ALICE_PUBLIC_KEY))).toBe(ALICE);
    expect(ss58Encode(fromHex(ALICE_PUBLIC_KEY), 42)).toBe(ALICE);
    expect(toHex(ss58Decode(ALICE))).toBe(ALICE_PUBLIC_KEY);
    expect(ss58DecodeWithPrefix(ALICE).prefix).toBe(42);
    expect(isValidHotkey(ALICE)).toBe(true);
  });

  it('round-trips any 32-byte key under any usable prefix', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 16383 }).filter((p) => p !== 46 && p !== 47),
        (key, prefix) => {
          const address = ss58Encode(key, prefix);
          expect(ss58DecodeWithPrefix(address)).toEqual({ publicKey: key, prefix });
        },
      ),
      { numRuns: 200 },
    );
  });

  // @polkadot/util-crypto is the reference implementation (and what the server's metagraph reader
  // uses): the browser-light implementation must agree with it on every address, valid or not.
  it('encodes exactly as @polkadot/util-crypto for any key and prefix', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.oneof(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 64, max: 16383 })).filter((p) => p !== 46 && p !== 47),
        (key, prefix) => {
          expect(ss58Encode(key, prefix)).toBe(encodeAddress(key, prefix));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses a 35-byte address with a 1-byte checksum, which polkadot decodes to a 32-byte key (found by this property)', () => {
    expect(() => ss58DecodeWithPrefix('8V5rDULB29t68pBH3FxuWGb5MCuXuwfUbVUmGtymJQPEc8JN')).toThrow(Ss58Error);
  });

  it('accepts and refuses exactly the account addresses @polkadot/util-crypto does', () => {
    const polkadotDecode = (address: string): { publicKey: Uint8Array; prefix: number } | null => {
      try {
        const raw = base58Decode(address);
        const [valid, , prefixLength, prefix] = checkAddressChecksum(raw);
        const publicKey = decodeAddress(address);
        // Vigil takes account addresses only: a 32-byte key with ss58's 2-byte checksum. polkadot
        // also decodes a 2-byte-prefix address of 35 bytes (a 1-byte checksum, the short-address
        // form) to 32 bytes; ss58 gives account IDs a 2-byte checksum, so that is no account address.
        const accountForm = raw.length === prefixLength + 32 + 2;
        return valid && accountForm && publicKey.length === 32 ? { publicKey: Uint8Array.from(publicKey), prefix } : null;
      } catch {
        return null;
      }
    };
    const ours = (address: string): { publicKey: Uint8Array; prefix: number } | null => {
      try {
        return ss58DecodeWithPrefix(address);
      } catch (error) {
        expect(error).toBeInstanceOf(Ss58Error);
        return null;
      }
    };
    // Valid addresses with one byte flipped (checksum, prefix or key), random byte strings of
    // address-like lengths, and untouched valid addresses.
    const address = fc
      .tuple(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 16383 }).filter((p) => p !== 46 && p !== 47),
      )
      .map(([key, prefix]) => encodeAddress(key, prefix));
    const mutated = fc
      .tuple(address, fc.nat(), fc.integer({ min: 1, max: 255 }))
      .map(([valid, at, xor]) => {
        const raw = base58Decode(valid);
        const i = at % raw.length;
        raw[i] = (raw[i] ?? 0) ^ xor;
        return base58Encode(raw);
      });
    const random = fc.uint8Array({ minLength: 33, maxLength: 37 }).map((raw) => base58Encode(raw));
    fc.assert(
      fc.property(fc.oneof(address, mutated, random), (candidate) => {
        expect(ours(candidate)).toEqual(polkadotDecode(candidate));
      }),
      { numRuns: 2000 },
    );
  });

  it('names a bad checksum', () => {
    const failure = ss58Failure(`${ALICE.slice(0, -1)}Z`);
    expect(failure).toMatchObject({ reason: 'checksum', argument: 'address' });
    expect(failure.message).toMatch(/^address: .*checksum/);
  });

  it('names a bad length', () => {
    expect(ss58Failure(ALICE.slice(0, -2)).reason).toBe('length');
    expect(ss58Failure(`${ALICE}1`).reason).toBe('length');
    // Short-form account indices are valid ss58 but carry no public key.
    expect(ss58Failure(base58Encode(Uint8Array.of(42, 1, 2, 3))).reason).toBe('length');
    expect(ss58Failure('').reason).toBe('alphabet');
  });

  it('names characters outside the base58 alphabet', () => {
    for (const bad of [`${ALICE.slice(0, -1)}0`, `${ALICE.slice(0, -1)}O`, `${ALICE.slice(0, -1)}I`, `${ALICE.slice(0, -1)}l`, `0x${ALICE_PUBLIC_KEY}`, ` ${ALICE}`]) {
      expect(ss58Failure(bad).reason).toBe('alphabet');
    }
  });

  it('names a wrong or reserved prefix', () => {
    const polkadot = ss58Encode(fromHex(ALICE_PUBLIC_KEY), 0);
    expect(toHex(ss58Decode(polkadot))).toBe(ALICE_PUBLIC_KEY);
    const failure = (() => {
      try {
        ss58Decode(polkadot, { prefix: 42, argument: 'hotkey' });
      } catch (error) {
        return error as Ss58Error;
      }
      return null;
    })();
    expect(failure).toMatchObject({ reason: 'prefix', argument: 'hotkey' });
    expect(isValidHotkey(polkadot)).toBe(false);
    expect(isValidHotkey(polkadot, 0)).toBe(true);
    const reserved = base58Decode(ALICE);
    reserved[0] = 46;
    expect(ss58Failure(base58Encode(reserved)).reason).toBe('prefix');
  });

  it('refuses non-strings with reason type and names the caller-chosen argument', () => {
    expect(ss58Failure(42, 'payload.validator_hotkey')).toMatchObject({
      reason: 'type',
      argument: 'payload.validator_hotkey',
    });
    expect(isValidHotkey(undefined)).toBe(false);
  });

  it('refuses to encode anything but a 32-byte key or a usable prefix', () => {
    expect(() => ss58Encode(new Uint8Array(33))).toThrow(CryptoInputError);
    expect(() => ss58Encode(new Uint8Array(32), 46)).toThrow(/^prefix:/);
    expect(() => ss58Encode(new Uint8Array(32), 16384)).toThrow(/^prefix:/);
    expect(() => ss58Encode(ALICE_PUBLIC_KEY as unknown as Uint8Array)).toThrow(/^publicKey:/);
  });
});
