import { canonicalJson } from '@vigil/core';
import { formatHash, leafHash, noteVerifier, parseVerifierKey, TlogError, verifyTlogProof } from '@vigil/tlog';

/**
 * The Verify page's log check (docs/dashboard.md, "Verify (offline)"): the attestation's entry in
 * the server's transparency log, proven against a checkpoint signed by a log key the reader
 * pinned, with @vigil/tlog in this browser. The same checks as `vigil attestation verify --log`
 * (docs/cli.md): the entry is this envelope's, in canonical form, and the proof binds it to the
 * signed root. Nothing is fetched: the reader brings the `?proof=true` answer.
 */

export type LogInclusionOutcome =
  | { kind: 'input_error'; field: 'proof' | 'log-key'; message: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'included'; index: number; treeSize: number; origin: string; root: string; logKey: string };

interface EnvelopeLike {
  canonical_hash?: unknown;
  signature?: unknown;
  payload?: { validator_hotkey?: unknown; verdict?: unknown; artifact?: { bundle_hash?: unknown } };
}

export function checkLogInclusion(envelope: unknown, proofText: string, logKey: string): LogInclusionOutcome {
  let answer: unknown;
  try {
    answer = JSON.parse(proofText);
  } catch (error) {
    return { kind: 'input_error', field: 'proof', message: `Not JSON: ${(error as Error).message}` };
  }
  const { log_proof: proof, log_entry: entryText } = (answer ?? {}) as { log_proof?: unknown; log_entry?: unknown };
  if (proof === null && entryText === null) return { kind: 'failed', reason: 'the answer has no log entry: the attestation was recorded before the log existed' };
  if (typeof proof !== 'string' || typeof entryText !== 'string') {
    return { kind: 'input_error', field: 'proof', message: 'Not a ?proof=true answer: it needs the string fields log_proof and log_entry.' };
  }
  const key = logKey.trim();
  if (key === '') return { kind: 'input_error', field: 'log-key', message: 'Give the log key to check the checkpoint against (pin it: never take it from the server you check).' };
  let origin: string;
  let verifier;
  try {
    origin = parseVerifierKey(key).name;
    verifier = noteVerifier(key);
  } catch (error) {
    return { kind: 'input_error', field: 'log-key', message: (error as Error).message };
  }
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(entryText) as Record<string, unknown>;
  } catch {
    return { kind: 'failed', reason: 'log_entry is not JSON' };
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || canonicalJson(entry) !== entryText) return { kind: 'failed', reason: 'log_entry is not a JSON object in canonical form' };
  // A proof of another entry proves nothing about this envelope.
  const e = (envelope ?? {}) as EnvelopeLike;
  const expected: [string, unknown][] = [
    ['type', 'vigil.attestation/v1'],
    ['canonical_hash', e.canonical_hash],
    ['signature', e.signature],
    ['validator_hotkey', e.payload?.validator_hotkey],
    ['bundle_hash', e.payload?.artifact?.bundle_hash],
    ['verdict', e.payload?.verdict],
  ];
  const differs = expected.find(([field, value]) => entry[field] !== value);
  if (differs) return { kind: 'failed', reason: `log_entry's ${differs[0]} is not the envelope's` };
  try {
    const verified = verifyTlogProof(proof, { leafHash: leafHash(new TextEncoder().encode(entryText)), origin, logVerifier: verifier });
    return { kind: 'included', index: verified.index, treeSize: verified.checkpoint.size, origin: verified.checkpoint.origin, root: formatHash(verified.checkpoint.root), logKey: key };
  } catch (error) {
    if (error instanceof TlogError) return { kind: 'failed', reason: error.message };
    throw error;
  }
}
