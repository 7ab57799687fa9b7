import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError, type WebhookVerificationErrorCode } from './index.js';

// Receivers in other languages are written from docs/webhook-receivers.md alone: its tables must say what the code does.
const doc = readFileSync(new URL('../../../docs/webhook-receivers.md', import.meta.url), 'utf8');

const CODES: Record<WebhookVerificationErrorCode, true> = {
  missing_header: true,
  malformed_signature: true,
  malformed_timestamp: true,
  timestamp_too_old: true,
  timestamp_in_future: true,
  signature_mismatch: true,
  body_not_json: true,
  invalid_event: true,
  event_type_mismatch: true,
};

describe('docs/webhook-receivers.md', () => {
  it('lists every verification error code, in check order, with the status the helpers answer', () => {
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    const expected = Object.keys(CODES).map((code) => [code, new WebhookVerificationError(code as WebhookVerificationErrorCode, '').status]);
    expect(rows).toEqual(expected);
  });
});
