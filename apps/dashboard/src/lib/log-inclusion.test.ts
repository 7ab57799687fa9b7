import { canonicalJson } from '@vigil/core';
import { getPublicKey } from '@vigil/crypto';
import { arrayHashReader, formatTlogProof, formatVerifierKey, leafHash, noteSigner, proveInclusion, rootFromLeafHashes, signCheckpoint, storedHashes, type Hash } from '@vigil/tlog';
import { describe, expect, it } from 'vitest';
import { checkLogInclusion } from './log-inclusion.js';

const ORIGIN = 'vigil.test/log';
const seed = new Uint8Array(32).fill(3);
const logKey = formatVerifierKey(ORIGIN, getPublicKey(seed));
const envelope = {
  canonical_hash: `sha256:${'c'.repeat(64)}`,
  signature: 'd'.repeat(128),
  payload: { validator_hotkey: '5Validator', verdict: 'WARN', artifact: { bundle_hash: 'skills/benign/1' } },
};
const entry = canonicalJson({
  type: 'vigil.attestation/v1',
  canonical_hash: envelope.canonical_hash,
  signature: envelope.signature,
  validator_hotkey: '5Validator',
  bundle_hash: 'skills/benign/1',
  verdict: 'WARN',
  recorded_at: '2026-11-21T11:00:00.000+00:00',
});

/** A log of five entries whose index 3 is the envelope's, and its ?proof=true answer, signed with `seed`. */
async function answer(signWith = seed): Promise<string> {
  const entries = ['a', 'b', 'c', entry, 'e'].map((t) => new TextEncoder().encode(t));
  const hashes: Hash[] = [];
  for (const [i, e] of entries.entries()) hashes.push(...(await storedHashes(i, e, arrayHashReader(hashes))));
  const root = rootFromLeafHashes(entries.map((e) => leafHash(e)));
  const checkpoint = signCheckpoint({ origin: ORIGIN, size: 5, root, extensions: [] }, [noteSigner(ORIGIN, signWith)]);
  const proof = await proveInclusion(5, 3, arrayHashReader(hashes));
  return JSON.stringify({ envelope, log_proof: formatTlogProof({ index: 3, proof, checkpoint }), log_entry: entry });
}

describe('checkLogInclusion', () => {
  it('proves the envelope’s entry against the checkpoint signed by the pinned key, and names that checkpoint', async () => {
    const outcome = checkLogInclusion(envelope, await answer(), logKey);
    expect(outcome).toMatchObject({ kind: 'included', index: 3, treeSize: 5, origin: ORIGIN, logKey });
    if (outcome.kind === 'included') expect(outcome.root).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it('refuses a checkpoint signed by another key, and an entry of another envelope', async () => {
    expect(checkLogInclusion(envelope, await answer(new Uint8Array(32).fill(9)), logKey)).toMatchObject({ kind: 'failed' });
    expect(checkLogInclusion({ ...envelope, signature: 'e'.repeat(128) }, await answer(), logKey)).toEqual({ kind: 'failed', reason: "log_entry's signature is not the envelope's" });
  });

  it('reports its inputs: not JSON, no proof fields, no key, a malformed key; a null proof is not in the log', async () => {
    expect(checkLogInclusion(envelope, 'nope', logKey)).toMatchObject({ kind: 'input_error', field: 'proof' });
    expect(checkLogInclusion(envelope, '{}', logKey)).toMatchObject({ kind: 'input_error', field: 'proof' });
    expect(checkLogInclusion(envelope, await answer(), ' ')).toMatchObject({ kind: 'input_error', field: 'log-key' });
    expect(checkLogInclusion(envelope, await answer(), 'nope')).toMatchObject({ kind: 'input_error', field: 'log-key' });
    expect(checkLogInclusion(envelope, '{"log_proof":null,"log_entry":null}', logKey)).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/before the log existed/) });
  });
});
