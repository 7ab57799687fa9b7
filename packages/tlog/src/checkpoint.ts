import { TlogError } from './errors.js';
import { isCosignatureVerifier } from './cosignature.js';
import { formatHash, parseHash, type Hash } from './hash.js';
import type { NoteSigner, NoteVerifier } from './note-keys.js';
import { openNote, signNote, type Note } from './signed-note.js';

/** The body of a C2SP tlog-checkpoint: origin, tree size, root hash, optional extension lines. */
export interface Checkpoint {
  readonly origin: string;
  readonly size: number;
  readonly root: Hash;
  readonly extensions: readonly string[];
}

function malformed(why: string): never {
  throw new TlogError('malformed_checkpoint', `malformed checkpoint: ${why}`);
}

/** The note text of a checkpoint: `<origin>\n<size>\n<base64 root>\n[<extension>\n…]`. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, root, extensions } = checkpoint;
  if (origin === '' || origin.includes('\n')) malformed('the origin must be one non-empty line');
  if (!Number.isSafeInteger(size) || size < 0) malformed('the size must be a non-negative integer');
  if (root.length !== 32) malformed('the root hash must be 32 bytes');
  for (const line of extensions) if (line === '' || line.includes('\n')) malformed('extension lines must be non-empty single lines');
  return [origin, String(size), formatHash(root), ...extensions].map((line) => `${line}\n`).join('');
}

/**
 * Parses checkpoint note text strictly: at least three lines each ending in a newline; a non-empty
 * origin; a decimal size with no leading zero (except `0`) and no sign; the root as standard padded
 * base64 of exactly 32 bytes; extension lines non-empty.
 */
export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) malformed('the text does not end in a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) malformed('fewer than three lines');
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin === '') malformed('empty origin');
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) malformed(`bad tree size ${JSON.stringify(sizeText)}`);
  let root: Hash;
  try {
    root = parseHash(rootText);
  } catch {
    return malformed(`bad root hash ${JSON.stringify(rootText)}`);
  }
  if (extensions.some((line) => line === '')) malformed('empty extension line');
  return { origin, size: Number(sizeText), root, extensions };
}

/** Signs a checkpoint as a note (the log key, and any others such as a second log key). */
export function signCheckpoint(checkpoint: Checkpoint, signers: readonly NoteSigner[]): string {
  return signNote(formatCheckpoint(checkpoint), signers);
}

/** A verified checkpoint and the note it came in (whose sigs say which keys verified). */
export interface OpenedCheckpoint {
  readonly checkpoint: Checkpoint;
  readonly note: Note;
}

/**
 * Opens a signed checkpoint: the note must verify under `logVerifier` (other signatures, e.g.
 * witness cosignatures, are checked only if their verifiers are in `otherVerifiers`), and the
 * origin line must be `origin`. A checkpoint signed only by other keys is refused
 * ('unverified_note'): the log's own signature is what makes it the log's.
 */
export function openCheckpoint(
  message: Uint8Array | string,
  origin: string,
  logVerifier: NoteVerifier,
  otherVerifiers: readonly NoteVerifier[] = [],
): OpenedCheckpoint {
  if (typeof origin !== 'string') throw new TlogError('invalid_input', 'the origin must be a string');
  if (typeof logVerifier !== 'object' || logVerifier === null) throw new TlogError('invalid_input', 'a log verifier is required');
  if (!Array.isArray(otherVerifiers)) throw new TlogError('invalid_input', 'otherVerifiers must be an array');
  // A witness signs a different message than a log: its key in the log's slot would let a note
  // signed by the witness alone pass as the log's checkpoint.
  if (isCosignatureVerifier(logVerifier)) throw new TlogError('malformed_key', `${logVerifier.name} is a witness cosignature key, not a log key`);
  const note = openNote(message, [logVerifier, ...otherVerifiers]);
  if (!note.sigs.some((s) => s.name === logVerifier.name && s.keyId === logVerifier.keyId)) {
    throw new TlogError('unverified_note', `checkpoint is not signed by the log key ${logVerifier.name}`);
  }
  const checkpoint = parseCheckpoint(note.text);
  if (checkpoint.origin !== origin) {
    throw new TlogError('malformed_checkpoint', `checkpoint origin ${JSON.stringify(checkpoint.origin)} is not ${JSON.stringify(origin)}`);
  }
  return { checkpoint, note };
}
