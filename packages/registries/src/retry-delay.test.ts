import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs, retryDelayMs } from './retry-delay.js';

describe('retryDelayMs', () => {
  it('doubles per retry, with jitter between half and all of the step', () => {
    expect(retryDelayMs(1, { baseMs: 100, maxMs: 10_000, random: () => 0 })).toBe(50);
    expect(retryDelayMs(1, { baseMs: 100, maxMs: 10_000, random: () => 1 })).toBe(100);
    expect(retryDelayMs(3, { baseMs: 100, maxMs: 10_000, random: () => 1 })).toBe(400);
    expect(retryDelayMs(20, { baseMs: 100, maxMs: 10_000, random: () => 1 })).toBe(10_000);
  });

  it('honours a longer Retry-After, in seconds or as a date, and refuses one beyond the maximum', () => {
    expect(retryDelayMs(1, { baseMs: 100, maxMs: 10_000, retryAfter: '3', random: () => 1 })).toBe(3_000);
    expect(retryDelayMs(1, { baseMs: 100, maxMs: 10_000, retryAfter: '0', random: () => 1 })).toBe(100);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryDelayMs(1, { baseMs: 100, maxMs: 10_000, retryAfter: 'Thu, 01 Jan 2026 00:00:05 GMT', now, random: () => 0 })).toBe(5_000);
    expect(retryDelayMs(1, { baseMs: 100, maxMs: 10_000, retryAfter: '11' })).toBeNull();
  });

  it('ignores a Retry-After it cannot read', () => {
    expect(parseRetryAfterMs('soon', 0)).toBeNull();
    expect(parseRetryAfterMs(undefined, 0)).toBeNull();
  });
});
