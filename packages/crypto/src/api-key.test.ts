import { describe, expect, it } from 'vitest';
import { sha256Hex } from '@vigil/core';
import { generateApiKey, hashApiKeySecret, parseApiKey, verifyApiKeySecret } from './api-key.js';
import { ApiKeyFormatError, CryptoInputError } from './errors.js';

const ID = '0a1b2c3d';
const SECRET = '00112233445566778899aabbccddeeff0011223344556677';

describe('API keys', () => {
  it('generates vgl_<8 hex>_<48 hex> tokens that parse back into their parts', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const key = generateApiKey();
      expect(key.token).toMatch(/^vgl_[0-9a-f]{8}_[0-9a-f]{48}$/);
      expect(key.token).toBe(`vgl_${key.keyId}_${key.secret}`);
      expect(parseApiKey(key.token)).toEqual({ keyId: key.keyId, secret: key.secret });
      seen.add(key.secret);
    }
    expect(seen.size).toBe(50);
  });

  it('supports another prefix, and refuses a prefix that could break the format', () => {
    const key = generateApiKey('vgltest');
    expect(key.token.startsWith('vgltest_')).toBe(true);
    expect(parseApiKey(key.token, 'vgltest').keyId).toBe(key.keyId);
    expect(() => parseApiKey(key.token)).toThrow(ApiKeyFormatError);
    for (const prefix of ['', 'v_g', 'VGL', '1vgl', 'vg.l']) {
      expect(() => generateApiKey(prefix)).toThrow(CryptoInputError);
      expect(() => generateApiKey(prefix)).toThrow(/^prefix:/);
    }
  });

  it.each([
    ['wrong prefix', `vgk_${ID}_${SECRET}`],
    ['no prefix', `${ID}_${SECRET}`],
    ['uppercase prefix', `VGL_${ID}_${SECRET}`],
    ['uppercase key id', `vgl_${ID.toUpperCase()}_${SECRET}`],
    ['uppercase secret', `vgl_${ID}_${SECRET.toUpperCase()}`],
    ['short key id', `vgl_${ID.slice(1)}_${SECRET}`],
    ['long key id', `vgl_${ID}0_${SECRET}`],
    ['short secret', `vgl_${ID}_${SECRET.slice(1)}`],
    ['long secret', `vgl_${ID}_${SECRET}0`],
    ['non-hex key id', `vgl_0a1b2c3g_${SECRET}`],
    ['extra part', `vgl_${ID}_${SECRET}_00`],
    ['missing part', `vgl_${SECRET}`],
    ['dash separators', `vgl-${ID}-${SECRET}`],
    ['surrounding space', ` vgl_${ID}_${SECRET}`],
    ['trailing newline', `vgl_${ID}_${SECRET}\n`],
    ['Bearer scheme left in', `Bearer vgl_${ID}_${SECRET}`],
    ['empty', ''],
  ])('refuses a token with %s as malformed', (_case, token) => {
    let caught: unknown;
    try {
      parseApiKey(token);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiKeyFormatError);
    expect((caught as ApiKeyFormatError).argument).toBe('token');
    expect((caught as Error).message).toMatch(/^token: malformed api key/);
    // The token carries a secret: it must never end up in an error message (and so in logs).
    expect((caught as Error).message).not.toContain(SECRET.slice(0, 16));
  });

  it('refuses non-string tokens as malformed', () => {
    expect(() => parseApiKey(undefined as unknown as string)).toThrow(ApiKeyFormatError);
    expect(() => parseApiKey(42 as unknown as string)).toThrow(ApiKeyFormatError);
  });

  it('stores the secret as its SHA-256 and verifies it', () => {
    const stored = hashApiKeySecret(SECRET);
    expect(stored).toBe(sha256Hex(SECRET));
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyApiKeySecret(SECRET, stored)).toBe(true);
  });

  it('does not verify another secret, a malformed secret or a malformed stored hash', () => {
    const stored = hashApiKeySecret(SECRET);
    const other = `${SECRET.slice(0, -1)}8`;
    expect(verifyApiKeySecret(other, stored)).toBe(false);
    expect(verifyApiKeySecret(SECRET.toUpperCase(), stored)).toBe(false);
    expect(verifyApiKeySecret('', stored)).toBe(false);
    expect(verifyApiKeySecret(SECRET, stored.toUpperCase())).toBe(false);
    expect(verifyApiKeySecret(SECRET, stored.slice(1))).toBe(false);
    expect(verifyApiKeySecret(SECRET, '')).toBe(false);
    expect(verifyApiKeySecret(SECRET, null as unknown as string)).toBe(false);
    expect(verifyApiKeySecret(undefined as unknown as string, stored)).toBe(false);
  });

  it('refuses to hash something that is not a secret', () => {
    expect(() => hashApiKeySecret(SECRET.slice(2))).toThrow(ApiKeyFormatError);
    expect(() => hashApiKeySecret(`vgl_${ID}_${SECRET}`)).toThrow(/^secret:/);
  });
});
