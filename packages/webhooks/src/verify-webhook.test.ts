import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload, UnknownWebhookEvent, verifyWebhook, WebhookSignatureError, WebhookVerificationError } from './index.js';
import { roundClosed, SECRET, signedDelivery, verdictChanged } from './test-support/deliveries.js';

const NOW = 1_800_000_000;
const at = (seconds: number) => new Date(seconds * 1000);

function refusal(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error('expected a WebhookVerificationError, got a result');
}

describe('verifyWebhook', () => {
  it('returns the typed event of a correctly signed, fresh delivery', () => {
    const event = verdictChanged();
    const d = signedDelivery(event, { timestamp: NOW });
    const verified = verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: SECRET, now: at(NOW) });
    expect(verified).toEqual(event);
    expect(verified).not.toBeInstanceOf(UnknownWebhookEvent);
    if (!(verified instanceof UnknownWebhookEvent) && verified.type === 'verdict.changed') expect(verified.data.verdict).toBe('BLOCK');
  });

  it('takes the body as a string, bytes or an ArrayBuffer, and a Fetch Headers object', () => {
    const d = signedDelivery(roundClosed(), { timestamp: NOW });
    const bytes = new TextEncoder().encode(d.body);
    for (const rawBody of [d.body, bytes, bytes.buffer.slice(0), Buffer.from(d.body)]) {
      expect(verifyWebhook({ headers: new Headers(d.headers), rawBody, secrets: SECRET, now: at(NOW) }).type).toBe('round.closed');
    }
  });

  it('matches header names case-insensitively in a plain record', () => {
    const d = signedDelivery(roundClosed(), { timestamp: NOW });
    const shouted = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook({ headers: shouted, rawBody: d.body, secrets: SECRET, now: at(NOW) }).type).toBe('round.closed');
  });

  it('names the missing header, checking the signature headers first', () => {
    const d = signedDelivery(verdictChanged(), { timestamp: NOW });
    for (const name of ['X-Vigil-Signature', 'X-Vigil-Timestamp', 'X-Vigil-Event', 'X-Vigil-Delivery'] as const) {
      const headers = { ...d.headers, [name.toLowerCase()]: '' };
      const error = refusal(() => verifyWebhook({ headers, rawBody: d.body, secrets: SECRET, now: at(NOW) }));
      expect([error.code, error.header, error.message, error.status]).toEqual(['missing_header', name, `missing ${name} header`, 401]);
    }
    expect(refusal(() => verifyWebhook({ headers: {}, rawBody: d.body, secrets: SECRET })).header).toBe('X-Vigil-Signature');
  });

  it('refuses a signature that is not sha256=<64 lowercase hex> and a timestamp that is not integer seconds', () => {
    const d = signedDelivery(verdictChanged(), { timestamp: NOW });
    const upper = d.headers['x-vigil-signature']!.toUpperCase().replace('SHA256=', 'sha256=');
    for (const signature of ['v1=abc', 'sha256=' + 'a'.repeat(63), upper, `${d.headers['x-vigil-signature']}, ${d.headers['x-vigil-signature']}`]) {
      const error = refusal(() => verifyWebhook({ headers: { ...d.headers, 'x-vigil-signature': signature }, rawBody: d.body, secrets: SECRET, now: at(NOW) }));
      expect([error.code, error.header, error.status]).toEqual(['malformed_signature', 'X-Vigil-Signature', 401]);
    }
    for (const timestamp of ['1800000000.5', '-5', 'soon', '1'.repeat(16)]) {
      const error = refusal(() => verifyWebhook({ headers: { ...d.headers, 'x-vigil-timestamp': timestamp }, rawBody: d.body, secrets: SECRET, now: at(NOW) }));
      expect([error.code, error.header]).toEqual(['malformed_timestamp', 'X-Vigil-Timestamp']);
    }
  });

  it('refuses timestamps more than the tolerance away from the clock, telling old from future', () => {
    const event = verdictChanged();
    const check = (skew: number, toleranceSeconds?: number) => {
      const d = signedDelivery(event, { timestamp: NOW + skew });
      return () => verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: SECRET, now: at(NOW), ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }) });
    };
    expect(refusal(check(-301)).code).toBe('timestamp_too_old');
    expect(refusal(check(-301)).message).toBe('X-Vigil-Timestamp is more than 300 s old');
    expect(refusal(check(301)).code).toBe('timestamp_in_future');
    expect(refusal(check(-86_400)).code).toBe('timestamp_too_old');
    for (const skew of [-300, 0, 300]) expect(check(skew)().type).toBe('verdict.changed');
    expect(refusal(check(-31, 30)).code).toBe('timestamp_too_old');
    expect(check(-31, 60)().type).toBe('verdict.changed');
  });

  it('refuses a tampered body, a wrong secret, a re-serialized body and a replayed signature on a new timestamp', () => {
    const d = signedDelivery(verdictChanged(), { timestamp: NOW });
    const mismatch = (input: Partial<Parameters<typeof verifyWebhook>[0]>) =>
      refusal(() => verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: SECRET, now: at(NOW), ...input }));
    expect(mismatch({ rawBody: d.body.replace('"BLOCK"', '"ALLOW"') }).code).toBe('signature_mismatch');
    expect(mismatch({ secrets: 'whsec_someone_else_0000000000000000000000' }).code).toBe('signature_mismatch');
    expect(mismatch({ rawBody: JSON.stringify(JSON.parse(d.body), null, 2) }).code).toBe('signature_mismatch');
    expect(mismatch({ headers: { ...d.headers, 'x-vigil-timestamp': String(NOW + 1) } }).code).toBe('signature_mismatch');
    expect(mismatch({ rawBody: d.body + ' ' }).status).toBe(401);
  });

  it('accepts the old and the new secret during a rotation, and only those', () => {
    const next = 'whsec_next_secret_after_rotation_000000000';
    const event = verdictChanged();
    const old = signedDelivery(event, { timestamp: NOW, secret: SECRET });
    const fresh = signedDelivery(event, { timestamp: NOW, secret: next });
    for (const d of [old, fresh]) expect(verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: [SECRET, next], now: at(NOW) }).id).toBe(event.id);
    expect(refusal(() => verifyWebhook({ headers: old.headers, rawBody: old.body, secrets: [next], now: at(NOW) })).code).toBe('signature_mismatch');
  });

  it('checks the signature before parsing: an unsigned non-JSON body is a mismatch, a signed one is body_not_json', () => {
    const unsigned = signedDelivery(verdictChanged(), { timestamp: NOW });
    expect(refusal(() => verifyWebhook({ headers: unsigned.headers, rawBody: 'not json', secrets: SECRET, now: at(NOW) })).code).toBe('signature_mismatch');
    for (const body of ['not json', '{"type":', '\u00ff']) {
      const d = signedDelivery({ type: 'verdict.changed' }, { timestamp: NOW, body });
      const error = refusal(() => verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: SECRET, now: at(NOW) }));
      expect([error.code, error.message, error.status]).toEqual(['body_not_json', 'body is not JSON', 400]);
    }
    // Bytes that are not UTF-8 are not JSON either, even though they are signed.
    const invalidUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
    const ts = NOW;
    const error = refusal(() =>
      verifyWebhook({
        headers: { ...unsigned.headers, 'x-vigil-signature': signWebhookPayload(SECRET, ts, invalidUtf8) },
        rawBody: invalidUtf8,
        secrets: SECRET,
        now: at(NOW),
      }),
    );
    expect(error.code).toBe('body_not_json');
  });

  it('refuses signed JSON that is not an event envelope, or a known type with a broken shape', () => {
    for (const body of ['[1,2]', '"verdict.changed"', '{"kind":"verdict.changed"}', '{"type":7}']) {
      const d = signedDelivery({ type: 'verdict.changed' }, { timestamp: NOW, body });
      const error = refusal(() => verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: SECRET, now: at(NOW) }));
      expect([error.code, error.message, error.status]).toEqual(['invalid_event', 'body is not a Vigil event', 400]);
    }
    const broken = verdictChanged();
    (broken.data as { verdict: string }).verdict = 'MAYBE';
    const d = signedDelivery(broken, { timestamp: NOW });
    const error = refusal(() => verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: SECRET, now: at(NOW) }));
    expect([error.code, error.message]).toEqual(['invalid_event', 'body is not a valid verdict.changed event (data.verdict)']);
  });

  it("refuses an X-Vigil-Event header that disagrees with the body's type", () => {
    const d = signedDelivery(verdictChanged(), { timestamp: NOW, eventHeader: 'round.closed' });
    const error = refusal(() => verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: SECRET, now: at(NOW) }));
    expect([error.code, error.header, error.message, error.status]).toEqual(['event_type_mismatch', 'X-Vigil-Event', "X-Vigil-Event does not match the body's type", 400]);
  });

  it('returns an UnknownWebhookEvent for a type or a version it has no schema for, instead of refusing it', () => {
    const future = { id: '8d1f0c55-3b7a-4e8e-9a51-0c7d2e4f6a10', type: 'policy.updated', version: 1, resource: 'policy:pol_1', sequence: 4, created_at: '2027-01-01T00:00:00Z', data: { x: 1 } };
    const d = signedDelivery(future, { timestamp: NOW });
    const unknown = verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: SECRET, now: at(NOW) });
    expect(unknown).toBeInstanceOf(UnknownWebhookEvent);
    expect({ ...(unknown as UnknownWebhookEvent) }).toEqual({ type: 'policy.updated', id: future.id, version: 1, resource: 'policy:pol_1', sequence: 4, raw: future });

    const v2 = { ...verdictChanged(), version: 2, data: { reshaped: true } };
    const d2 = signedDelivery(v2, { timestamp: NOW });
    const unknownVersion = verifyWebhook({ headers: d2.headers, rawBody: d2.body, secrets: SECRET, now: at(NOW) });
    expect(unknownVersion).toBeInstanceOf(UnknownWebhookEvent);
    expect([unknownVersion.type, (unknownVersion as UnknownWebhookEvent).version]).toEqual(['verdict.changed', 2]);

    const bare = signedDelivery({ type: 'something.new' }, { timestamp: NOW });
    const minimal = verifyWebhook({ headers: bare.headers, rawBody: bare.body, secrets: SECRET, now: at(NOW) }) as UnknownWebhookEvent;
    expect([minimal.type, minimal.id, minimal.sequence]).toEqual(['something.new', undefined, undefined]);
  });

  it('throws WebhookSignatureError (not a verification error) for a programming mistake', () => {
    const d = signedDelivery(verdictChanged(), { timestamp: NOW });
    expect(() => verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: [] })).toThrow(WebhookSignatureError);
    expect(() => verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: [''] })).toThrow(/^secrets:/);
    expect(() => verifyWebhook({ headers: d.headers, rawBody: { text: d.body } as never, secrets: SECRET })).toThrow(/^rawBody:/);
    expect(() => verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: SECRET, toleranceSeconds: -1 })).toThrow(/^toleranceSeconds:/);
  });
});

