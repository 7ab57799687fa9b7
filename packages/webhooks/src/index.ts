export {
  WebhookSignatureError,
  signWebhookPayload,
  timingSafeEqualString,
  verifyWebhookSignature,
} from './signature.js';
export type { VerifyWebhookOptions, WebhookVerification, WebhookVerificationFailure } from './signature.js';
export { verifyWebhook } from './verify-webhook.js';
export type { VerifiedDelivery, VerifiedWebhookEvent, VerifyWebhookInput } from './verify-webhook.js';
export { WebhookVerificationError, isWebhookVerificationError } from './verification-error.js';
export type { WebhookHeaderName, WebhookVerificationErrorCode } from './verification-error.js';
export { UnknownWebhookEvent } from './unknown-webhook-event.js';
export type { WebhookHeaders } from './header-lookup.js';
export { DEFAULT_WEBHOOK_MAX_BODY_BYTES } from './webhook-receiver.js';
export type { WebhookDeliveryContext, WebhookHandler, WebhookReceiverOptions } from './webhook-receiver.js';
export { createNodeWebhookHandler } from './node-handler.js';
export type { NodeWebhookRequest, NodeWebhookResponse } from './node-handler.js';
export { vigilWebhookPlugin } from './fastify-plugin.js';
export type { FastifyWebhookInstance, FastifyWebhookPluginOptions, FastifyWebhookReply, FastifyWebhookRequest } from './fastify-plugin.js';
export { webhookFetchHandler } from './fetch-handler.js';
export type { FetchWebhookOptions, WaitUntilContext } from './fetch-handler.js';
export { WEBHOOK_DEDUPE_TTL_SECONDS, createMemoryClaimStore, createWebhookDeduplicator } from './dedupe.js';
export type { MemoryClaimStoreOptions, WebhookClaimStore, WebhookDedupeKey, WebhookDeduplicator, WebhookDeduplicatorOptions } from './dedupe.js';
export { SequenceTracker } from './sequence-tracker.js';
export type { SequenceObservation, SequenceRange, SequenceTrackerOptions } from './sequence-tracker.js';
export {
  WEBHOOK_DELIVERY_TIMEOUT_MS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_JITTER,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
  nextRetryDelayMs,
} from './retry-schedule.js';
