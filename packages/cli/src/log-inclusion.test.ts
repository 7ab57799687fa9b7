import { canonicalJson } from '@vigil/core';
import { getPublicKey } from '@vigil/crypto';
import { formatTlogProof, formatVerifierKey, leafHash, nodeHash, noteSigner, signCheckpoint } from '@vigil/tlog';
import { describe, expect, it } from 'vitest';
import { checkLogInclusion, proofOrigin } from './log-inclusion.js';

const ORIGIN = 'vigil/test-log';
const SEED = new Uint8Array(32).fill(7);
const OTHER_SEED = new Uint8Array(32).fill(9);
const KEY = formatVerifierKey(ORIGIN, getPublicKey(SEED));
const OTHER_KEY = formatVerifierKey(ORIGIN, getPublicKey(OTHER_SEED));

const envelope = { canonical_hash: `sha256:${'a'.repeat(64)}`, signature: 'b'.repeat(128), payload: { validator_hotkey: '5Fvalidator', verdict: 'BLOCK', artifact: { bundle_hash: 'packages/x/1' } } };
const entryOf = (overrides: Record<string, unknown> = {}) =>
  canonicalJson({ type: 'vigil.attestation/v1', canonical_hash: envelope.canonical_hash, signature: envelope.signature, validator_hotkey: '5Fvalidator', bundle_hash: 'packages/x/1', verdict: 'BLOCK', recorded_at: '2026-11-29T10:00:00.000+00:00', ...overrides });

/** A two-entry log holding `entry` at index 1, its tlog-proof signed by `seed`. */
function proofFor(entry: string, seed = SEED): string {
  const other = leafHash(new TextEncoder().encode('{"type":"other"}'));
  const mine = leafHash(new TextEncoder().encode(entry));
  const checkpoint = signCheckpoint({ origin: ORIGIN, size: 2, root: nodeHash(other, mine), extensions: [] }, [noteSigner(ORIGIN, seed)]);
  return formatTlogProof({ index: 1, proof: [other], checkpoint });
}

const check = (logProof: string | null, logEntry: string | null, logKey = KEY) => checkLogInclusion({ envelope, logProof, logEntry, logKey, logKeySource: 'pinned' });

describe('attestation verify --log: the inclusion check', () => {
  it('accepts the envelope’s entry proven against a checkpoint signed by the log key', () => {
    const entry = entryOf();
    expect(check(proofFor(entry), entry)).toMatchObject({ ok: true, failure: null, index: 1, tree_size: 2, origin: ORIGIN, log_key: KEY, log_key_source: 'pinned' });
    expect(proofOrigin(proofFor(entry))).toBe(ORIGIN);
  });

  it('no entry: not in the log', () => {
    expect(check(null, null)).toMatchObject({ ok: false, failure: 'not_in_log' });
  });

  it('a proof that does not bind the entry, or an entry of another attestation: a bad proof', () => {
    const entry = entryOf();
    const proof = proofFor(entry);
    const lines = proof.split('\n');
    lines[2] = Buffer.alloc(32, 1).toString('base64'); // the sibling hash
    expect(check(lines.join('\n'), entry)).toMatchObject({ ok: false, failure: 'bad_proof' });
    const otherEntry = entryOf({ verdict: 'ALLOW' });
    expect(check(proofFor(otherEntry), otherEntry)).toMatchObject({ ok: false, failure: 'bad_proof', reason: "log_entry's verdict is not the envelope's" });
    expect(check(proof, ` ${entry}`)).toMatchObject({ ok: false, failure: 'bad_proof', reason: 'log_entry is not in canonical form' });
    expect(check('not a proof', entry)).toMatchObject({ ok: false, failure: 'bad_proof' });
  });

  it('a checkpoint signed by another key, or a signature altered: a bad checkpoint signature', () => {
    const entry = entryOf();
    expect(check(proofFor(entry, OTHER_SEED), entry)).toMatchObject({ ok: false, failure: 'bad_checkpoint_signature' });
    expect(check(proofFor(entry), entry, OTHER_KEY)).toMatchObject({ ok: false, failure: 'bad_checkpoint_signature' });
    const proof = proofFor(entry);
    const at = proof.lastIndexOf(' ') + 10;
    const altered = proof.slice(0, at) + (proof[at] === 'A' ? 'B' : 'A') + proof.slice(at + 1);
    expect(check(altered, entry)).toMatchObject({ ok: false, failure: 'bad_checkpoint_signature' });
  });
});
