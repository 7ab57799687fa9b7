import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { LIMITS } from '@vigil/core';

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

function bodyBytes(rawBody: string | Uint8Array): Uint8Array {
  return typeof rawBody === 'string' ? utf8ToBytes(rawBody) : rawBody;
}

function assertTimestamp(timestamp: number, argument: string): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new WebhookSignatureError(`${argument}: expected integer Unix seconds, got ${String(timestamp)}`);
  }
}

/**
 * `sha256=` + lowercase hex HMAC-SHA-256 keyed with the webhook secret over `<timestamp>.<raw body>`
 * (spec part 6). The body is the exact bytes sent, never a re-serialization.
 */
export function signWebhookPayload(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  if (typeof secret !== 'string' || secret.length === 0) throw new WebhookSignatureError('secret: expected a non-empty string');
  assertTimestamp(timestamp, 'timestamp');
  const prefix = utf8ToBytes(`${timestamp}.`);
  const body = bodyBytes(rawBody);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix, 0);
  message.set(body, prefix.length);
  return `sha256=${bytesToHex(hmac(sha256, utf8ToBytes(secret), message))}`;
}

/** Compares every byte whatever the first difference, so timing says nothing about the expected value. */
export function timingSafeEqualString(a: string, b: string): boolean {
  const x = utf8ToBytes(a);
  const y = utf8ToBytes(b);
  let diff = x.length ^ y.length;
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

export type WebhookVerificationFailure = 'missing_header' | 'malformed_timestamp' | 'stale_timestamp' | 'signature_mismatch';

export type WebhookVerification = { ok: true } | { ok: false; reason: WebhookVerificationFailure };

export interface VerifyWebhookOptions {
  /** One secret, or several during rotation (old and new both accepted for the overlap window). */
  secrets: string | readonly string[];
  /** Value of `X-Vigil-Timestamp`. */
  timestamp: string | null | undefined;
  /** Value of `X-Vigil-Signature`. */
  signature: string | null | undefined;
  /** The exact bytes received, before any parsing. */
  rawBody: string | Uint8Array;
  nowSeconds?: number;
  toleranceSeconds?: number;
}

/** Receiver-side check of spec part 6: raw body, constant-time compare, 300 s tolerance, rotation. */
export function verifyWebhookSignature(options: VerifyWebhookOptions): WebhookVerification {
  const secrets = typeof options.secrets === 'string' ? [options.secrets] : options.secrets;
  if (secrets.length === 0) throw new WebhookSignatureError('secrets: expected at least one secret');
  if (!options.timestamp || !options.signature) return { ok: false, reason: 'missing_header' };
  if (!/^\d{1,15}$/.test(options.timestamp)) return { ok: false, reason: 'malformed_timestamp' };
  const timestamp = Number(options.timestamp);
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? LIMITS.webhookTimestampToleranceSeconds;
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, reason: 'stale_timestamp' };
  let matched = false;
  for (const secret of secrets) {
    // No early exit: every secret is tried so the position of the matching one does not leak.
    if (timingSafeEqualString(signWebhookPayload(secret, timestamp, options.rawBody), options.signature)) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: 'signature_mismatch' };
}
