/**
 * When a failed delivery is tried again (Svix's schedule): the first attempt at once, then 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure: 8 attempts over about 27.6 hours,
 * then the delivery is `failed`. Kept in this one module so it can give way to the
 * `@vigil/webhooks` constants once that library exports them.
 */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS: readonly number[] = [0, 5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** Attempts a delivery gets before it is `failed`. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_SCHEDULE_SECONDS.length;

/** Every delay but the immediate first is spread ±20 %, so many failures at once do not retry in step. */
export const WEBHOOK_RETRY_JITTER = 0.2;

/**
 * How long to wait after `attemptsMade` attempts failed before the next one, or null when none is
 * left. `random` is in [0, 1) (Math.random by default; tests pass their own).
 */
export function nextRetryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError(`attemptsMade: expected an integer >= 1, got ${attemptsMade}`);
  const seconds = WEBHOOK_RETRY_SCHEDULE_SECONDS[attemptsMade];
  if (seconds === undefined) return null;
  if (seconds === 0) return 0;
  const factor = 1 - WEBHOOK_RETRY_JITTER + 2 * WEBHOOK_RETRY_JITTER * random();
  return Math.round(seconds * 1000 * factor);
}
