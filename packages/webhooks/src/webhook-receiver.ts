import type { WebhookDeduplicator } from './dedupe.js';
import type { WebhookHeaders } from './header-lookup.js';
import { WebhookVerificationError } from './verification-error.js';
import { verifyWebhookDelivery, type VerifiedDelivery, type VerifiedWebhookEvent } from './verify-webhook.js';

/** What a handler learns besides the event. */
export interface WebhookDeliveryContext {
  /** `X-Vigil-Delivery`: the same on every retry of this delivery. */
  deliveryId: string;
  /** `X-Vigil-Timestamp` of this attempt, Unix seconds. */
  timestamp: number;
}

export type WebhookHandler = (event: VerifiedWebhookEvent, context: WebhookDeliveryContext) => void | Promise<void>;

/** Options shared by `createNodeWebhookHandler`, `vigilWebhookPlugin` and `webhookFetchHandler`. */
export interface WebhookReceiverOptions {
  /** One secret (`whsec_…`), or the old and the new one while rotating. */
  secrets: string | readonly string[];
  /** Gets each verified, not duplicate, event. */
  handler: WebhookHandler;
  /**
   * `after-response` (default): answer 202 at once and run the handler on the next turn of the
   * event loop; its failure goes to `onError` and Vigil does not retry. `before-response`: await
   * the handler, then answer 202; if it throws, answer 500 (Vigil retries) and release the
   * dedupe claim. Pick `before-response` when the work must not be lost, or where the runtime
   * stops once the response is sent (serverless functions without `waitUntil`); keep it well
   * under the 15 s delivery timeout.
   */
  runHandler?: 'after-response' | 'before-response';
  /** Skips events already claimed (answered 202 without calling the handler). Default: no dedupe. */
  dedupe?: WebhookDeduplicator;
  /**
   * Gets a handler's error, a dedupe store's error, and any other failure after the request
   * was verified (`delivery` is then set) or while reading it (`delivery` undefined). Default:
   * `console.error`. Never rethrown, so nothing here crashes the process.
   */
  onError?: (error: unknown, delivery: VerifiedDelivery | undefined) => void;
  /** Gets each refused request's error (for logging a wrong secret or a skewed clock). */
  onRejected?: (error: WebhookVerificationError) => void;
  /** Largest body read, in bytes; a larger one is answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock. Default: the current time. */
  now?: () => Date;
}

/** The default largest body: every Vigil event is far smaller. */
export const DEFAULT_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

/** What a helper writes: a short plain-text answer, and the handler run to start once it is sent. */
export interface ReceiverAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  afterResponse?: () => Promise<void>;
}

export type BodyRead = { ok: true; body: Uint8Array | string } | { ok: false; tooLarge: true };

const TEXT = 'text/plain; charset=utf-8';

function answer(status: number, body: string, extra: Record<string, string> = {}): ReceiverAnswer {
  return { status, body, headers: { 'content-type': TEXT, ...extra } };
}

export const tooLargeAnswer = (): ReceiverAnswer => answer(413, 'body too large', { connection: 'close' });

/** Checks the options once, when a helper is made, so a mistake shows at start-up rather than per request. */
export function checkReceiverOptions(options: WebhookReceiverOptions): Required<Pick<WebhookReceiverOptions, 'maxBodyBytes'>> {
  const secrets = typeof options.secrets === 'string' ? [options.secrets] : options.secrets;
  if (!Array.isArray(secrets) || secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('secrets: expected one non-empty secret or a non-empty list of them');
  }
  if (typeof options.handler !== 'function') throw new TypeError('handler: expected a function');
  if (options.runHandler !== undefined && options.runHandler !== 'after-response' && options.runHandler !== 'before-response') {
    throw new TypeError(`runHandler: expected 'after-response' or 'before-response', got ${String(options.runHandler)}`);
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_WEBHOOK_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) throw new TypeError(`maxBodyBytes: expected a positive integer, got ${String(maxBodyBytes)}`);
  return { maxBodyBytes };
}

/** Calls `onError` (or `console.error`) without letting anything it throws escape. */
export function reportError(options: WebhookReceiverOptions, error: unknown, delivery: VerifiedDelivery | undefined): void {
  try {
    if (options.onError) options.onError(error, delivery);
    else console.error('@vigil/webhooks: webhook handling failed', error);
  } catch (hookError) {
    try {
      console.error('@vigil/webhooks: onError threw', hookError);
    } catch {
      // Nowhere left to report: swallowing is the promise made to the caller.
    }
  }
}

function reportRejected(options: WebhookReceiverOptions, error: WebhookVerificationError): void {
  try {
    options.onRejected?.(error);
  } catch (hookError) {
    reportError(options, hookError, undefined);
  }
}

async function runHandler(options: WebhookReceiverOptions, delivery: VerifiedDelivery): Promise<void> {
  await options.handler(delivery.event, { deliveryId: delivery.deliveryId, timestamp: delivery.timestamp });
}

/** Starts `task` on a later turn of the event loop: by then the helper has handed the answer to the runtime. */
export function afterThisTurn(task: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(task);
}

/**
 * The one receiver flow every helper wraps: method, body, verification, dedupe, handler. Never
 * throws: every outcome is an answer.
 */
export async function receiveDelivery(
  options: WebhookReceiverOptions,
  request: { method: string | undefined; headers: WebhookHeaders; readBody: () => Promise<BodyRead> },
): Promise<ReceiverAnswer> {
  if ((request.method ?? '').toUpperCase() !== 'POST') return answer(405, 'method not allowed', { allow: 'POST' });

  let delivery: VerifiedDelivery;
  try {
    const read = await request.readBody();
    if (!read.ok) return tooLargeAnswer();
    delivery = verifyWebhookDelivery({
      headers: request.headers,
      rawBody: read.body,
      secrets: options.secrets,
      ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds }),
      ...(options.now === undefined ? {} : { now: options.now() }),
    });
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      reportRejected(options, error);
      return answer(error.status, error.message);
    }
    reportError(options, error, undefined);
    return answer(500, 'internal error');
  }

  if (options.dedupe) {
    let first: boolean;
    try {
      first = await options.dedupe.claim(delivery);
    } catch (error) {
      // Unknown whether it is a duplicate: a 500 makes Vigil try again later.
      reportError(options, error, delivery);
      return answer(500, 'dedupe store unavailable');
    }
    if (!first) return answer(202, 'duplicate');
  }

  if (options.runHandler === 'before-response') {
    try {
      await runHandler(options, delivery);
    } catch (error) {
      reportError(options, error, delivery);
      try {
        await options.dedupe?.release(delivery);
      } catch (releaseError) {
        reportError(options, releaseError, delivery);
      }
      return answer(500, 'handler failed');
    }
    return answer(202, 'accepted');
  }

  return {
    ...answer(202, 'accepted'),
    afterResponse: async () => {
      try {
        await runHandler(options, delivery);
      } catch (error) {
        reportError(options, error, delivery);
      }
    },
  };
}
