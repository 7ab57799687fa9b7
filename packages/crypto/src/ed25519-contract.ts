import { CryptoInputError } from './errors.js';

/** One ed25519 implementation: RFC 8032 keys (32-byte seed, 32-byte public key), 64-byte signatures. */
export interface Ed25519 {
  /** `native` (node:crypto) or `portable` (@noble/ed25519). */
  readonly name: 'native' | 'portable';
  /** False where the implementation cannot run (the native one outside Node). */
  readonly available: boolean;
  getPublicKey(secretKey: Uint8Array): Uint8Array;
  sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array;
  /** False for any signature or key that does not verify, whatever its length or content. */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

export const SECRET_KEY_LENGTH = 32;
export const PUBLIC_KEY_LENGTH = 32;
export const SIGNATURE_LENGTH = 64;

export function assertBytes(value: unknown, argument: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) throw new CryptoInputError(argument, 'expected a Uint8Array');
}

export function assertSecretKey(value: unknown, argument = 'secretKey'): asserts value is Uint8Array {
  assertBytes(value, argument);
  if (value.length !== SECRET_KEY_LENGTH) {
    throw new CryptoInputError(
      argument,
      `expected a ${SECRET_KEY_LENGTH}-byte ed25519 seed, got ${value.length} bytes`,
    );
  }
}

/**
 * Verification input check shared by both implementations: types are the caller's bug (thrown),
 * wrong lengths are just a signature that does not verify (false).
 */
export function verifiableInputs(signature: unknown, message: unknown, publicKey: unknown): boolean {
  assertBytes(signature, 'signature');
  assertBytes(message, 'message');
  assertBytes(publicKey, 'publicKey');
  return signature.length === SIGNATURE_LENGTH && publicKey.length === PUBLIC_KEY_LENGTH;
}
