import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('lets a burst through at once, then paces to the rate', async () => {
    const bucket = new TokenBucket(50, 5);
    // The burst is served without waiting on any timer: before even a 0 ms timeout fires.
    let timerFired = false;
    setTimeout(() => (timerFired = true), 0);
    const started = performance.now();
    await Promise.all(Array.from({ length: 5 }, () => bucket.take()));
    expect(timerFired).toBe(false);
    // Ten more at 50/s: about 200 ms.
    await Promise.all(Array.from({ length: 10 }, () => bucket.take()));
    expect(performance.now() - started).toBeGreaterThanOrEqual(180);
  });

  it('keeps a process alive while someone waits for a token (a CLI must not exit mid-fetch)', () => {
    const dist = fileURLToPath(new URL('../dist/token-bucket.js', import.meta.url));
    const script = `const { TokenBucket } = await import(${JSON.stringify(dist)}); const b = new TokenBucket(5, 1); await b.take(); await b.take(); console.log('second token');`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect(child.stdout.trim()).toBe('second token');
    expect(child.status).toBe(0);
  });

  it('serves waiters in arrival order', async () => {
    const bucket = new TokenBucket(100, 1);
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3].map((i) => bucket.take().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3]);
  });
});

describe('ConcurrencyLimit', () => {
  it('never runs more than the limit at once', async () => {
    const limit = new ConcurrencyLimit(3);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        limit.run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 2));
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(limit.inFlight).toBe(0);
  });

  it('frees the slot when a task throws', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limit.run(async () => 'next')).toBe('next');
  });
});
