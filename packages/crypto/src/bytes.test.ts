import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { constantTimeEqual, fromHex, secretKeyFromHex, toHex } from './bytes.js';
import { CryptoInputError } from './errors.js';

function argumentOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoInputError);
    return (error as CryptoInputError).argument;
  }
  return undefined;
}

describe('hex', () => {
  it('round-trips any bytes as lowercase hex', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const hex = toHex(bytes);
        expect(hex).toMatch(/^(?:[0-9a-f]{2})*$/);
        expect(fromHex(hex)).toEqual(bytes);
        expect(fromHex(`0x${hex.toUpperCase()}`)).toEqual(bytes);
      }),
    );
  });

  it('refuses odd lengths, non-hex characters and non-strings, naming the argument', () => {
    expect(argumentOf(() => fromHex('abc'))).toBe('hex');
    expect(argumentOf(() => fromHex('zz', 'signature'))).toBe('signature');
    expect(argumentOf(() => fromHex(' 00'))).toBe('hex');
    expect(argumentOf(() => fromHex(12 as unknown as string))).toBe('hex');
    expect(argumentOf(() => toHex('00' as unknown as Uint8Array))).toBe('bytes');
  });

  it('reads a 32-byte seed from 64 hex digits and nothing else', () => {
    expect(secretKeyFromHex('11'.repeat(32))).toEqual(new Uint8Array(32).fill(0x11));
    expect(argumentOf(() => secretKeyFromHex('11'.repeat(31)))).toBe('hex');
    expect(argumentOf(() => secretKeyFromHex('11'.repeat(64), 'VIGIL_HOTKEY_SEED'))).toBe('VIGIL_HOTKEY_SEED');
  });
});

describe('constantTimeEqual', () => {
  it('is equality of bytes, including length', () => {
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([]), new Uint8Array([0]))).toBe(false);
    fc.assert(
      fc.property(fc.uint8Array(), fc.uint8Array(), (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(toHex(a) === toHex(b));
      }),
    );
  });
});
