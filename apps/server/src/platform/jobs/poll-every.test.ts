import { afterEach, describe, expect, it, vi } from 'vitest';
import { pollEvery } from './poll-every.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('pollEvery', () => {
  it('runs a pass at start, the next one interval after the last ended, and none after stop', async () => {
    vi.useFakeTimers();
    const starts: number[] = [];
    let release: () => void = () => {};
    const loop = pollEvery(1000, () => {
      starts.push(Date.now());
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    }, () => {});
    const t0 = Date.now();
    loop.start();
    loop.start(); // idempotent
    expect(starts).toEqual([t0]);
    // A slow pass: no timer runs while it is in progress, so passes never overlap or pile up.
    await vi.advanceTimersByTimeAsync(5000);
    expect(starts).toHaveLength(1);
    release();
    await vi.advanceTimersByTimeAsync(999);
    expect(starts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([t0, t0 + 6000]);
    release();
    loop.stop();
    expect(loop.running).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(starts).toHaveLength(2);
  });

  it('reports a failed pass and keeps polling', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let passes = 0;
    const loop = pollEvery(100, async () => {
      passes += 1;
      if (passes === 1) throw new Error('database unreachable');
    }, (error) => errors.push(error));
    loop.start();
    await vi.advanceTimersByTimeAsync(250);
    loop.stop();
    expect((errors[0] as Error).message).toBe('database unreachable');
    expect(passes).toBe(3);
  });
});
