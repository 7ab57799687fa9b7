import { HEADERS, LIMITS, WEBHOOK_EVENT_VERSION, WebhookEvent } from '@vigil/core';
import { headerValue, type WebhookHeaders } from './header-lookup.js';
import { signWebhookPayload, timingSafeEqualString, WebhookSignatureError } from './signature.js';
import { UnknownWebhookEvent } from './unknown-webhook-event.js';
import { WebhookVerificationError, type WebhookHeaderName } from './verification-error.js';

/** What `verifyWebhook` returns: a typed event, or an `UnknownWebhookEvent` for a type or version it does not know. */
export type VerifiedWebhookEvent = WebhookEvent | UnknownWebhookEvent;

export interface VerifyWebhookInput {
  /** The request's headers: a Fetch `Headers`, Node's `req.headers` or any record (names case-insensitive). */
  headers: WebhookHeaders;
  /** The exact bytes received, before any parsing or re-serialization. */
  rawBody: string | Uint8Array | ArrayBuffer;
  /** One secret (`whsec_…`), or several while rotating: a delivery signed with any of them passes. */
  secrets: string | readonly string[];
  /** Largest allowed difference between `X-Vigil-Timestamp` and `now`, either way. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock. Default: the current time. */
  now?: Date;
}

/** A verified delivery: the event and the two headers a receiver keys on. */
export interface VerifiedDelivery {
  event: VerifiedWebhookEvent;
  /** `X-Vigil-Delivery`: the same on every retry of this delivery. */
  deliveryId: string;
  /** `X-Vigil-Timestamp`: when this attempt was signed, Unix seconds. */
  timestamp: number;
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(WebhookEvent.options.map((option) => option.shape.type.value));
const SIGNATURE_FORMAT = /^sha256=[0-9a-f]{64}$/;
const TIMESTAMP_FORMAT = /^\d{1,15}$/;

function required(headers: WebhookHeaders, name: WebhookHeaderName): string {
  const value = headerValue(headers, name);
  if (value === undefined) throw new WebhookVerificationError('missing_header', `missing ${name} header`, name);
  return value;
}

function secretList(secrets: string | readonly string[]): readonly string[] {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0) throw new WebhookSignatureError('secrets: expected at least one secret');
  for (const secret of list) {
    if (typeof secret !== 'string' || secret.length === 0) throw new WebhookSignatureError('secrets: expected non-empty strings');
  }
  return list;
}

function bytesOf(rawBody: string | Uint8Array | ArrayBuffer): string | Uint8Array {
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) return rawBody;
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  throw new WebhookSignatureError('rawBody: expected the raw body as a string, Uint8Array or ArrayBuffer');
}

function parseJson(body: string | Uint8Array): unknown {
  try {
    const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
    return JSON.parse(text) as unknown;
  } catch {
    throw new WebhookVerificationError('body_not_json', 'body is not JSON');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The full check, also handing back the delivery id and timestamp the receiver helpers pass on. */
export function verifyWebhookDelivery(input: VerifyWebhookInput): VerifiedDelivery {
  const secrets = secretList(input.secrets);
  const tolerance = input.toleranceSeconds ?? LIMITS.webhookTimestampToleranceSeconds;
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new WebhookSignatureError(`toleranceSeconds: expected a non-negative number, got ${String(tolerance)}`);
  const body = bytesOf(input.rawBody);

  const signature = required(input.headers, HEADERS.signature);
  const timestampText = required(input.headers, HEADERS.timestamp);
  const eventHeader = required(input.headers, HEADERS.event);
  const deliveryId = required(input.headers, HEADERS.delivery);

  if (!SIGNATURE_FORMAT.test(signature)) {
    throw new WebhookVerificationError('malformed_signature', `${HEADERS.signature} is not sha256=<64 lowercase hex digits>`, HEADERS.signature);
  }
  if (!TIMESTAMP_FORMAT.test(timestampText)) {
    throw new WebhookVerificationError('malformed_timestamp', `${HEADERS.timestamp} is not integer Unix seconds`, HEADERS.timestamp);
  }
  const timestamp = Number(timestampText);
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (now - timestamp > tolerance) {
    throw new WebhookVerificationError('timestamp_too_old', `${HEADERS.timestamp} is more than ${tolerance} s old`, HEADERS.timestamp);
  }
  if (timestamp - now > tolerance) {
    throw new WebhookVerificationError('timestamp_in_future', `${HEADERS.timestamp} is more than ${tolerance} s in the future`, HEADERS.timestamp);
  }

  let matched = false;
  for (const secret of secrets) {
    // Every secret is tried, so timing does not tell which one (or whether the first) matched.
    if (timingSafeEqualString(signWebhookPayload(secret, timestamp, body), signature)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('signature_mismatch', 'signature mismatch');

  const parsed = parseJson(body);
  if (!isRecord(parsed) || typeof parsed.type !== 'string') {
    throw new WebhookVerificationError('invalid_event', 'body is not a Vigil event');
  }
  if (parsed.type !== eventHeader) {
    throw new WebhookVerificationError('event_type_mismatch', `${HEADERS.event} does not match the body's type`, HEADERS.event);
  }
  if (!KNOWN_TYPES.has(parsed.type) || parsed.version !== WEBHOOK_EVENT_VERSION) {
    return { event: new UnknownWebhookEvent(parsed as Record<string, unknown> & { type: string }), deliveryId, timestamp };
  }
  const result = WebhookEvent.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    throw new WebhookVerificationError('invalid_event', `body is not a valid ${parsed.type} event${where}`);
  }
  return { event: result.data, deliveryId, timestamp };
}

/**
 * Checks a delivery as spec part 6 asks (signature over the raw body under any of `secrets`,
 * constant-time, timestamp within the tolerance) and only then parses it with core's event
 * schema. Throws `WebhookVerificationError` naming the failed check; throws
 * `WebhookSignatureError` for a programming error (no secrets, a body that is not bytes).
 */
export function verifyWebhook(input: VerifyWebhookInput): VerifiedWebhookEvent {
  return verifyWebhookDelivery(input).event;
}
