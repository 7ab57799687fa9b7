import { VigilRateLimitError } from '@vigil/client';
import type { Context } from './context.js';
import { formatElapsed, nextDelayMs, waitStage, waitSummary, type PendingShape } from './wait-plan.js';
import { abortableSleep } from './abortable-sleep.js';

export type WaitOutcome<T> = { kind: 'settled'; answer: T } | { kind: 'timeout'; answer: T; summary: string } | { kind: 'interrupted' };

export interface WaitOptions<T> {
  ctx: Context;
  timeoutMs: number;
  /** The answer already in hand (the command's first request). */
  first: T;
  /** Asks again; the signal aborts the request on Ctrl-C. */
  poll: (signal: AbortSignal) => Promise<T>;
  /** The answers `--wait` looks at: verify results, or a verification's dependencies. */
  answers: (answer: T) => readonly PendingShape[];
  now?: () => number;
}

/**
 * `--wait` (docs/cli.md, "Waiting for verdicts"): asks again until every answer is settled
 * (wait-plan.ts) or the timeout passes, with a progress line on stderr, and stops cleanly on
 * Ctrl-C (the request in flight aborted, nothing printed on stdout).
 */
export async function waitForVerdicts<T>(options: WaitOptions<T>): Promise<WaitOutcome<T>> {
  const { ctx } = options;
  const now = options.now ?? Date.now;
  const started = now();
  const deadline = started + options.timeoutMs;
  let answer = options.first;
  let summary = waitSummary(options.answers(answer).map(waitStage));
  if (summary === null) return { kind: 'settled', answer };

  const stop = new AbortController();
  // Only while waiting: every other command (and this one before and after) keeps Ctrl-C's default.
  if (ctx.io.interrupted) void ctx.io.interrupted().then(() => stop.abort());
  const tty = ctx.progress.active;
  const show = () => `${summary}; ${formatElapsed(now() - started)} elapsed, timeout in ${formatElapsed(Math.max(0, deadline - now()))}`;
  let ticker: ReturnType<typeof setInterval> | null = null;
  if (tty) {
    ctx.progress.start(show());
    ticker = setInterval(() => ctx.progress.update(show()), 1_000);
    ticker.unref?.();
  } else {
    ctx.io.stderr(`vigil: ${summary}; ${formatElapsed(0)} elapsed\n`);
  }

  let previousMs: number | null = null;
  let changed = false;
  let retryAfterMs: number | null = null;
  try {
    for (;;) {
      const remainingMs = deadline - now();
      if (remainingMs <= 0) return { kind: 'timeout', answer, summary };
      const delay = nextDelayMs({ previousMs, changed, retryAfterMs: retryAfterMs ?? ctx.recorder.retryAfterMs, remainingMs });
      previousMs = delay;
      await abortableSleep(delay, stop.signal);
      if (stop.signal.aborted) return { kind: 'interrupted' };
      retryAfterMs = null;
      try {
        answer = await options.poll(stop.signal);
      } catch (err) {
        if (stop.signal.aborted) return { kind: 'interrupted' };
        // The SDK already waited out its own retries of a 429: keep waiting, as long as the server asks.
        if (err instanceof VigilRateLimitError) {
          retryAfterMs = (err.retryAfter ?? 60) * 1_000;
          changed = false;
          continue;
        }
        throw err;
      }
      const next = waitSummary(options.answers(answer).map(waitStage));
      if (next === null) return { kind: 'settled', answer };
      changed = next !== summary;
      summary = next;
      if (tty) ctx.progress.update(show());
      else if (changed) ctx.io.stderr(`vigil: ${summary}; ${formatElapsed(now() - started)} elapsed\n`);
    }
  } finally {
    if (ticker) clearInterval(ticker);
    ctx.progress.stop();
  }
}

