import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { retryWrite } from '../../platform/jobs/retry-write.js';
import { finishFetch, holdsOutcome, type ClaimedFetch, type Outcome } from './fetch-queue.js';

/**
 * The waits between attempts to write a fetch's outcome: 3 attempts over about 3 s. A write that
 * fails is most often a connection the database reset; a new one is up within seconds, and a fetch
 * left `running` stays so for its whole 10-minute lease although its bytes may be stored.
 */
export const OUTCOME_WRITE_RETRY_MS: readonly number[] = [1_000, 2_000];

export interface RecordOutcomeOptions {
  /** The waits between attempts; one attempt more than waits. */
  retryDelaysMs: readonly number[];
  /** Aborts the wait before the next attempt (the worker is stopping): the last error is thrown. */
  signal: AbortSignal;
  /** One attempt failed; `retryInMs` is null when it was the last. */
  onFailedAttempt(error: unknown, attempt: number, retryInMs: number | null): void;
}

/**
 * Writes how a claimed fetch ended, trying again after a write that threw. Resolves like
 * `finishFetch`: false when the claim was lost to another worker. A retry that finds the lease
 * released by an earlier attempt whose write committed (its answer lost) resolves true. Throws the
 * last error when every attempt failed or the wait was aborted; the fetch is then left to its lease.
 */
export async function recordOutcome(db: Kysely<Database>, claim: ClaimedFetch, outcome: Outcome, now: number, options: RecordOutcomeOptions): Promise<boolean> {
  let attempts = 0;
  return retryWrite(
    async () => {
      attempts += 1;
      if (await finishFetch(db, claim, outcome, now)) return true;
      // Nothing was updated: either another worker holds the row, or an earlier attempt did commit.
      return attempts > 1 && (await holdsOutcome(db, claim, outcome, now));
    },
    {
      delaysMs: options.retryDelaysMs,
      signal: options.signal,
      onFailure: (error, attempt, willRetry) => options.onFailedAttempt(error, attempt, willRetry ? (options.retryDelaysMs[attempt - 1] ?? null) : null),
    },
  );
}
