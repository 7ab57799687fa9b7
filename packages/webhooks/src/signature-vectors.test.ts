import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload, verifyWebhookSignature } from './index.js';

interface Vector {
  name: string;
  secret: string;
  timestamp: number;
  body: string;
  signature: string;
}

// Checked in, computed with node:crypto: a change to the signing rule fails here before any receiver notices.
const { vectors } = JSON.parse(readFileSync(new URL('./test-vectors/signatures.json', import.meta.url), 'utf8')) as { vectors: Vector[] };

describe('signature test vectors', () => {
  it('has the cases a receiver author needs', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(6);
    expect(new Set(vectors.map((v) => v.signature)).size).toBe(vectors.length);
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    expect(signWebhookPayload(v.secret, v.timestamp, v.body)).toBe(v.signature);
    expect(signWebhookPayload(v.secret, v.timestamp, new TextEncoder().encode(v.body))).toBe(v.signature);
    expect(verifyWebhookSignature({ secrets: v.secret, timestamp: String(v.timestamp), signature: v.signature, rawBody: v.body, nowSeconds: v.timestamp })).toEqual({ ok: true });
  });
});
