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
