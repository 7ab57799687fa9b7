import { canonicalJson } from '@vigil/core';
import { leafHash, noteVerifier, parseTlogProof, parseVerifierKey, TlogError, verifyTlogProof, formatHash } from '@vigil/tlog';

/**
 * `vigil attestation verify --log` (docs/cli.md): the attestation's entry in the server's
 * transparency log, checked offline with @vigil/tlog against a log key. Pure: the answer of
 * `GET /v1/attestations/{hash}?proof=true` and the key come in, a result goes out.
 */

/** Why the log check failed; each has its exit status (docs/cli.md, "Exit status"). */
export type LogFailure = 'not_in_log' | 'bad_proof' | 'bad_checkpoint_signature';

export interface LogCheck {
  ok: boolean;
  failure: LogFailure | null;
  reason: string | null;
  /** The entry's index and the checkpoint it was checked against (null when the check did not get that far). */
  index: number | null;
  tree_size: number | null;
  root: string | null;
  origin: string | null;
  /** The verifier key the checkpoint was checked with, and where it came from. */
  log_key: string | null;
  log_key_source: 'pinned' | 'server-identity';
}

/** The envelope fields a `vigil.attestation/v1` entry repeats (docs/log.md, "Entries"). */
interface EnvelopeLike {
  canonical_hash?: unknown;
  signature?: unknown;
  payload?: { validator_hotkey?: unknown; verdict?: unknown; artifact?: { bundle_hash?: unknown } };
}

/** The checkpoint's origin line as the proof states it (not yet authenticated): the key name when the key is derived. */
export function proofOrigin(logProof: string): string | null {
  try {
    return parseTlogProof(logProof).checkpoint.split('\n', 1)[0] ?? null;
  } catch {
    return null;
  }
}

/** The fields of the entry that must equal the envelope's; the first that differs, or null. */
function entryMismatch(entry: Record<string, unknown>, envelope: EnvelopeLike): string | null {
  const expected: [string, unknown][] = [
    ['type', 'vigil.attestation/v1'],
    ['canonical_hash', envelope.canonical_hash],
    ['signature', envelope.signature],
    ['validator_hotkey', envelope.payload?.validator_hotkey],
    ['bundle_hash', envelope.payload?.artifact?.bundle_hash],
    ['verdict', envelope.payload?.verdict],
  ];
  for (const [field, value] of expected) if (entry[field] !== value) return field;
  return null;
}

export function checkLogInclusion(input: { envelope: EnvelopeLike; logProof: string | null | undefined; logEntry: string | null | undefined; logKey: string; logKeySource: 'pinned' | 'server-identity' }): LogCheck {
  const base = { index: null, tree_size: null, root: null, origin: null, log_key: input.logKey, log_key_source: input.logKeySource } as const;
  const fail = (failure: LogFailure, reason: string): LogCheck => ({ ...base, ok: false, failure, reason });
  if (typeof input.logProof !== 'string' || typeof input.logEntry !== 'string') {
    return fail('not_in_log', 'the server has no log entry for this attestation (recorded before its log existed)');
  }
  // The entry must be this envelope's, in the canonical form the server logs: a proof of another entry proves nothing here.
  let entry: unknown;
  try {
    entry = JSON.parse(input.logEntry);
  } catch {
    return fail('bad_proof', 'log_entry is not JSON');
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail('bad_proof', 'log_entry is not a JSON object');
  if (canonicalJson(entry) !== input.logEntry) return fail('bad_proof', 'log_entry is not in canonical form');
  const field = entryMismatch(entry as Record<string, unknown>, input.envelope);
  if (field !== null) return fail('bad_proof', `log_entry's ${field} is not the envelope's`);

  const key = parseVerifierKey(input.logKey);
  try {
    const verified = verifyTlogProof(input.logProof, {
      leafHash: leafHash(new TextEncoder().encode(input.logEntry)),
      origin: key.name,
      logVerifier: noteVerifier(input.logKey),
    });
    return {
      ...base,
      ok: true,
      failure: null,
      reason: null,
      index: verified.index,
      tree_size: verified.checkpoint.size,
      root: formatHash(verified.checkpoint.root),
      origin: verified.checkpoint.origin,
    };
  } catch (err) {
    if (!(err instanceof TlogError)) throw err;
    // The Merkle part or the proof's own text: a bad proof. Everything about the note: its signature.
    if (err.code === 'proof_failed' || err.code === 'malformed_proof') return fail('bad_proof', err.message);
    return fail('bad_checkpoint_signature', err.message);
  }
}
