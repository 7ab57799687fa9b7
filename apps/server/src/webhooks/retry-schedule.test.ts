import { describe, expect, it } from 'vitest';
import { nextRetryDelayMs, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_SCHEDULE_SECONDS } from './retry-schedule.js';

describe('the webhook retry schedule', () => {
  it('is Svix’s: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over about 27.6 hours', () => {
    expect(WEBHOOK_RETRY_SCHEDULE_SECONDS).toEqual([0, 5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(8);
    expect(WEBHOOK_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0) / 3600).toBeCloseTo(27.58, 2);
  });

  it('spreads each wait ±20 %, and has no attempt after the eighth', () => {
    expect(nextRetryDelayMs(1, () => 0)).toBe(4_000);
    expect(nextRetryDelayMs(1, () => 0.5)).toBe(5_000);
    expect(nextRetryDelayMs(1, () => 0.9999999)).toBe(6_000);
    expect(nextRetryDelayMs(7, () => 0)).toBe(28_800_000);
    expect(nextRetryDelayMs(7, () => 0.75)).toBe(39_600_000);
    expect(nextRetryDelayMs(8)).toBeNull();
    expect(() => nextRetryDelayMs(0)).toThrow(RangeError);
  });
});
