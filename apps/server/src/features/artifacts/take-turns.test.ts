import { expect, it } from 'vitest';
import { takeTurns } from './take-turns.js';

it('runs at most the limit at once, the others in the order they came, and frees a turn on failure', async () => {
  const turn = takeTurns(2);
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const job = (n: number, fail = false) =>
    turn(async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      order.push(n);
      running -= 1;
      if (fail) throw new Error(`job ${n}`);
      return n;
    });
  const results = await Promise.allSettled([job(1), job(2, true), job(3), job(4), job(5)]);
  expect(most).toBe(2);
  expect(order).toEqual([1, 2, 3, 4, 5]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
});
