import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload, verifyWebhookSignature, WebhookSignatureError } from './index.js';

const secret = 'whsec_0123456789abcdef0123456789abcdef';
const body = '{"event":"verdict.changed","data":{"artifact":"pkg:npm/lodash@4.17.21","verdict":"BLOCK"}}';

describe('signWebhookPayload', () => {
  it('is HMAC-SHA-256 over "<timestamp>.<raw body>", written sha256=<lowercase hex>', () => {
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(signWebhookPayload(secret, 1700000000, body)).toBe(`sha256=${expected}`);
  });

  it('signs the exact bytes: string and Uint8Array bodies agree, any byte change differs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat({ max: 4_000_000_000 }), (bytes, ts) => {
        const a = signWebhookPayload(secret, ts, bytes);
        const flipped = bytes.slice();
        flipped[0] = flipped[0]! ^ 1;
        expect(signWebhookPayload(secret, ts, flipped)).not.toBe(a);
        const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${ts}.`), bytes])).digest('hex');
        expect(a).toBe(`sha256=${expected}`);
      }),
    );
  });

  it('names the argument on bad input', () => {
    expect(() => signWebhookPayload('', 1, body)).toThrow(/^secret:/);
    expect(() => signWebhookPayload(secret, 1.5, body)).toThrow(WebhookSignatureError);
    expect(() => signWebhookPayload(secret, -1, body)).toThrow(/^timestamp:/);
  });
});

describe('verifyWebhookSignature', () => {
  const now = 1_800_000_000;
  const signed = (s = secret, ts = now) => ({ timestamp: String(ts), signature: signWebhookPayload(s, ts, body) });

  it('accepts a fresh, correctly signed delivery', () => {
    expect(verifyWebhookSignature({ secrets: secret, rawBody: body, nowSeconds: now, ...signed() })).toEqual({ ok: true });
  });

  it('rejects a tampered body, a wrong secret and a re-serialized body', () => {
    const h = signed();
    expect(verifyWebhookSignature({ secrets: secret, rawBody: body.replace('BLOCK', 'ALLOW'), nowSeconds: now, ...h })).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(verifyWebhookSignature({ secrets: 'whsec_other', rawBody: body, nowSeconds: now, ...h })).toEqual({ ok: false, reason: 'signature_mismatch' });
    const reserialized = JSON.stringify(JSON.parse(body), null, 1);
    expect(verifyWebhookSignature({ secrets: secret, rawBody: reserialized, nowSeconds: now, ...h }).ok).toBe(false);
  });

  it('rejects timestamps more than 300 s from the receiver clock, either way', () => {
    for (const skew of [301, -301, 10_000]) {
      expect(verifyWebhookSignature({ secrets: secret, rawBody: body, nowSeconds: now, ...signed(secret, now - skew) })).toEqual({ ok: false, reason: 'stale_timestamp' });
    }
    for (const skew of [300, -300, 0]) {
      expect(verifyWebhookSignature({ secrets: secret, rawBody: body, nowSeconds: now, ...signed(secret, now - skew) }).ok).toBe(true);
    }
  });

  it('accepts the old and the new secret during rotation', () => {
    const rotating = [secret, 'whsec_new_secret_value_000000000000'];
    expect(verifyWebhookSignature({ secrets: rotating, rawBody: body, nowSeconds: now, ...signed(secret) }).ok).toBe(true);
    expect(verifyWebhookSignature({ secrets: rotating, rawBody: body, nowSeconds: now, ...signed(rotating[1]) }).ok).toBe(true);
    expect(verifyWebhookSignature({ secrets: [rotating[1]!], rawBody: body, nowSeconds: now, ...signed(secret) }).ok).toBe(false);
  });

  it('reports missing and malformed headers', () => {
    expect(verifyWebhookSignature({ secrets: secret, rawBody: body, timestamp: undefined, signature: 'sha256=00' })).toEqual({ ok: false, reason: 'missing_header' });
    expect(verifyWebhookSignature({ secrets: secret, rawBody: body, timestamp: '12.5', signature: 'sha256=00' })).toEqual({ ok: false, reason: 'malformed_timestamp' });
    expect(() => verifyWebhookSignature({ secrets: [], rawBody: body, timestamp: '1', signature: 'x' })).toThrow(/^secrets:/);
  });
});