describe('verifyWebhook properties', () => {
  const secretArb = fc.stringMatching(/^whsec_[A-Za-z0-9]{32,40}$/);

  it('sign then verify round-trips for any secret, timestamp within tolerance and event', () => {
    fc.assert(
      fc.property(secretArb, fc.integer({ min: -300, max: 300 }), fc.uuid({ version: 4 }), fc.integer({ min: 1, max: 1_000_000 }), (secret, skew, id, sequence) => {
        const event = verdictChanged({ id, sequence });
        const d = signedDelivery(event, { secret, timestamp: NOW + skew });
        expect(verifyWebhook({ headers: d.headers, rawBody: d.body, secrets: secret, now: at(NOW) })).toEqual(event);
      }),
    );
  });

  it('any single-byte change of the body fails the signature', () => {
    const d = signedDelivery(verdictChanged(), { timestamp: NOW });
    const bytes = new TextEncoder().encode(d.body);
    fc.assert(
      fc.property(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), (index, delta) => {
        const changed = bytes.slice();
        changed[index] = (changed[index]! + delta) % 256;
        const error = refusal(() => verifyWebhook({ headers: d.headers, rawBody: changed, secrets: SECRET, now: at(NOW) }));
        expect(error.code).toBe('signature_mismatch');
      }),
    );
  });

  it('any single-character change of the signature fails it', () => {
    const d = signedDelivery(verdictChanged(), { timestamp: NOW });
    const signature = d.headers['x-vigil-signature']!;
    fc.assert(
      fc.property(fc.integer({ min: 7, max: signature.length - 1 }), fc.constantFrom(...'0123456789abcdef'), (index, digit) => {
        fc.pre(signature[index] !== digit);
        const forged = signature.slice(0, index) + digit + signature.slice(index + 1);
        const error = refusal(() => verifyWebhook({ headers: { ...d.headers, 'x-vigil-signature': forged }, rawBody: d.body, secrets: SECRET, now: at(NOW) }));
        expect(error.code).toBe('signature_mismatch');
      }),
    );
  });
});
