import type { MetagraphSnapshot } from '@vigil/core';
import type { SubmissionVerification } from './submission-check.js';

/** What the pool posts to a verify worker. A worker keeps the last snapshot it was sent. */
export type VerifyRequest =
  | { kind: 'snapshot'; key: string; snapshot: MetagraphSnapshot }
  | { kind: 'verify'; id: number; key: string; envelopes: unknown[] };

/** A worker's answer to one `verify` request, matched by id. */
export type VerifyResponse = { id: number; results: SubmissionVerification[] } | { id: number; error: string };
