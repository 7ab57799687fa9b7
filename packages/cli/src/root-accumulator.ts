import { EMPTY_TREE_HASH, nodeHash, type Hash } from '@vigil/tlog';

/**
 * The RFC 6962 root of a tree fed one leaf hash at a time, in O(log n) memory: `vigil log audit`
 * reads every entry of a log that may hold millions, so it cannot keep every leaf hash as
 * `rootFromLeafHashes` needs. It keeps the roots of the complete subtrees on the tree's right edge
 * (one per bit of the size, largest first); the root folds them from the right, which is exactly
 * MTH's split at the largest power of two below n.
 */
export class RootAccumulator {
  #size = 0;
  /** Roots of the complete subtrees, left to right, each twice as wide as the next or more. */
  readonly #edge: Hash[] = [];

  get size(): number {
    return this.#size;
  }

  push(leaf: Hash): void {
    let hash = leaf;
    // Each trailing 1 bit of the old size is a subtree of the new leaf's width that now pairs up.
    for (let width = this.#size; width % 2 === 1; width = Math.floor(width / 2)) {
      hash = nodeHash(this.#edge.pop()!, hash);
    }
    this.#edge.push(hash);
    this.#size++;
  }

  /** The root of the tree of the leaves pushed so far (the empty-tree hash for none). */
  root(): Hash {
    if (this.#edge.length === 0) return EMPTY_TREE_HASH;
    let hash = this.#edge[this.#edge.length - 1]!;
    for (let i = this.#edge.length - 2; i >= 0; i--) hash = nodeHash(this.#edge[i]!, hash);
    return hash;
  }
}
