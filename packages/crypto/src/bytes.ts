import { CryptoInputError } from './errors.js';

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

export function toHex(bytes: Uint8Array, argument = 'bytes'): string {
  if (!(bytes instanceof Uint8Array)) throw new CryptoInputError(argument, 'expected a Uint8Array');
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** Accepts upper or lower case and an optional `0x`; refuses odd lengths and non-hex characters. */
export function fromHex(hex: string, argument = 'hex'): Uint8Array {
  if (typeof hex !== 'string') throw new CryptoInputError(argument, 'expected a hex string');
  const digits = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (!HEX_RE.test(digits)) {
    throw new CryptoInputError(argument, 'expected an even number of hexadecimal digits');
  }
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** A 32-byte ed25519 seed written as 64 hex digits (how operators keep hotkey seeds in files). */
export function secretKeyFromHex(hex: string, argument = 'hex'): Uint8Array {
  const bytes = fromHex(hex, argument);
  if (bytes.length !== 32) {
    throw new CryptoInputError(argument, `expected 64 hex digits (a 32-byte ed25519 seed), got ${bytes.length * 2}`);
  }
  return bytes;
}

/**
 * Compares every byte whatever the inputs, so the time taken says nothing about where two
 * values first differ. Only the lengths leak, and callers compare fixed-length digests.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
