import { base64 } from '@scure/base';
import { TlogError } from './errors.js';
import { formatKeyId, isValidKeyName, type NoteSigner, type NoteVerifier } from './note-keys.js';

/** One signature line: `— <name> base64(key ID || signature)`. */
export interface NoteSignature {
  readonly name: string;
  readonly keyId: number;
  /** The base64 text after the name: key ID and signature bytes together. */
  readonly base64: string;
}

/** A signed note: its text (ending in a newline) and the signatures verified or not. */
export interface Note {
  readonly text: string;
  /** Signatures by known keys that verified, in note order, each (name, key ID) once. */
  readonly sigs: NoteSignature[];
  /** Signatures by keys not among the verifiers: ignored, as the spec requires, but kept. */
  readonly unverifiedSigs: NoteSignature[];
}

/** Verifiers accept at least 16 signatures (spec); more than this many is a malformed note. */
export const MAX_NOTE_SIGNATURES = 100;

/**
 * A note (text and signatures) longer than this many bytes (UTF-16 code units for a string) is
 * malformed: checkpoints are a few hundred bytes, and parsing must stay cheap for a monitor fed
 * by an untrusted server.
 */
export const MAX_NOTE_SIZE = 1 << 20;

// Standard padded base64, checked without decoding: an unknown key's signature is never decoded
// beyond its key ID, so a long line costs a regular-expression pass, not a decode.
// (A flat class and a length check: a grouped quantifier takes ~300 ms on a 1 MB line.)
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const SIGNATURE_PREFIX = '\u2014 ';
const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function malformed(why: string): never {
  throw new TlogError('malformed_note', `malformed note: ${why}`);
}

function decodeNote(message: Uint8Array | string): string {
  if (typeof message !== 'string' && !(message instanceof Uint8Array)) malformed('a note is a string or bytes');
  if (message.length > MAX_NOTE_SIZE) malformed(`longer than ${MAX_NOTE_SIZE} bytes`);
  if (typeof message === 'string') {
    if (/[\ud800-\udfff]/u.test(message)) malformed('not valid UTF-8');
    return message;
  }
  try {
    return strictDecoder.decode(message);
  } catch {
    return malformed('not valid UTF-8');
  }
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x0a) return true;
  }
  return false;
}

/**
 * The key name and key ID of a signature line's body, or undefined when the line is malformed.
 * `signatureBytes` decodes the signature (after the key ID): undefined if the base64 is not canonical.
 */
