import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { base64, hex } from '@scure/base';
import {
  arrayHashReader,
  EMPTY_TREE_HASH,
  leafHash,
  proveConsistency,
  proveInclusion,
  rootFromLeafHashes,
  splitStoredHashIndex,
  storedHashCount,
  storedHashes,
  storedHashIndex,
  treeHash,
  verifyConsistency,
  verifyInclusion,
  type Hash,
} from './index.js';

interface InclusionVector { leafIdx: number; treeSize: number; root: string; leafHash: string; proof: string[] | null; desc: string; wantErr: boolean; file: string }
interface ConsistencyVector { size1: number; size2: number; root1: string; root2: string; proof: string[] | null; desc: string; wantErr: boolean; file: string }
const vectors = JSON.parse(readFileSync(new URL('./test-vectors/transparency-dev-merkle.json', import.meta.url), 'utf8')) as {
  rfc6962: { leafInputsHex: string[]; rootHashesHex: string[]; leafHashesHex: string[] };
  inclusion: InclusionVector[];
  consistency: ConsistencyVector[];
};

const b64 = (text: string): Uint8Array => base64.decode(text);

async function buildStorage(entries: Uint8Array[]): Promise<Hash[]> {
  const stored: Hash[] = [];
  for (const [i, entry] of entries.entries()) stored.push(...(await storedHashes(i, entry, arrayHashReader(stored))));
  return stored;
}

describe('RFC 6962 hashing (transparency-dev/merkle testonly vectors)', () => {
  const leaves = vectors.rfc6962.leafInputsHex.map((h) => hex.decode(h));

  it('hashes leaves with the 0x00 prefix', () => {
    expect(leaves.map((l) => hex.encode(leafHash(l)))).toEqual(vectors.rfc6962.leafHashesHex);
  });

  it('computes the root of every prefix of the 8 leaves, from stored hashes and from leaf hashes', async () => {
    const stored = await buildStorage(leaves);
    for (let n = 0; n <= leaves.length; n++) {
      expect(hex.encode(await treeHash(n, arrayHashReader(stored)))).toBe(vectors.rfc6962.rootHashesHex[n]);
      expect(hex.encode(rootFromLeafHashes(leaves.slice(0, n).map(leafHash)))).toBe(vectors.rfc6962.rootHashesHex[n]);
    }
    expect(hex.encode(EMPTY_TREE_HASH)).toBe(vectors.rfc6962.rootHashesHex[0]);
  });
});

describe('inclusion proof vectors (transparency-dev/merkle testdata/inclusion)', () => {
  for (const v of vectors.inclusion) {
    it(`${v.file}: ${v.desc}`, () => {
      const ok = verifyInclusion((v.proof ?? []).map(b64), v.treeSize, b64(v.root), v.leafIdx, b64(v.leafHash));
      expect(ok).toBe(!v.wantErr);
    });
  }
});

describe('consistency proof vectors (transparency-dev/merkle testdata/consistency)', () => {
  // transparency-dev accepts equal sizes with equal roots of any length; a Merkle hash here is
  // always 32 bytes, so that one vector (12-byte "roots") is refused on purpose.
  const notHashes = new Set(['testdata/consistency/additional/sizes-are-equal-one-and-proof-is-empty.json']);
  for (const v of vectors.consistency) {
    it(`${v.file}: ${v.desc}`, () => {
      const ok = verifyConsistency((v.proof ?? []).map(b64), v.size2, b64(v.root2), v.size1, b64(v.root1));
      expect(ok).toBe(notHashes.has(v.file) ? false : !v.wantErr);
    });
  }
  it('the refused vector really has 12-byte roots', () => {
    const v = vectors.consistency.find((c) => notHashes.has(c.file))!;
    expect(b64(v.root1).length).toBe(12);
  });
});

describe('stored hash indexes (Go tlog layout)', () => {
  it('matches Go for the first indexes and splits back', () => {
    // level 0: 0,1,3,4,7,8,10,11,15; level 1: 2,5,9,12; level 2: 6,13; level 3: 14
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => storedHashIndex(0, n))).toEqual([0, 1, 3, 4, 7, 8, 10, 11, 15]);
    expect([0, 1, 2, 3].map((n) => storedHashIndex(1, n))).toEqual([2, 5, 9, 12]);
    expect(storedHashIndex(2, 0)).toBe(6);
    expect(storedHashIndex(3, 0)).toBe(14);
    for (let level = 0; level < 10; level++) {
      for (let n = 0; n < 100; n++) expect(splitStoredHashIndex(storedHashIndex(level, n))).toEqual({ level, n });
    }
  });

  it('stays exact past 2^32, where 32-bit shifts would wrap', () => {
    for (const n of [2 ** 32, 2 ** 32 + 5, 2 ** 40 + 12345, 2 ** 45 - 1]) {
      for (const level of [0, 1, 5]) {
        const index = storedHashIndex(level, n);
        expect(Number.isSafeInteger(index)).toBe(true);
        expect(splitStoredHashIndex(index)).toEqual({ level, n });
      }
    }
    expect(storedHashCount(2 ** 33)).toBe(2 * 2 ** 33 - 1);
    expect(() => storedHashIndex(20, 2 ** 45)).toThrow(/beyond 2\^52/);
  });
});

describe('proofs generated from stored hashes (Go tlog TestTree, 100 entries)', () => {
  it('stores the right number of hashes, and every inclusion and consistency proof verifies and breaks when altered', async () => {
    const entries = Array.from({ length: 100 }, (_, i) => new TextEncoder().encode(`leaf ${i}`));
    const stored: Hash[] = [];
    const roots: Hash[] = [EMPTY_TREE_HASH];
    for (const [i, entry] of entries.entries()) {
      stored.push(...(await storedHashes(i, entry, arrayHashReader(stored))));
      expect(storedHashCount(i + 1)).toBe(stored.length);
      roots.push(await treeHash(i + 1, arrayHashReader(stored)));
      expect(roots[i + 1]).toEqual(rootFromLeafHashes(entries.slice(0, i + 1).map(leafHash)));
    }
    const reader = arrayHashReader(stored);
    for (let size = 1; size <= 100; size += 7) {
      for (let index = 0; index < size; index++) {
        const proof = await proveInclusion(size, index, reader);
        expect(verifyInclusion(proof, size, roots[size]!, index, leafHash(entries[index]!))).toBe(true);
        for (let k = 0; k < proof.length; k++) {
          const bad = proof.map((h) => h.slice());
          bad[k]![0]! ^= 1;
          expect(verifyInclusion(bad, size, roots[size]!, index, leafHash(entries[index]!))).toBe(false);
        }
        expect(verifyInclusion(proof, size, roots[size]!, index, leafHash(entries[(index + 1) % 100]!))).toBe(false);
      }
      for (let old = 1; old <= size; old++) {
        const proof = await proveConsistency(size, old, reader);
        expect(verifyConsistency(proof, size, roots[size]!, old, roots[old]!)).toBe(true);
        for (let k = 0; k < proof.length; k++) {
          const bad = proof.map((h) => h.slice());
          bad[k]![31]! ^= 0x80;
          expect(verifyConsistency(bad, size, roots[size]!, old, roots[old]!)).toBe(false);
        }
        if (old < size) expect(verifyConsistency(proof, size, roots[size]!, old, roots[old - 1]!)).toBe(false);
      }
    }
  });

  it('refuses impossible proof requests', async () => {
    const reader = arrayHashReader([]);
    await expect(proveInclusion(3, 3, reader)).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(proveConsistency(3, 4, reader)).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(proveConsistency(3, 0, reader)).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
