export { INLINE_VERIFY_MAX, createVerifyPool, verifyEnvelopes } from './verify-pool.js';
export type { VerifyPool, VerifyPoolOptions } from './verify-pool.js';
export { checkSubmission, DSSE_SIGNATURE_REASON } from './submission-check.js';
export type { SubmissionVerification } from './submission-check.js';
