import { UsageError } from './exit-codes.js';

/**
 * The decisions of `--wait` (docs/cli.md, "Waiting for verdicts"), on values only: which answers are
 * still worth waiting for, how long to sleep before the next check, and the progress wording. The
 * loop that sleeps and asks is wait-loop.ts.
 */

/** Where one answer stands for `--wait`: nothing more will change (`settled`), or what it waits on. */
export type WaitStage = 'settled' | 'fetching' | 'evaluating';

/** The part of a verify answer or a repository dependency `--wait` reads. */
export interface PendingShape {
  state: 'decided' | 'pending';
  /** `verify`: a boolean; a repository dependency: `evaluating` or `requested`. */
  queued: boolean | string | null;
  fetch?: { state: 'fetching' | 'queued_for_evaluation' | 'failed' } | undefined;
}

/**
 * Decided, a fetch that failed for good, and a pending reference Vigil has no bytes for and does not
 * fetch are settled: nothing on the server will decide them, so waiting would only run out the timeout.
 */
export function waitStage(answer: PendingShape): WaitStage {
  if (answer.state === 'decided') return 'settled';
  if (answer.fetch !== undefined) {
    if (answer.fetch.state === 'failed') return 'settled';
    return answer.fetch.state === 'fetching' ? 'fetching' : 'evaluating';
  }
  return answer.queued === true || answer.queued === 'evaluating' ? 'evaluating' : 'settled';
}

/** The server remembers a verify answer for 5 s (docs/artifacts.md, "Freshness"): checking sooner reads the same answer. */
export const FIRST_DELAY_MS = 5_000;
export const MAX_DELAY_MS = 60_000;
const GROWTH = 1.5;

/**
 * The wait before the next check: 5 s after a change (something moved on: look again soon), else the
 * last wait × 1.5 up to 60 s; at least the server's `Retry-After` when it sent one; never past the
 * deadline (the last check is at the timeout).
 */
export function nextDelayMs(input: { previousMs: number | null; changed: boolean; retryAfterMs: number | null; remainingMs: number }): number {
  let delay = input.previousMs === null || input.changed ? FIRST_DELAY_MS : Math.min(MAX_DELAY_MS, Math.round(input.previousMs * GROWTH));
  if (input.retryAfterMs !== null) delay = Math.max(delay, input.retryAfterMs);
  return Math.max(0, Math.min(delay, input.remainingMs));
}

/** `waiting for 2 of 3 verdicts (1 fetching, 1 evaluating)`, or null when nothing is waited for. */
export function waitSummary(stages: readonly WaitStage[]): string | null {
  const fetching = stages.filter((s) => s === 'fetching').length;
  const evaluating = stages.filter((s) => s === 'evaluating').length;
  const waiting = fetching + evaluating;
  if (waiting === 0) return null;
  const parts = [...(fetching > 0 ? [`${fetching} fetching`] : []), ...(evaluating > 0 ? [`${evaluating} evaluating`] : [])];
  return `waiting for ${waiting} of ${stages.length} verdict${stages.length === 1 ? '' : 's'} (${parts.join(', ')})`;
}

/** The default `--timeout`. */
export const DEFAULT_WAIT_TIMEOUT_MS = 10 * 60_000;
const MAX_WAIT_TIMEOUT_MS = 24 * 3_600_000;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** `--timeout <duration>`: `90` (seconds), `500ms`, `90s`, `10m`, `2h`; 1 s to 24 h. */
export function parseDuration(value: string): number {
  const match = /^(\d{1,9})(ms|s|m|h)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[(match[2] ?? 's') as keyof typeof UNIT_MS] : NaN;
  if (!(ms >= 1_000 && ms <= MAX_WAIT_TIMEOUT_MS)) throw new UsageError(`--timeout: expected a duration from 1s to 24h (90, 90s, 10m, 2h), got ${JSON.stringify(value)}`);
  return ms;
}

/** `42 s`, `3 m 05 s`: elapsed time for the progress line. */
export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, '0')} s`;
}
