import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import { nativeEd25519 as unavailableNative } from './ed25519-native-unavailable.js';

describe('public API, as another package uses it', () => {
  it('a key signs a request for one audience; the request verifies there and nowhere else', () => {
    const secretKey = api.generateSecretKey();
    const hotkey = api.ss58Encode(api.getPublicKey(secretKey));
    expect(api.isValidHotkey(hotkey)).toBe(true);
    const request = { audience: 'ab'.repeat(32), method: 'POST', pathWithQuery: '/v1/validators/tasks/claim', body: '{"max":1}' };
    const signed = api.signRequest({ ...request, secretKey });
    expect(signed.hotkey).toBe(hotkey);
    expect(api.verifySignedRequest({ ...request, ...signed })).toBe(true);
    expect(api.verifySignedRequest({ ...request, ...signed, audience: 'cd'.repeat(32) })).toBe(false);
    expect(api.checkFreshness(signed.timestamp, Math.floor(Date.now() / 1000))).toBe(true);
  });

  it('an API key round-trips: shown once, stored as a hash, checked against it', () => {
    const key = api.generateApiKey();
    const parts = api.parseApiKey(key.token);
    const stored = api.hashApiKeySecret(parts.secret);
    expect(stored).not.toContain(parts.secret);
    expect(api.verifyApiKeySecret(parts.secret, stored)).toBe(true);
    expect(api.verifyApiKeySecret('0'.repeat(48), stored)).toBe(false);
  });

  it('input errors name the argument at fault', () => {
    expect(() => api.parseApiKey('vgl_nope')).toThrow(api.ApiKeyFormatError);
    try {
      api.ss58Decode('not-an-address');
    } catch (error) {
      expect(error).toBeInstanceOf(api.Ss58Error);
      expect((error as InstanceType<typeof api.Ss58Error>).argument).toBe('address');
    }
    expect(() => api.fromHex('zz')).toThrow(api.CryptoInputError);
  });
});

describe('nativeEd25519 outside Node', () => {
  it('says what to use instead rather than failing obscurely', () => {
    expect(unavailableNative.available).toBe(false);
    expect(() => unavailableNative.sign(new Uint8Array(1), new Uint8Array(32))).toThrow(/use portableEd25519/);
    expect(() => unavailableNative.verify(new Uint8Array(64), new Uint8Array(1), new Uint8Array(32))).toThrow(
      /node:crypto is not available/,
    );
  });
});
