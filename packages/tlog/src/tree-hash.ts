import { TlogError } from './errors.js';
import { assertHash, EMPTY_TREE_HASH, nodeHash, type Hash } from './hash.js';
import { readExactly, type HashReader } from './hash-reader.js';
import { assertIndex, maxPow2, shiftRight } from './integer-math.js';
import { storedHashIndex } from './stored-hash-index.js';

/** Stored-hash indexes of the complete subtrees that make up entries [lo, hi), left to right. */
export function subTreeIndex(lo: number, hi: number, need: number[]): number[] {
  while (lo < hi) {
    const { k, level } = maxPow2(hi - lo + 1);
    if (lo % k !== 0) throw new TlogError('invalid_input', 'bad math in subTreeIndex');
    need.push(storedHashIndex(level, shiftRight(lo, level)));
    lo += k;
  }
  return need;
}

/** Combines the subtree hashes read for subTreeIndex(lo, hi) into MTH(D[lo:hi]); returns the rest. */
export function subTreeHash(lo: number, hi: number, hashes: Hash[]): { hash: Hash; rest: Hash[] } {
  let count = 0;
  while (lo < hi) {
    const { k } = maxPow2(hi - lo + 1);
    if (lo % k !== 0) throw new TlogError('invalid_input', 'bad math in subTreeHash');
    count++;
    lo += k;
  }
  if (hashes.length < count || count === 0) throw new TlogError('invalid_input', 'bad index math in subTreeHash');
  let hash = hashes[count - 1]!;
  for (let i = count - 2; i >= 0; i--) hash = nodeHash(hashes[i]!, hash);
  return { hash, rest: hashes.slice(count) };
}

/** MTH(D[0:n]), the root hash of the tree of the first n entries (RFC 6962 §2.1). */
export async function treeHash(n: number, reader: HashReader): Promise<Hash> {
  assertIndex(n, 'n');
  if (n === 0) return EMPTY_TREE_HASH;
  const indexes = subTreeIndex(0, n, []);
  const hashes = await readExactly(reader, indexes);
  return subTreeHash(0, n, hashes).hash;
}

/** MTH of a list of entry hashes held in memory, without stored hashes (small trees, audits). */
export function rootFromLeafHashes(leaves: readonly Hash[]): Hash {
  if (!Array.isArray(leaves)) throw new TlogError('invalid_input', 'leaves must be an array of hashes');
  if (leaves.length === 0) return EMPTY_TREE_HASH;
  leaves.forEach((leaf, i) => assertHash(leaf, `leaf hash ${i}`));
  // Fold the leaves as a stack of complete subtrees, as an appender does: linear time and memory.
  const stack: { hash: Hash; size: number }[] = [];
  for (const leaf of leaves) {
    let top = { hash: leaf, size: 1 };
    while (stack.length > 0 && stack[stack.length - 1]!.size === top.size) {
      const left = stack.pop()!;
      top = { hash: nodeHash(left.hash, top.hash), size: left.size * 2 };
    }
    stack.push(top);
  }
  let hash = stack[stack.length - 1]!.hash;
  for (let i = stack.length - 2; i >= 0; i--) hash = nodeHash(stack[i]!.hash, hash);
  return hash;
}
