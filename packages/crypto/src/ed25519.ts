import { randomBytes } from '@noble/hashes/utils';
import { defaultEd25519 } from '#ed25519-default';
import { SECRET_KEY_LENGTH, type Ed25519 } from './ed25519-contract.js';

/**
 * The implementation behind `sign`/`verify`/`getPublicKey`: node:crypto in Node, @noble/ed25519
 * elsewhere. The choice is made by package.json `imports` conditions, so a browser or edge bundle
 * never sees node:crypto.
 */
export const ed25519: Ed25519 = defaultEd25519;

/** A fresh 32-byte ed25519 seed from the platform CSPRNG (crypto.getRandomValues). */
export function generateSecretKey(): Uint8Array {
  return randomBytes(SECRET_KEY_LENGTH);
}

export function getPublicKey(secretKey: Uint8Array): Uint8Array {
  return defaultEd25519.getPublicKey(secretKey);
}

export function sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return defaultEd25519.sign(message, secretKey);
}

/** Never throws for a bad signature or key (false); throws CryptoInputError for non-byte arguments. */
export function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  return defaultEd25519.verify(signature, message, publicKey);
}
