import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HEADERS, LIMITS, sha256Hex } from '@vigil/core';
import vector from './test-vectors/signed-request.json' with { type: 'json' };
import { fromHex, secretKeyFromHex, toHex } from './bytes.js';
import { nativeEd25519 } from './ed25519-native.js';
import { portableEd25519 } from './ed25519-portable.js';
import { CryptoInputError } from './errors.js';
import { ss58Decode } from './ss58.js';
import {
  SIGNED_REQUEST_DOMAIN,
  SIGNED_REQUEST_WINDOW_SECONDS,
  buildSignedRequestMessage,
  checkFreshness,
  signRequest,
  signedRequestHeaders,
  verifySignedRequest,
} from './signed-request.js';

const secretKey = secretKeyFromHex(vector.secretKey);
const AUD = vector.audience;
const request = {
  audience: vector.audience,
  method: vector.method,
  pathWithQuery: vector.pathWithQuery,
  timestamp: vector.timestamp,
  body: vector.body,
};

describe('signed-request vector', () => {
  it('builds exactly the checked-in message', () => {
    const message = buildSignedRequestMessage({ ...request, hotkey: vector.hotkey });
    expect(toHex(message)).toBe(vector.messageHex);
    expect(new TextDecoder().decode(message)).toBe(vector.messageText);
    expect(vector.messageText.split('\n')).toEqual([
      SIGNED_REQUEST_DOMAIN,
      vector.audience,
      vector.hotkey,
      'POST',
      vector.pathWithQuery,
      String(vector.timestamp),
      vector.bodySha256,
    ]);
    expect(sha256Hex(vector.body)).toBe(vector.bodySha256);
  });

  it('signs to the checked-in signature and hotkey', () => {
    expect(signRequest({ ...request, secretKey })).toEqual({
      hotkey: vector.hotkey,
      timestamp: vector.timestamp,
      signature: vector.signature,
    });
    expect(toHex(ss58Decode(vector.hotkey))).toBe(vector.publicKey);
  });

  it('is the worked example of docs/crypto.md', () => {
    const docs = readFileSync(new URL('../../../docs/crypto.md', import.meta.url), 'utf8');
    for (const value of [vector.secretKey, vector.publicKey, vector.hotkey, vector.audience, vector.pathWithQuery, vector.body, vector.bodySha256, vector.signature, String(vector.timestamp)]) {
      expect(docs).toContain(value);
    }
    expect(docs).toContain(`The message is ${fromHex(vector.messageHex).length} bytes`);
  });

  it('verifies with both implementations, and the portable one signs it identically', () => {
    const message = fromHex(vector.messageHex);
    const publicKey = fromHex(vector.publicKey);
    expect(portableEd25519.verify(fromHex(vector.signature), message, publicKey)).toBe(true);
    expect(nativeEd25519.verify(fromHex(vector.signature), message, publicKey)).toBe(true);
    expect(toHex(portableEd25519.sign(message, secretKey))).toBe(vector.signature);
    expect(verifySignedRequest({ ...request, hotkey: vector.hotkey, signature: vector.signature })).toBe(true);
  });
});

