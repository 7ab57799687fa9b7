import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextRetryDelayMs, WEBHOOK_DELIVERY_TIMEOUT_MS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_JITTER, WEBHOOK_RETRY_SCHEDULE_SECONDS } from './index.js';

describe('retry schedule', () => {
  it("is Svix's: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; 15 s per attempt", () => {
    expect(WEBHOOK_RETRY_SCHEDULE_SECONDS).toEqual([0, 5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(8);
    expect(WEBHOOK_DELIVERY_TIMEOUT_MS).toBe(15_000);
    expect(WEBHOOK_RETRY_JITTER).toBe(0.2);
    expect(Object.isFrozen(WEBHOOK_RETRY_SCHEDULE_SECONDS)).toBe(true);
  });

  it('waits entry n after n failed attempts: exact at random 0.5, -20 % at 0, nearly +20 % near 1', () => {
    expect(nextRetryDelayMs(1, () => 0.5)).toBe(5_000);
    expect(nextRetryDelayMs(2, () => 0.5)).toBe(300_000);
    expect(nextRetryDelayMs(7, () => 0.5)).toBe(36_000_000);
    expect(nextRetryDelayMs(1, () => 0)).toBe(4_000);
    expect(nextRetryDelayMs(4, () => 0)).toBe(5_760_000);
    expect(nextRetryDelayMs(4, () => 0.999_999)).toBe(8_639_997);
  });

  it('stays within ±20 % of the schedule for any random draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempts, draw) => {
        const base = WEBHOOK_RETRY_SCHEDULE_SECONDS[attempts]! * 1000;
        const delay = nextRetryDelayMs(attempts, () => draw)!;
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(Math.round(base * 0.8));
        expect(delay).toBeLessThanOrEqual(Math.round(base * 1.2));
      }),
    );
  });

  it('gives up after the eighth attempt and refuses nonsense', () => {
    expect(nextRetryDelayMs(8)).toBeNull();
    expect(nextRetryDelayMs(100)).toBeNull();
    expect(() => nextRetryDelayMs(0)).toThrow(/^attemptsMade:/);
    expect(() => nextRetryDelayMs(1.5)).toThrow(RangeError);
    expect(() => nextRetryDelayMs(1, () => 1)).toThrow(/^random:/);
  });

  it('adds up to about 27.6 hours of waiting from the first attempt to the last', () => {
    const total = WEBHOOK_RETRY_SCHEDULE_SECONDS.reduce((sum, s) => sum + s, 0);
    expect(total).toBe(99_305);
    let jittered = 0;
    for (let attempts = 1; attempts < WEBHOOK_MAX_ATTEMPTS; attempts++) jittered += nextRetryDelayMs(attempts, () => 0.5)!;
    expect(jittered).toBe(total * 1000);
  });
});
