import { TlogError } from './errors.js';
import { HASH_SIZE, hashesEqual, nodeHash, type Hash } from './hash.js';
import { readExactly, type HashReader } from './hash-reader.js';
import { assertIndex, maxPow2 } from './integer-math.js';
import { subTreeHash, subTreeIndex } from './tree-hash.js';

/** An RFC 6962 §2.1.2 consistency proof between an older and a newer tree size. */
export type ConsistencyProof = Hash[];

function treeProofIndex(lo: number, hi: number, n: number, need: number[]): number[] {
  if (n === hi) return lo === 0 ? need : subTreeIndex(lo, hi, need);
  const { k } = maxPow2(hi - lo);
  if (n <= lo + k) {
    treeProofIndex(lo, lo + k, n, need);
    subTreeIndex(lo + k, hi, need);
  } else {
    subTreeIndex(lo, lo + k, need);
    treeProofIndex(lo + k, hi, n, need);
  }
  return need;
}

function treeProof(lo: number, hi: number, n: number, hashes: Hash[]): { proof: Hash[]; rest: Hash[] } {
  if (n === hi) {
    if (lo === 0) return { proof: [], rest: hashes };
    const whole = subTreeHash(lo, hi, hashes);
    return { proof: [whole.hash], rest: whole.rest };
  }
  const { k } = maxPow2(hi - lo);
  if (n <= lo + k) {
    const inner = treeProof(lo, lo + k, n, hashes);
    const sibling = subTreeHash(lo + k, hi, inner.rest);
    return { proof: [...inner.proof, sibling.hash], rest: sibling.rest };
  }
  const sibling = subTreeHash(lo, lo + k, hashes);
  const inner = treeProof(lo + k, hi, n, sibling.rest);
  return { proof: [...inner.proof, sibling.hash], rest: inner.rest };
}

/**
 * The proof that the tree of `oldSize` entries is a prefix of the tree of `newSize` entries.
 * An empty proof when the sizes are equal. Sizes must satisfy 1 ≤ oldSize ≤ newSize.
 */
export async function proveConsistency(newSize: number, oldSize: number, reader: HashReader): Promise<ConsistencyProof> {
  assertIndex(newSize, 'newSize');
  assertIndex(oldSize, 'oldSize');
  if (oldSize < 1 || oldSize > newSize) {
    throw new TlogError('invalid_input', `no consistency proof from size ${oldSize} to size ${newSize}`);
  }
  const indexes = treeProofIndex(0, newSize, oldSize, []);
  const hashes = await readExactly(reader, indexes);
  const { proof, rest } = treeProof(0, newSize, oldSize, hashes);
  if (rest.length !== 0) throw new TlogError('invalid_input', 'bad index math in proveConsistency');
  return proof;
}

function runTreeProof(proof: readonly Hash[], lo: number, hi: number, n: number, old: Hash): { oldHash: Hash; newHash: Hash } | undefined {
  if (n === hi) {
    if (lo === 0) return proof.length === 0 ? { oldHash: old, newHash: old } : undefined;
    return proof.length === 1 ? { oldHash: proof[0]!, newHash: proof[0]! } : undefined;
  }
  if (proof.length === 0) return undefined;
  const { k } = maxPow2(hi - lo);
  const last = proof[proof.length - 1]!;
  const rest = proof.slice(0, -1);
  if (n <= lo + k) {
    const inner = runTreeProof(rest, lo, lo + k, n, old);
    return inner && { oldHash: inner.oldHash, newHash: nodeHash(inner.newHash, last) };
  }
  const inner = runTreeProof(rest, lo + k, hi, n, old);
  return inner && { oldHash: nodeHash(last, inner.oldHash), newHash: nodeHash(last, inner.newHash) };
}

/**
 * True when `proof` shows the tree of `oldSize` entries with root `oldRoot` is a prefix of the
 * tree of `newSize` entries with root `newRoot`. Equal sizes need equal roots and an empty proof.
 * An old size of 0 is refused (false), as Go's tlog and transparency-dev/merkle refuse it: there is
 * nothing to prove, and a caller comparing with an empty tree should not ask (checkCheckpointUpdate
 * handles it). Never throws for a bad proof: false.
 */
export function verifyConsistency(proof: readonly Hash[], newSize: number, newRoot: Hash, oldSize: number, oldRoot: Hash): boolean {
  if (!Number.isSafeInteger(newSize) || !Number.isSafeInteger(oldSize) || oldSize < 0 || oldSize > newSize) return false;
  if (!Array.isArray(proof)) return false;
  const hashes = [...proof, newRoot, oldRoot];
  if (!hashes.every((hash) => hash instanceof Uint8Array && hash.length === HASH_SIZE) || proof.length > 128) return false;
  if (oldSize === 0) return false;
  if (oldSize === newSize) return proof.length === 0 && hashesEqual(oldRoot, newRoot);
  const computed = runTreeProof(proof, 0, newSize, oldSize, oldRoot);
  return computed !== undefined && hashesEqual(computed.oldHash, oldRoot) && hashesEqual(computed.newHash, newRoot);
}
