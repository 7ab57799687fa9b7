import { describe, expect, it } from 'vitest';
import { displayTime, formatDuration, isoDuration, shortKey } from './format.js';

describe('displayTime', () => {
  it('reads a naive timestamp as UTC, not as the reader’s local time', () => {
    const naive = displayTime('2026-11-21T10:00:00.000');
    expect(naive.iso).toBe('2026-11-21T10:00:00.000Z');
    expect(naive.utc).toBe('2026-11-21 10:00:00 UTC');
    expect(naive.local).toBe(new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(Date.UTC(2026, 10, 21, 10))));
  });

  it('reads the offset family to the same instant', () => {
    expect(displayTime('2026-11-21T10:00:00.000+00:00')).toEqual(displayTime('2026-11-21T10:00:00.000'));
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '00:00'],
    [-5, '00:00'],
    [59.9, '00:59'],
    [65, '01:05'],
    [3600, '01:00:00'],
    [3 * 86_400 + 4 * 3600 + 5 * 60 + 6, '3 d 04:05:06'],
  ])('%s s is %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('gives <time datetime> an ISO 8601 duration', () => {
    expect(isoDuration(3725.6)).toBe('PT3725S');
  });
});

describe('shortKey', () => {
  it('keeps the ends of a hotkey and leaves short strings alone', () => {
    expect(shortKey('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY')).toBe('5GrwvaEF…GKutQY');
    expect(shortKey('abc')).toBe('abc');
  });
});
