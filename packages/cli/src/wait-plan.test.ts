import { describe, expect, it } from 'vitest';
import { FIRST_DELAY_MS, MAX_DELAY_MS, nextDelayMs, parseDuration, waitStage, waitSummary } from './wait-plan.js';

describe('--wait: which answers are waited for', () => {
  it('waits for a fetch on its way and for bytes a round will judge; not for decided, failed or unfetchable references', () => {
    expect(waitStage({ state: 'decided', queued: false })).toBe('settled');
    expect(waitStage({ state: 'pending', queued: true, fetch: { state: 'fetching' } })).toBe('fetching');
    expect(waitStage({ state: 'pending', queued: true, fetch: { state: 'queued_for_evaluation' } })).toBe('evaluating');
    expect(waitStage({ state: 'pending', queued: false, fetch: { state: 'failed' } })).toBe('settled');
    expect(waitStage({ state: 'pending', queued: true })).toBe('evaluating');
    // Not uploaded, not fetched: nothing on the server will decide it.
    expect(waitStage({ state: 'pending', queued: false })).toBe('settled');
    // Repository dependencies say evaluating / requested.
    expect(waitStage({ state: 'pending', queued: 'evaluating' })).toBe('evaluating');
    expect(waitStage({ state: 'pending', queued: 'requested' })).toBe('settled');
    expect(waitStage({ state: 'pending', queued: 'evaluating', fetch: { state: 'failed' } })).toBe('settled');
  });

  it('words the progress line', () => {
    expect(waitSummary(['settled', 'fetching', 'evaluating'])).toBe('waiting for 2 of 3 verdicts (1 fetching, 1 evaluating)');
    expect(waitSummary(['evaluating'])).toBe('waiting for 1 of 1 verdict (1 evaluating)');
    expect(waitSummary(['settled'])).toBeNull();
  });
});

describe('--wait: when to ask again', () => {
  it('starts at the server cache of 5 s, backs off by 1.5 up to 60 s, starts again after a change', () => {
    const far = 3_600_000;
    expect(nextDelayMs({ previousMs: null, changed: false, retryAfterMs: null, remainingMs: far })).toBe(FIRST_DELAY_MS);
    expect(nextDelayMs({ previousMs: 5_000, changed: false, retryAfterMs: null, remainingMs: far })).toBe(7_500);
    expect(nextDelayMs({ previousMs: 50_000, changed: false, retryAfterMs: null, remainingMs: far })).toBe(MAX_DELAY_MS);
    expect(nextDelayMs({ previousMs: 50_000, changed: true, retryAfterMs: null, remainingMs: far })).toBe(FIRST_DELAY_MS);
  });

  it("waits at least the server's Retry-After, and never past the deadline", () => {
    expect(nextDelayMs({ previousMs: null, changed: false, retryAfterMs: 30_000, remainingMs: 3_600_000 })).toBe(30_000);
    expect(nextDelayMs({ previousMs: 40_000, changed: false, retryAfterMs: 30_000, remainingMs: 3_600_000 })).toBe(MAX_DELAY_MS);
    expect(nextDelayMs({ previousMs: 40_000, changed: false, retryAfterMs: null, remainingMs: 2_000 })).toBe(2_000);
  });

  it('reads --timeout durations', () => {
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1500ms')).toBe(1_500);
    for (const bad of ['0', '500ms', '25h', '1d', '-5', 'soon', '']) expect(() => parseDuration(bad), bad).toThrow(/--timeout: expected a duration from 1s to 24h/);
  });
});
