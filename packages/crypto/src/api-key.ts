import { sha256Hex } from '@vigil/core';
import { randomBytes } from '@noble/hashes/utils';
import { constantTimeEqual, toHex } from './bytes.js';
import { ApiKeyFormatError, CryptoInputError } from './errors.js';

/** DESIGN.md: `vgl_<8 hex key id>_<48 hex secret>`. */
export const API_KEY_PREFIX = 'vgl';
const KEY_ID_BYTES = 4;
const SECRET_BYTES = 24;
const PREFIX_RE = /^[a-z][a-z0-9]*$/;
const SECRET_RE = /^[0-9a-f]{48}$/;
const STORED_HASH_RE = /^[0-9a-f]{64}$/;

export interface ApiKeyParts {
  /** 8 lowercase hex: the lookup key, safe to log and store in clear. */
  keyId: string;
  /** 48 lowercase hex (192 random bits): shown once, stored only as hashApiKeySecret(secret). */
  secret: string;
}

export interface GeneratedApiKey extends ApiKeyParts {
  token: string;
}

function assertPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || !PREFIX_RE.test(prefix)) {
    throw new CryptoInputError('prefix', 'expected lowercase letters and digits, starting with a letter');
  }
}

export function generateApiKey(prefix: string = API_KEY_PREFIX): GeneratedApiKey {
  assertPrefix(prefix);
  const keyId = toHex(randomBytes(KEY_ID_BYTES));
  const secret = toHex(randomBytes(SECRET_BYTES));
  return { token: `${prefix}_${keyId}_${secret}`, keyId, secret };
}

/** Splits a token into key id and secret; anything not exactly the format is ApiKeyFormatError. */
export function parseApiKey(token: string, prefix: string = API_KEY_PREFIX): ApiKeyParts {
  assertPrefix(prefix);
  const expected = `expected ${prefix}_<8 lowercase hex>_<48 lowercase hex>`;
  if (typeof token !== 'string') throw new ApiKeyFormatError('token', expected);
  const match = new RegExp(`^${prefix}_([0-9a-f]{8})_([0-9a-f]{48})$`).exec(token);
  if (!match || match[1] === undefined || match[2] === undefined) throw new ApiKeyFormatError('token', expected);
  return { keyId: match[1], secret: match[2] };
}

/**
 * The stored form of a secret: SHA-256 hex. A fast hash is enough here (no salt, no KDF) because
 * the secret is 192 bits from a CSPRNG, not a password: there is no dictionary to try.
 */
export function hashApiKeySecret(secret: string): string {
  if (typeof secret !== 'string' || !SECRET_RE.test(secret)) {
    throw new ApiKeyFormatError('secret', 'expected 48 lowercase hex characters');
  }
  return sha256Hex(secret);
}

/** Constant-time check of a presented secret against its stored hash; false for any bad input. */
export function verifyApiKeySecret(secret: string, storedHash: string): boolean {
  if (typeof secret !== 'string' || typeof storedHash !== 'string' || !STORED_HASH_RE.test(storedHash)) {
    return false;
  }
  const encoder = new TextEncoder();
  // Hash whatever was presented (even malformed) so timing does not reveal the format check.
  const presented = encoder.encode(sha256Hex(secret));
  const equal = constantTimeEqual(presented, encoder.encode(storedHash));
  return equal && SECRET_RE.test(secret);
}
