import { openCheckpoint, type Checkpoint } from './checkpoint.js';
import { verifyConsistency } from './consistency-proof.js';
import { TlogError } from './errors.js';
import { EMPTY_TREE_HASH, formatHash, hashesEqual, isHash, type Hash } from './hash.js';
import type { NoteVerifier } from './note-keys.js';

/**
 * What a monitor concludes from a new checkpoint:
 * - 'consistent': signed by the log, same origin, and the old tree is a prefix of the new one;
 * - 'inconsistent': the new tree does not extend the old one (a different root at the same size,
 *   or a consistency proof that does not verify): a rewritten history or a split view;
 * - 'shrinking_tree': the new checkpoint is smaller than one already seen;
 * - 'bad_signature': the new note is malformed, not signed by the log key, or for another origin.
 */
export type CheckpointUpdateVerdict =
  | { readonly verdict: 'consistent'; readonly checkpoint: Checkpoint }
  | { readonly verdict: 'inconsistent'; readonly checkpoint: Checkpoint; readonly reason: string }
  | { readonly verdict: 'shrinking_tree'; readonly checkpoint: Checkpoint; readonly reason: string }
  | { readonly verdict: 'bad_signature'; readonly reason: string };

export interface CheckpointUpdateInput {
  /** The last checkpoint the monitor verified and kept. */
  readonly previous: Checkpoint;
  /** The new signed checkpoint note, as served. */
  readonly next: Uint8Array | string;
  /** The consistency proof from previous.size to the new size, as served. */
  readonly proof: readonly Hash[];
  readonly origin: string;
  readonly logVerifier: NoteVerifier;
}

/**
 * Checks a new checkpoint against the previous one (see CheckpointUpdateVerdict). Never throws for
 * what the log serves (`next`, `proof`: a proof that is not a list of 32-byte hashes does not
 * verify). The monitor's own state is checked first: a `previous` that is not a checkpoint of
 * `origin` (another origin, a size that is not a safe integer, a root that is not 32 bytes), or a
 * missing `origin` or `logVerifier`, throws TlogError 'invalid_input'.
 */
export function checkCheckpointUpdate(input: CheckpointUpdateInput): CheckpointUpdateVerdict {
  if (typeof input !== 'object' || input === null) throw new TlogError('invalid_input', 'checkCheckpointUpdate needs an input');
  const { previous, origin } = input;
  if (typeof origin !== 'string' || origin === '') throw new TlogError('invalid_input', 'origin must be a non-empty string');
  if (typeof previous !== 'object' || previous === null) throw new TlogError('invalid_input', 'previous must be a checkpoint');
  if (previous.origin !== origin) {
    throw new TlogError('invalid_input', `the previous checkpoint is for origin ${JSON.stringify(previous.origin)}, not ${JSON.stringify(origin)}`);
  }
  if (!Number.isSafeInteger(previous.size) || previous.size < 0) throw new TlogError('invalid_input', 'previous.size must be a non-negative safe integer');
  if (!isHash(previous.root)) throw new TlogError('invalid_input', 'previous.root must be a 32-byte hash');
  if (previous.size === 0 && !hashesEqual(previous.root, EMPTY_TREE_HASH)) throw new TlogError('invalid_input', 'a previous checkpoint of size 0 has the empty-tree root');
  if (typeof input.logVerifier !== 'object' || input.logVerifier === null) throw new TlogError('invalid_input', 'a log verifier is required');
  let checkpoint: Checkpoint;
  try {
    checkpoint = openCheckpoint(input.next, input.origin, input.logVerifier).checkpoint;
  } catch (error) {
    const reason = error instanceof TlogError ? error.message : String(error);
    return { verdict: 'bad_signature', reason };
  }
  if (checkpoint.size < previous.size) {
    return { verdict: 'shrinking_tree', checkpoint, reason: `the tree went from ${previous.size} entries to ${checkpoint.size}` };
  }
  if (checkpoint.size === previous.size) {
    // Equal signed roots need no proof: whatever proof came along says nothing.
    if (hashesEqual(checkpoint.root, previous.root)) return { verdict: 'consistent', checkpoint };
    return {
      verdict: 'inconsistent',
      checkpoint,
      reason: `two signed checkpoints of size ${previous.size} with different roots (${formatHash(previous.root)} and ${formatHash(checkpoint.root)})`,
    };
  }
  // Every tree extends the empty tree: there is nothing to prove.
  if (previous.size === 0) return { verdict: 'consistent', checkpoint };
  if (!verifyConsistency(input.proof, checkpoint.size, checkpoint.root, previous.size, previous.root)) {
    return {
      verdict: 'inconsistent',
      checkpoint,
      reason: `the consistency proof from size ${previous.size} to size ${checkpoint.size} does not verify: the tree of ${previous.size} entries is not a prefix of the new tree`,
    };
  }
  return { verdict: 'consistent', checkpoint };
}
