import { describe, expect, it } from 'vitest';
import { createStopSwitch, retryWrite } from './retry-write.js';

describe('retryWrite', () => {
  it('retries a failing write after each delay and returns its first success', async () => {
    let calls = 0;
    const failures: [string, number, boolean][] = [];
    const started = Date.now();
    const result = await retryWrite(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error(`reset ${calls}`);
        return 'written';
      },
      { delaysMs: [30, 30, 30], onFailure: (error, attempt, willRetry) => failures.push([(error as Error).message, attempt, willRetry]) },
    );
    expect(result).toBe('written');
    expect(calls).toBe(3);
    expect(failures).toEqual([['reset 1', 1, true], ['reset 2', 2, true]]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('gives up after the last delay with the last error', async () => {
    let calls = 0;
    const failures: boolean[] = [];
    await expect(
      retryWrite(
        async () => {
          calls += 1;
          throw new Error(`reset ${calls}`);
        },
        { delaysMs: [1, 1], onFailure: (_error, _attempt, willRetry) => failures.push(willRetry) },
      ),
    ).rejects.toThrow('reset 3');
    expect(calls).toBe(3);
    expect(failures).toEqual([true, true, false]);
  });

  it('stops waiting as soon as the signal aborts', async () => {
    const controller = new AbortController();
    await expectGivesUpWhenAborted(controller.signal, () => controller.abort());
  });
});

describe('createStopSwitch', () => {
  it('stop() ends a retry wait at once and says stopped; start() arms a fresh signal, the old one stays aborted', async () => {
    const halt = createStopSwitch();
    expect(halt.stopped).toBe(false);
    const first = halt.signal;
    halt.start(); // running already: the same signal
    expect(halt.signal).toBe(first);

    await expectGivesUpWhenAborted(halt.signal, () => halt.stop());
    expect(halt.stopped).toBe(true);
    expect(first.aborted).toBe(true);

    halt.start();
    expect(halt.stopped).toBe(false);
    expect(halt.signal).not.toBe(first);
    expect(halt.signal.aborted).toBe(false);
    expect(first.aborted).toBe(true);

    // After a restart, retries wait again.
    let again = 0;
    await expect(
      retryWrite(
        async () => {
          again += 1;
          if (again < 2) throw new Error('reset');
          return 'written';
        },
        { delaysMs: [1], onFailure: () => {}, signal: halt.signal },
      ),
    ).resolves.toBe('written');
  });
});

/** A write that always fails, retried after 60 s: `abort` 20 ms in must end the wait at once (one attempt, well before the minute). */
async function expectGivesUpWhenAborted(signal: AbortSignal, abort: () => void): Promise<void> {
  let calls = 0;
  const started = Date.now();
  const attempt = retryWrite(
    async () => {
      calls += 1;
      throw new Error('reset');
    },
    { delaysMs: [60_000], onFailure: () => {}, signal },
  );
  setTimeout(abort, 20);
  await expect(attempt).rejects.toThrow('reset');
  expect(calls).toBe(1);
  expect(Date.now() - started).toBeLessThan(5_000);
}
