/**
 * When Vigil tries a delivery (Svix's schedule): entry i (from 0) is the wait before attempt i + 1,
 * counted from the previous attempt's failure, the first at once: 0 s, 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 10 h.
 * Eight attempts over about 27.6 hours; after the last failure the delivery is given up.
 */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS: readonly number[] = Object.freeze([0, 5, 300, 1800, 7200, 18_000, 36_000, 36_000]);

/** Attempts one delivery gets. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_SCHEDULE_SECONDS.length;

/** Every wait but the immediate first is spread ±20 %, so endpoints failing together do not retry in step. */
export const WEBHOOK_RETRY_JITTER = 0.2;

/** One attempt's limit, from connecting to the last byte of the answer: a receiver slower than this fails the attempt. */
export const WEBHOOK_DELIVERY_TIMEOUT_MS = 15_000;

/**
 * Milliseconds to wait after `attemptsMade` attempts (all failed) before the next one, or null
 * when none is left. `random` returns a number in [0, 1) (default `Math.random`); 0.5 gives the
 * schedule's exact value, 0 its -20 % and values near 1 its +20 %.
 */
export function nextRetryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 1) {
    throw new RangeError(`attemptsMade: expected an integer >= 1, got ${String(attemptsMade)}`);
  }
  const seconds = WEBHOOK_RETRY_SCHEDULE_SECONDS[attemptsMade];
  if (seconds === undefined) return null;
  if (seconds === 0) return 0;
  const draw = random();
  if (!(draw >= 0 && draw < 1)) throw new RangeError(`random: expected a number in [0, 1), got ${String(draw)}`);
  return Math.round(seconds * 1000 * (1 - WEBHOOK_RETRY_JITTER + 2 * WEBHOOK_RETRY_JITTER * draw));
}
