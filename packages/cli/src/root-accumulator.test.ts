import { EMPTY_TREE_HASH, formatHash, leafHash, rootFromLeafHashes } from '@vigil/tlog';
import { describe, expect, it } from 'vitest';
import { RootAccumulator } from './root-accumulator.js';

describe('RootAccumulator', () => {
  it('answers the RFC 6962 root of every prefix, as rootFromLeafHashes of all the leaves does', () => {
    const leaves = Array.from({ length: 300 }, (_, i) => leafHash(new TextEncoder().encode(`entry ${i}`)));
    const acc = new RootAccumulator();
    expect(formatHash(acc.root())).toBe(formatHash(EMPTY_TREE_HASH));
    for (let n = 1; n <= leaves.length; n++) {
      acc.push(leaves[n - 1]!);
      expect(acc.size).toBe(n);
      expect(formatHash(acc.root()), `size ${n}`).toBe(formatHash(rootFromLeafHashes(leaves.slice(0, n))));
    }
  });
});
