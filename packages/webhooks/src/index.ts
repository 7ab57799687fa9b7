export {
  WebhookSignatureError,
  signWebhookPayload,
  timingSafeEqualString,
  verifyWebhookSignature,
} from './signature.js';
export type { VerifyWebhookOptions, WebhookVerification, WebhookVerificationFailure } from './signature.js';
