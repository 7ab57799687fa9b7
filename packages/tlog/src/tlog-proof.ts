import { base64 } from '@scure/base';
import { openCheckpoint, parseCheckpoint, type Checkpoint } from './checkpoint.js';
import { TlogError } from './errors.js';
import { formatHash, isHash, parseHash, type Hash } from './hash.js';
import { verifyInclusion } from './inclusion-proof.js';
import type { NoteVerifier } from './note-keys.js';
import { splitNote, type NoteSignature } from './signed-note.js';

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

/** A C2SP tlog-proof: an entry's index, its inclusion proof and the signed checkpoint it is in. */
export interface TlogProof {
  /** Opaque, unauthenticated application data (the `extra` line), if any. */
  readonly extra?: Uint8Array;
  readonly index: number;
  readonly proof: readonly Hash[];
  /** The signed checkpoint note, verbatim (text, blank line, signature lines). */
  readonly checkpoint: string;
}

function malformed(why: string): never {
  throw new TlogError('malformed_proof', `malformed tlog-proof: ${why}`);
}

function isSignedCheckpointText(note: string): boolean {
  try {
    parseCheckpoint(splitNote(note).text);
    return true;
  } catch {
    return false;
  }
}

export function formatTlogProof(proof: TlogProof): string {
  if (typeof proof !== 'object' || proof === null) malformed('no proof');
  if (!Number.isSafeInteger(proof.index) || proof.index < 0) malformed('the index must be a non-negative integer');
  if (!Array.isArray(proof.proof) || !proof.proof.every(isHash)) malformed('every proof hash must be 32 bytes');
  if (proof.extra !== undefined && !(proof.extra instanceof Uint8Array)) malformed('extra must be bytes');
  // The checkpoint must read back: a signed note (text, blank line, signature lines) whose text is a checkpoint.
  if (typeof proof.checkpoint !== 'string' || !isSignedCheckpointText(proof.checkpoint)) malformed('the checkpoint is not a signed checkpoint note');
  const lines = [TLOG_PROOF_HEADER];
  if (proof.extra !== undefined) lines.push(`extra ${base64.encode(proof.extra)}`);
  lines.push(`index ${proof.index}`);
  for (const hash of proof.proof) lines.push(formatHash(hash));
  return `${lines.join('\n')}\n\n${proof.checkpoint}`;
}

/** Parses the text form strictly: header, optional `extra`, `index`, hash lines, blank line, checkpoint. */
export function parseTlogProof(text: string): TlogProof {
  const lines = text.split('\n');
  let at = 0;
  if (lines[at++] !== TLOG_PROOF_HEADER) malformed(`the first line is not ${TLOG_PROOF_HEADER}`);
  let extra: Uint8Array | undefined;
  if (lines[at]?.startsWith('extra ')) {
    try {
      extra = base64.decode(lines[at]!.slice('extra '.length));
    } catch {
      malformed('the extra line is not standard base64');
    }
    at++;
  }
  const indexMatch = /^index (0|[1-9][0-9]*)$/.exec(lines[at++] ?? '');
  if (indexMatch === null || !Number.isSafeInteger(Number(indexMatch[1]))) malformed('no valid index line');
  const proof: Hash[] = [];
  for (; at < lines.length && lines[at] !== ''; at++) {
    try {
      proof.push(parseHash(lines[at]!));
    } catch {
      malformed(`bad proof hash line ${JSON.stringify(lines[at])}`);
    }
  }
  if (at >= lines.length) malformed('no blank line before the checkpoint');
  const checkpoint = lines.slice(at + 1).join('\n');
  if (checkpoint === '') malformed('no checkpoint');
  return { ...(extra === undefined ? {} : { extra }), index: Number(indexMatch[1]), proof, checkpoint };
}

export interface VerifyTlogProofOptions {
  /** The leaf hash of the entry (leafHash(entry bytes)): computing it is the application's part. */
  readonly leafHash: Hash;
  /** The log's origin line, pinned. */
  readonly origin: string;
  /** The log's checkpoint key, pinned. */
  readonly logVerifier: NoteVerifier;
  /** Witness cosigner verifiers (cosignatureVerifier) and how many must have cosigned. */
  readonly witnesses?: readonly NoteVerifier[];
  readonly minWitnesses?: number;
}

export interface VerifiedTlogProof {
  readonly index: number;
  readonly checkpoint: Checkpoint;
  /** Witness cosignatures that verified. */
  readonly witnessSignatures: readonly NoteSignature[];
  readonly extra?: Uint8Array;
}

/**
 * Verifies a tlog-proof offline (C2SP tlog-proof, "Verifying a tlog proof"): the checkpoint is signed
 * by the pinned log key with the pinned origin, at least `minWitnesses` known witnesses cosigned it,
 * and the inclusion proof binds `leafHash` at `index` to its root. Throws TlogError otherwise
 * ('proof_failed' for the Merkle part, the note and checkpoint codes for the rest).
 */
export function verifyTlogProof(text: string, options: VerifyTlogProofOptions): VerifiedTlogProof {
  if (typeof text !== 'string') throw new TlogError('invalid_input', 'the tlog-proof must be a string');
  if (typeof options !== 'object' || options === null) throw new TlogError('invalid_input', 'verifyTlogProof needs options');
  // A NaN, negative or fractional count would make `length < required` false and accept a proof
  // with no cosignature at all: anything but a non-negative integer is the caller's mistake.
  const required = options.minWitnesses ?? 0;
  if (!Number.isSafeInteger(required) || required < 0) {
    throw new TlogError('invalid_input', `minWitnesses must be a non-negative integer, got ${String(required)}`);
  }
  if (options.witnesses !== undefined && !Array.isArray(options.witnesses)) throw new TlogError('invalid_input', 'witnesses must be an array');
  const parsed = parseTlogProof(text);
  const witnesses = options.witnesses ?? [];
  const { checkpoint, note } = openCheckpoint(parsed.checkpoint, options.origin, options.logVerifier, witnesses);
  const witnessSignatures = note.sigs.filter((s) => witnesses.some((w) => w.name === s.name && w.keyId === s.keyId));
  if (witnessSignatures.length < required) {
    throw new TlogError('unverified_note', `checkpoint has ${witnessSignatures.length} known witness cosignatures, ${required} required`);
  }
  if (!verifyInclusion(parsed.proof, checkpoint.size, checkpoint.root, parsed.index, options.leafHash)) {
    throw new TlogError('proof_failed', `inclusion proof of entry ${parsed.index} does not verify against the checkpoint of size ${checkpoint.size}`);
  }
  return { index: parsed.index, checkpoint, witnessSignatures, ...(parsed.extra === undefined ? {} : { extra: parsed.extra }) };
}
