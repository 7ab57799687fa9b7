import { TlogError } from './errors.js';
import { HASH_SIZE, hashesEqual, nodeHash, type Hash } from './hash.js';
import { readExactly, type HashReader } from './hash-reader.js';
import { assertIndex, maxPow2 } from './integer-math.js';
import { subTreeHash, subTreeIndex } from './tree-hash.js';

/**
 * An RFC 6962 §2.1.1 audit path: from the leaf's sibling up to the root's child. The same list as
 * Go tlog's RecordProof, CT's `audit_path` and the hash lines of a C2SP tlog-proof.
 */
export type InclusionProof = Hash[];

function leafProofIndex(lo: number, hi: number, n: number, need: number[]): number[] {
  if (lo + 1 === hi) return need;
  const { k } = maxPow2(hi - lo);
  if (n < lo + k) {
    leafProofIndex(lo, lo + k, n, need);
    subTreeIndex(lo + k, hi, need);
  } else {
    subTreeIndex(lo, lo + k, need);
    leafProofIndex(lo + k, hi, n, need);
  }
  return need;
}

function leafProof(lo: number, hi: number, n: number, hashes: Hash[]): { proof: Hash[]; rest: Hash[] } {
  if (lo + 1 === hi) return { proof: [], rest: hashes };
  const { k } = maxPow2(hi - lo);
  if (n < lo + k) {
    const inner = leafProof(lo, lo + k, n, hashes);
    const sibling = subTreeHash(lo + k, hi, inner.rest);
    return { proof: [...inner.proof, sibling.hash], rest: sibling.rest };
  }
  const sibling = subTreeHash(lo, lo + k, hashes);
  const inner = leafProof(lo + k, hi, n, sibling.rest);
  return { proof: [...inner.proof, sibling.hash], rest: inner.rest };
}

/** The inclusion proof of entry `index` in the tree of the first `treeSize` entries. */
export async function proveInclusion(treeSize: number, index: number, reader: HashReader): Promise<InclusionProof> {
  assertIndex(treeSize, 'treeSize');
  assertIndex(index, 'index');
  if (index >= treeSize) throw new TlogError('invalid_input', `index ${index} is not in a tree of size ${treeSize}`);
  const indexes = leafProofIndex(0, treeSize, index, []);
  const hashes = await readExactly(reader, indexes);
  const { proof, rest } = leafProof(0, treeSize, index, hashes);
  if (rest.length !== 0) throw new TlogError('invalid_input', 'bad index math in proveInclusion');
  return proof;
}

function runInclusionProof(proof: readonly Hash[], lo: number, hi: number, n: number, leaf: Hash): Hash | undefined {
  if (lo + 1 === hi) return proof.length === 0 ? leaf : undefined;
  if (proof.length === 0) return undefined;
  const { k } = maxPow2(hi - lo);
  const last = proof[proof.length - 1]!;
  const rest = proof.slice(0, -1);
  if (n < lo + k) {
    const inner = runInclusionProof(rest, lo, lo + k, n, leaf);
    return inner && nodeHash(inner, last);
  }
  const inner = runInclusionProof(rest, lo + k, hi, n, leaf);
  return inner && nodeHash(last, inner);
}

function wellFormed(hashes: readonly Hash[]): boolean {
  return Array.isArray(hashes) && hashes.every((hash) => hash instanceof Uint8Array && hash.length === HASH_SIZE);
}

/**
 * True when `proof` shows the entry with leaf hash `leaf` at `index` in the tree of `treeSize`
 * entries whose root is `root`. Never throws for a bad proof or out-of-range numbers: false.
 */
export function verifyInclusion(proof: readonly Hash[], treeSize: number, root: Hash, index: number, leaf: Hash): boolean {
  if (!Number.isSafeInteger(treeSize) || !Number.isSafeInteger(index) || index < 0 || index >= treeSize) return false;
  if (!wellFormed(proof) || !wellFormed([root, leaf]) || proof.length > 64) return false;
  const computed = runInclusionProof(proof, 0, treeSize, index, leaf);
  return computed !== undefined && hashesEqual(computed, root);
}