describe('buildSignedRequestMessage', () => {
  it('uppercases the method and hashes an absent body as empty', () => {
    const text = new TextDecoder().decode(
      buildSignedRequestMessage({ audience: 'staging-eu', hotkey: vector.hotkey, method: 'get', pathWithQuery: '/v1/rounds?limit=5', timestamp: 0 }),
    );
    expect(text).toBe(
      `vigil-request-v2\nstaging-eu\n${vector.hotkey}\nGET\n/v1/rounds?limit=5\n0\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855`,
    );
    const empty = (body: Uint8Array | string | null | undefined) =>
      toHex(buildSignedRequestMessage({ audience: AUD, hotkey: vector.hotkey, method: 'DELETE', pathWithQuery: '/v1/x', timestamp: 1, body }));
    expect(empty(undefined)).toBe(empty(null));
    expect(empty('')).toBe(empty(new Uint8Array(0)));
    expect(empty('')).toBe(empty(undefined));
  });

  it('hashes a string body as its UTF-8 bytes', () => {
    const body = '{"title":"café ☕"}';
    const base = { audience: AUD, hotkey: vector.hotkey, method: 'POST', pathWithQuery: '/a', timestamp: 5 };
    const a = buildSignedRequestMessage({ ...base, body });
    const b = buildSignedRequestMessage({ ...base, body: new TextEncoder().encode(body) });
    expect(toHex(a)).toBe(toHex(b));
  });

  it.each([
    [{ method: 'PO ST' }, 'method'],
    [{ method: '' }, 'method'],
    [{ pathWithQuery: 'v1/rounds' }, 'pathWithQuery'],
    [{ pathWithQuery: 'https://vigil.example/v1/rounds' }, 'pathWithQuery'],
    [{ pathWithQuery: '/v1/rounds\n1700000000' }, 'pathWithQuery'],
    [{ pathWithQuery: '/v1/a b' }, 'pathWithQuery'],
    [{ timestamp: 1.5 }, 'timestamp'],
    [{ timestamp: -1 }, 'timestamp'],
    [{ timestamp: '1700000000' }, 'timestamp'],
    [{ body: 42 }, 'body'],
    [{ audience: '' }, 'audience'],
    [{ audience: 'prod\nPOST' }, 'audience'],
    [{ audience: 'a'.repeat(129) }, 'audience'],
    [{ hotkey: 'x y' }, 'hotkey'],
  ])('refuses %o, naming %s', (change, argument) => {
    const input = { audience: AUD, hotkey: vector.hotkey, method: 'POST', pathWithQuery: '/v1/x', timestamp: 1_700_000_000, body: '', ...change };
    let caught: unknown;
    try {
      buildSignedRequestMessage(input as Parameters<typeof buildSignedRequestMessage>[0]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CryptoInputError);
    expect((caught as CryptoInputError).argument).toBe(argument);
  });
});

describe('signRequest / verifySignedRequest', () => {
  const signed = signRequest({ ...request, secretKey });
  const received = { ...request, hotkey: signed.hotkey, timestamp: signed.timestamp, signature: signed.signature };

  it('verifies the untouched request, with the timestamp as number or header text', () => {
    expect(verifySignedRequest(received)).toBe(true);
    expect(verifySignedRequest({ ...received, timestamp: String(signed.timestamp) })).toBe(true);
    expect(verifySignedRequest({ ...received, method: 'post' })).toBe(true);
    expect(verifySignedRequest({ ...received, body: new TextEncoder().encode(vector.body) })).toBe(true);
  });

  it.each([
    ['method', { method: 'PUT' }],
    ['audience (another deployment)', { audience: 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff' }],
    ['audience (a deployment id)', { audience: 'production' }],
    ['path', { pathWithQuery: '/v1/validators/tasks/claims' }],
    ['query added', { pathWithQuery: '/v1/validators/tasks/claim?max=10' }],
    ['body', { body: vector.body.replace('skills', 'packages') }],
    ['body emptied', { body: undefined }],
    ['timestamp', { timestamp: vector.timestamp + 1 }],
    ['timestamp text with a leading zero', { timestamp: `0${vector.timestamp}` }],
    ['timestamp text with a fraction', { timestamp: `${vector.timestamp}.0` }],
    ['hotkey of another key', { hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY' }],
    ['hotkey with a bad checksum', { hotkey: `${vector.hotkey.slice(0, -1)}Z` }],
    ['signature uppercased', { signature: vector.signature.toUpperCase() }],
    ['signature truncated', { signature: vector.signature.slice(2) }],
    ['signature of another message', { signature: signRequest({ ...request, timestamp: 1, secretKey }).signature }],
  ])('refuses a request whose %s changed', (_case, change) => {
    expect(verifySignedRequest({ ...received, ...change } as Parameters<typeof verifySignedRequest>[0])).toBe(false);
  });

  it('never throws on hostile header values', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.oneof(fc.string(), fc.double()), fc.string(), (hotkey, signature, timestamp, path) => {
        expect(verifySignedRequest({ audience: AUD, method: 'GET', pathWithQuery: path, hotkey, signature, timestamp })).toBe(false);
      }),
    );
  });

  it('round-trips any request signed with any key', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        fc.stringMatching(/^\/[\x21-\x7e]{0,40}$/),
        fc.nat({ max: 4_000_000_000 }),
        fc.uint8Array({ maxLength: 256 }),
        (key, method, pathWithQuery, timestamp, body) => {
          const s = signRequest({ audience: AUD, method, pathWithQuery, body, secretKey: key, timestamp });
          expect(verifySignedRequest({ audience: AUD, method, pathWithQuery, body, ...s })).toBe(true);
          expect(verifySignedRequest({ audience: `${AUD}0`, method, pathWithQuery, body, ...s })).toBe(false);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('uses the current time when no timestamp is given', () => {
    const before = Math.floor(Date.now() / 1000);
    const s = signRequest({ audience: AUD, method: 'GET', pathWithQuery: '/v1/x', secretKey });
    expect(s.timestamp).toBeGreaterThanOrEqual(before);
    expect(s.timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('puts the signature in the three core headers', () => {
    expect(signedRequestHeaders(signed)).toEqual({
      [HEADERS.signedHotkey]: vector.hotkey,
      [HEADERS.signedTimestamp]: String(vector.timestamp),
      [HEADERS.signedSignature]: vector.signature,
    });
  });

  it('refuses a bad secret key, naming it', () => {
    expect(() => signRequest({ ...request, secretKey: new Uint8Array(64) })).toThrow(/^secretKey:/);
  });
});

describe('checkFreshness', () => {
  const now = 1_767_225_600;

  it('accepts up to 120 s either side and nothing beyond', () => {
    expect(SIGNED_REQUEST_WINDOW_SECONDS).toBe(LIMITS.signatureFreshnessSeconds);
    expect(checkFreshness(now, now)).toBe(true);
    expect(checkFreshness(now - 120, now)).toBe(true);
    expect(checkFreshness(now + 120, now)).toBe(true);
    expect(checkFreshness(now - 121, now)).toBe(false);
    expect(checkFreshness(now + 121, now)).toBe(false);
  });

  it('honours another window and refuses non-numbers', () => {
    expect(checkFreshness(now - 300, now, 300)).toBe(true);
    expect(checkFreshness(now - 301, now, 300)).toBe(false);
    expect(checkFreshness(Number.NaN, now)).toBe(false);
    expect(checkFreshness(now, Number.POSITIVE_INFINITY)).toBe(false);
  });
});
