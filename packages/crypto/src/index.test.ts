import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import { nativeEd25519 as unavailableNative } from './ed25519-native-unavailable.js';

describe('public API', () => {
  it('exports the names other packages were promised', () => {
    const functions = [
      'generateSecretKey',
      'getPublicKey',
      'sign',
      'verify',
      'ss58Encode',
      'ss58Decode',
      'isValidHotkey',
      'signAttestation',
      'verifyAttestation',
      'generateApiKey',
      'parseApiKey',
      'hashApiKeySecret',
      'verifyApiKeySecret',
      'buildSignedRequestMessage',
      'signRequest',
      'verifySignedRequest',
      'checkFreshness',
      'secretKeyFromHex',
      'toHex',
      'fromHex',
    ] as const;
    for (const name of functions) expect(typeof api[name], name).toBe('function');
    for (const error of [
      new api.CryptoInputError('x', 'y'),
      new api.Ss58Error('x', 'checksum', 'y'),
      new api.ApiKeyFormatError('x', 'y'),
      new api.HotkeyMismatchError('x', 'y'),
    ]) {
      expect(error).toBeInstanceOf(Error);
      expect(error.argument).toBe('x');
    }
    expect(api.SIGNED_REQUEST_DOMAIN).toBe('vigil-request-v1');
    expect(api.portableEd25519.name).toBe('portable');
    expect(api.nativeEd25519.name).toBe('native');
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
