import { describe, expect, it } from 'vitest';
import { retryWrite } from './retry-write.js';

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
    let calls = 0;
    const started = Date.now();
    const attempt = retryWrite(
      async () => {
        calls += 1;
        throw new Error('reset');
      },
      { delaysMs: [60_000], onFailure: () => {}, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 20);
    await expect(attempt).rejects.toThrow('reset');
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
