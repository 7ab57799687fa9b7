export { INLINE_VERIFY_MAX, createVerifyPool, verifyEnvelopes } from './verify-pool.js';
export type { VerifyPool, VerifyPoolOptions } from './verify-pool.js';
