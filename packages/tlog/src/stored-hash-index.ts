import { TlogError } from './errors.js';
import { leafHash, nodeHash, type Hash } from './hash.js';
import { readExactly, type HashReader } from './hash-reader.js';
import { assertIndex, shiftRight, trailingZeros } from './integer-math.js';

// The stored-hash layout of Go's golang.org/x/mod/sumdb/tlog: every hash of the tree (leaf hashes
// at level 0, complete subtree hashes above) in the order they become known as entries are
// appended, so storage is append-only. Identical indexes to Go, so a server's table and tiles
// computed by either implementation agree.

/** The index of the hash of the n-th complete subtree at `level` (2^level entries wide). */
export function storedHashIndex(level: number, n: number): number {
  assertIndex(level, 'level');
  assertIndex(n, 'n');
  const asked = n;
  for (let l = level; l > 0; l--) n = 2 * n + 1;
  // The index is about 2n: past 2^52 the float arithmetic would no longer be exact.
  if (n >= 2 ** 51) throw new TlogError('invalid_input', `stored hash (level ${level}, n ${asked}) is beyond 2^52`);
  let index = 0;
  for (; n > 0; n = shiftRight(n, 1)) index += n;
  return index + level;
}

/** The inverse of storedHashIndex. */
export function splitStoredHashIndex(index: number): { level: number; n: number } {
  assertIndex(index, 'index');
  let n = Math.floor(index / 2);
  let indexN = storedHashIndex(0, n);
  if (indexN > index) throw new TlogError('invalid_input', 'bad math in splitStoredHashIndex');
  for (;;) {
    const next = indexN + 1 + trailingZeros(n + 1);
    if (next > index) break;
    n++;
    indexN = next;
  }
  const level = index - indexN;
  return { level, n: shiftRight(n, level) };
}

/** How many hashes are stored for a tree of n entries. */
export function storedHashCount(n: number): number {
  assertIndex(n, 'n');
  if (n === 0) return 0;
  let count = storedHashIndex(0, n - 1) + 1;
  for (let i = n - 1; i % 2 === 1; i = shiftRight(i, 1)) count++;
  return count;
}

/**
 * The hashes to append to storage when entry n (0-based) is added: its leaf hash, then every
 * complete subtree it closes. `reader` must serve the hashes already stored for entries 0..n-1.
 */
export async function storedHashesForLeafHash(n: number, hash: Hash, reader: HashReader): Promise<Hash[]> {
  assertIndex(n, 'n');
  const hashes = [hash];
  const m = trailingZeros(n + 1);
  const indexes = new Array<number>(m);
  for (let i = 0; i < m; i++) indexes[m - 1 - i] = storedHashIndex(i, shiftRight(n, i) - 1);
  const old = await readExactly(reader, indexes);
  let current = hash;
  for (let i = 0; i < m; i++) {
    current = nodeHash(old[m - 1 - i]!, current);
    hashes.push(current);
  }
  return hashes;
}

export function storedHashes(n: number, entry: Uint8Array, reader: HashReader): Promise<Hash[]> {
  return storedHashesForLeafHash(n, leafHash(entry), reader);
}