function parseSignatureLine(line: string): { signature: NoteSignature; signatureBytes: () => Uint8Array | undefined } | undefined {
  if (!line.startsWith(SIGNATURE_PREFIX)) return undefined;
  const body = line.slice(SIGNATURE_PREFIX.length);
  const space = body.indexOf(' ');
  const name = space < 0 ? body : body.slice(0, space);
  const text = space < 0 ? '' : body.slice(space + 1);
  if (!isValidKeyName(name) || text === '' || text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if ((text.length / 4) * 3 - padding < 5) return undefined;
  let head: Uint8Array;
  try {
    head = base64.decode(text.slice(0, 8));
  } catch {
    return undefined;
  }
  const keyId = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
  const signatureBytes = (): Uint8Array | undefined => {
    try {
      return base64.decode(text).subarray(4);
    } catch {
      return undefined;
    }
  };
  return { signature: { name, keyId, base64: text }, signatureBytes };
}

/** The text (ending in a newline) and the signature block of a note, its form checked, nothing verified. */
export function splitNote(message: Uint8Array | string): { text: string; signatures: string } {
  const all = decodeNote(message);
  if (hasControlCharacter(all)) malformed('control character');
  const split = all.lastIndexOf('\n\n');
  if (split < 0) malformed('no blank line before the signatures');
  const text = all.slice(0, split + 1);
  const signatures = all.slice(split + 2);
  if (signatures.length === 0 || !signatures.endsWith('\n')) malformed('the signatures do not end in a newline');
  return { text, signatures };
}

/**
 * Opens a signed note: checks its form strictly (C2SP signed-note, as golang.org/x/mod/sumdb/note
 * does) and verifies every signature by a key in `verifiers`. Signatures by other keys are kept in
 * `unverifiedSigs` and otherwise ignored. Throws TlogError:
 * - 'malformed_note': not UTF-8, a control character other than newline, no blank line before the
 *   signatures, a signature line not of the form `— <name> <base64>`, more than 100 signatures;
 * - 'ambiguous_key': two verifiers with the signature's name and key ID;
 * - 'invalid_signature': a known key's signature does not verify (the whole note is rejected);
 * - 'unverified_note': no signature by a known key (the error's `note` holds what was read).
 */
export function openNote(message: Uint8Array | string, verifiers: readonly NoteVerifier[]): Note {
  if (!Array.isArray(verifiers)) throw new TlogError('invalid_input', 'verifiers must be an array');
  const { text, signatures: block } = splitNote(message);
  let at = 0;

  const sigs: NoteSignature[] = [];
  const unverifiedSigs: NoteSignature[] = [];
  const seen = new Set<string>();
  const seenUnverified = new Set<string>();
  const textBytes = encoder.encode(text);
  let count = 0;
  while (at < block.length) {
    const newline = block.indexOf('\n', at);
    const line = block.slice(at, newline);
    at = newline + 1;
    if (++count > MAX_NOTE_SIGNATURES) malformed(`more than ${MAX_NOTE_SIGNATURES} signatures`);
    const parsed = parseSignatureLine(line) ?? malformed(`bad signature line ${JSON.stringify(line.slice(0, 200))}`);
    const { signature } = parsed;
    const key = `${signature.name}+${formatKeyId(signature.keyId)}`;
    const matches = verifiers.filter((v) => v.name === signature.name && v.keyId === signature.keyId);
    if (matches.length === 0) {
      if (!seenUnverified.has(line)) {
        seenUnverified.add(line);
        unverifiedSigs.push(signature);
      }
      continue;
    }
    if (matches.length > 1) throw new TlogError('ambiguous_key', `ambiguous key ${key}`);
    // Every line by a known key is verified, repeated or not (Go's note.Open verifies before it
    // drops repeats): a bad line after a good one refuses the note as a bad line before it does.
    const bytes = parsed.signatureBytes() ?? malformed(`bad signature line ${JSON.stringify(line.slice(0, 200))}`);
    if (!matches[0]!.verify(textBytes, bytes)) throw new TlogError('invalid_signature', `invalid signature for key ${key}`);
    if (seen.has(key)) continue;
    seen.add(key);
    sigs.push(signature);
  }
  if (sigs.length === 0) throw new UnverifiedNoteError({ text, sigs, unverifiedSigs });
  return { text, sigs, unverifiedSigs };
}

/** No signature of the note is by a known key; `note` is what was read, unverified. */
export class UnverifiedNoteError extends TlogError {
  override name = 'UnverifiedNoteError';
  readonly note: Note;

  constructor(note: Note) {
    super('unverified_note', 'note has no verifiable signatures');
    this.note = note;
  }
}

/** Note text must be non-empty, end in a newline and hold no control character but newline. */
export function isValidNoteText(text: string): boolean {
  return text.length > 0 && text.endsWith('\n') && !hasControlCharacter(text) && !/[\ud800-\udfff]/u.test(text);
}

/**
 * Signs `text` with each signer and returns the note: text, blank line, then `existing` signature
 * lines (those by a signer are replaced by its new signature) followed by the new ones.
 */
export function signNote(text: string, signers: readonly NoteSigner[], existing: readonly NoteSignature[] = []): string {
  if (!Array.isArray(signers) || !Array.isArray(existing)) throw new TlogError('invalid_input', 'signers and existing must be arrays');
  if (typeof text !== 'string' || !isValidNoteText(text)) throw new TlogError('malformed_note', 'malformed note: the text must be non-empty, end in a newline and hold no control character');
  const textBytes = encoder.encode(text);
  const lines: string[] = [];
  const signing = new Set(signers.map((s) => `${s.name}+${formatKeyId(s.keyId)}`));
  for (const signature of existing) {
    const parsed = parseSignatureLine(`${SIGNATURE_PREFIX}${signature.name} ${signature.base64}`);
    if (parsed === undefined || parsed.signature.keyId !== signature.keyId) {
      throw new TlogError('malformed_note', 'malformed note: bad existing signature');
    }
    if (signing.has(`${signature.name}+${formatKeyId(signature.keyId)}`)) continue;
    lines.push(`${SIGNATURE_PREFIX}${signature.name} ${signature.base64}\n`);
  }
  const signed = new Set<string>();
  for (const signer of signers) {
    // The same key twice would write two lines with one key ID: sign once.
    const id = `${signer.name}+${formatKeyId(signer.keyId)}`;
    if (signed.has(id)) continue;
    signed.add(id);
    if (!isValidKeyName(signer.name)) throw new TlogError('malformed_key', 'invalid signer name');
    const signature = signer.sign(textBytes);
    const bytes = new Uint8Array(4 + signature.length);
    new DataView(bytes.buffer).setUint32(0, signer.keyId);
    bytes.set(signature, 4);
    lines.push(`${SIGNATURE_PREFIX}${signer.name} ${base64.encode(bytes)}\n`);
  }
  return `${text}\n${lines.join('')}`;
}
