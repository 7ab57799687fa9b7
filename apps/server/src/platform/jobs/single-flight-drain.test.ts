import { describe, expect, it } from 'vitest';
import { singleFlightDrain } from './single-flight-drain.js';

describe('singleFlightDrain', () => {
  it('joins a call made while a drain runs and runs one more pass for it, never two drains at once', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    let release: (() => void) | undefined;
    const drains = singleFlightDrain(async () => {
      running += 1;
      most = Math.max(most, running);
      passes += 1;
      if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
      running -= 1;
      return 2;
    }, () => false);
    const first = drains.drain();
    const joined = drains.drain();
    expect(joined).toBe(first);
    expect(drains.inFlight).toBe(first);
    release!();
    expect(await first).toBe(4);
    expect(passes).toBe(2);
    expect(most).toBe(1);
    expect(drains.inFlight).toBeUndefined();
  });

  it('runs no further pass once stopped', async () => {
    let stopped = false;
    let passes = 0;
    let release: (() => void) | undefined;
    const drains = singleFlightDrain(async () => {
      passes += 1;
      await new Promise<void>((resolve) => (release = resolve));
      return 1;
    }, () => stopped);
    const first = drains.drain();
    void drains.drain();
    stopped = true;
    release!();
    expect(await first).toBe(1);
    expect(passes).toBe(1);
  });
});
