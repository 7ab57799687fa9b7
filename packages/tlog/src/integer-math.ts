import { TlogError } from './errors.js';

// Tree sizes and stored-hash indexes pass 2^32 on a large log, where JavaScript's `<<`/`>>` wrap:
// these helpers do Go's int64 shifts with exact float arithmetic, safe up to 2^53.

export function shiftRight(n: number, k: number): number {
  return Math.floor(n / 2 ** k);
}

export function shiftLeft(n: number, k: number): number {
  return n * 2 ** k;
}

export function trailingZeros(n: number): number {
  if (n === 0) return 64;
  let count = 0;
  while (n % 2 === 0) {
    n /= 2;
    count++;
  }
  return count;
}

/** The largest power of two strictly below n (1 for n ≤ 2), and its log2: Go tlog's maxpow2. */
export function maxPow2(n: number): { k: number; level: number } {
  let level = 0;
  while (2 ** (level + 1) < n) level++;
  return { k: 2 ** level, level };
}

export function assertIndex(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TlogError('invalid_input', `${name} must be a non-negative safe integer, got ${value}`);
  }
}
