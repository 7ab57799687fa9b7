/** Which check of a delivery failed, in the order `verifyWebhook` runs them. */
export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'malformed_signature'
  | 'malformed_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'signature_mismatch'
  | 'body_not_json'
  | 'invalid_event'
  | 'event_type_mismatch';

/** The four delivery headers, spelled as Vigil sends them. */
export type WebhookHeaderName = 'X-Vigil-Signature' | 'X-Vigil-Timestamp' | 'X-Vigil-Event' | 'X-Vigil-Delivery';

/**
 * The status a receiver answers: 401 while the request is not proven to come from Vigil (the
 * checks before and including the signature), 400 once it is signed but its body or headers are
 * not an acceptable event. Vigil retries either; a 400 points at a receiver older than the event.
 */
const STATUS: Record<WebhookVerificationErrorCode, 400 | 401> = {
  missing_header: 401,
  malformed_signature: 401,
  malformed_timestamp: 401,
  timestamp_too_old: 401,
  timestamp_in_future: 401,
  signature_mismatch: 401,
  body_not_json: 400,
  invalid_event: 400,
  event_type_mismatch: 400,
};

/** A delivery refused by `verifyWebhook`; `code` names the failed check, `message` is short and safe to answer. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  readonly code: WebhookVerificationErrorCode;
  /** The header concerned, for the header checks (`missing_header`, `malformed_*`, `timestamp_*`, `event_type_mismatch`). */
  readonly header: WebhookHeaderName | undefined;

  constructor(code: WebhookVerificationErrorCode, message: string, header?: WebhookHeaderName) {
    super(message);
    this.code = code;
    this.header = header;
  }

  /** 401 for the authenticity checks, 400 for a signed request that is not an acceptable event. */
  get status(): 400 | 401 {
    return STATUS[this.code];
  }
}

export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return error instanceof WebhookVerificationError;
}
