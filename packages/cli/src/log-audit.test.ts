import { keypairFromSeed } from '@vigil/client';
import { canonicalJson } from '@vigil/core';
import { getPublicKey, signAttestation } from '@vigil/crypto';
import { arrayHashReader, encodeEntryBundle, formatTlogProof, formatVerifierKey, leafHash, noteSigner, proveInclusion, rootFromLeafHashes, signCheckpoint, storedHashes, type Hash } from '@vigil/tlog';
import { describe, expect, it } from 'vitest';
import { auditLog, type AuditSource, type ServedArtifact } from './log-audit.js';

// The audit's judgement on an in-memory log, for what a real server rarely shows in a test: a
// verdict published (and logged) after the audited checkpoint. The tamper cases run against a real
// server in test/log-audit.test.ts.

const ORIGIN = 'vigil/audit-unit';
const SEED = new Uint8Array(32).fill(5);
const KEY = formatVerifierKey(ORIGIN, getPublicKey(SEED));
const validator = keypairFromSeed('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
const miner = keypairFromSeed('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb');
const BUNDLE = 'packages/npm/pkg:npm/x@1.0.0';
const RECORDED = new Date('2026-11-29T10:00:00.000Z');

const envelope = signAttestation(
  {
    round_id: '5f2c9a1e',
    task_id: 'task-1',
    track: 'packages',
    miner_hotkey: miner.hotkey,
    agent_hash: `sha256:${'a'.repeat(64)}`,
    artifact: { bundle_hash: BUNDLE, sha256: `sha256:${'b'.repeat(64)}` },
    verdict: 'BLOCK',
    risk_score: 90,
    findings: [],
    policy_version: 'v1',
    validator_hotkey: validator.hotkey,
    created_at: '2026-11-29T09:59:00.000+00:00',
  },
  validator.secretKey,
);
const attestationEntry = canonicalJson({
  type: 'vigil.attestation/v1',
  canonical_hash: envelope.canonical_hash,
  signature: envelope.signature,
  validator_hotkey: validator.hotkey,
  bundle_hash: BUNDLE,
  verdict: 'BLOCK',
  recorded_at: '2026-11-29T10:00:00.000+00:00',
});
const verdictEntry = (verdict: string, previous: string | null, at: string) =>
  canonicalJson({ type: 'vigil.verdict/v1', bundle_hash: BUNDLE, track: 'packages', verdict, previous_verdict: previous, risk_score: 90, round_id: 'abcdef01', published_at: at });
const LOG = [attestationEntry, verdictEntry('WARN', null, '2026-11-29T10:00:00.000+00:00'), verdictEntry('BLOCK', 'WARN', '2026-11-29T11:00:00.000+00:00')];
const LATER = verdictEntry('ALLOW', 'BLOCK', '2026-11-29T12:00:00.000+00:00');
const bytes = (text: string) => new TextEncoder().encode(text);

/** The ?proof=true fields of an entry at `index` of a log of `entries`, signed with the log key. */
async function proofOf(entries: string[], index: number, seed = SEED) {
  const hashes: Hash[] = [];
  for (const [i, e] of entries.entries()) hashes.push(...(await storedHashes(i, bytes(e), arrayHashReader(hashes))));
  const checkpoint = signCheckpoint({ origin: ORIGIN, size: entries.length, root: rootFromLeafHashes(entries.map((e) => leafHash(bytes(e)))), extensions: [] }, [noteSigner(ORIGIN, seed)]);
  return { log_entry: entries[index]!, log_proof: formatTlogProof({ index, proof: await proveInclusion(entries.length, index, arrayHashReader(hashes)), checkpoint }) };
}

/** A server holding LOG, whose artifact serves `served` (and, asked with proof, `proof`). */
function source(served: ServedArtifact['verdict'], proof: { log_entry: string; log_proof: string } | null): AuditSource {
  const checkpoint = signCheckpoint({ origin: ORIGIN, size: LOG.length, root: rootFromLeafHashes(LOG.map((e) => leafHash(bytes(e)))), extensions: [] }, [noteSigner(ORIGIN, SEED)]);
  return {
    checkpoint: async () => checkpoint,
    tile: async (path) => {
      expect(path).toBe('tile/entries/000.p/3');
      return encodeEntryBundle(LOG.map(bytes));
    },
    serverHotkey: async () => {
      throw new Error('the key is pinned');
    },
    attestation: async (hash) =>
      hash === envelope.canonical_hash
        ? { attestation: { canonical_hash: hash, validator_hotkey: validator.hotkey, verdict: 'BLOCK', recorded_at: RECORDED, artifact: { id: 7, bundle_hash: BUNDLE } }, envelope }
        : null,
    artifact: async (id, withProof) => {
      expect(id).toBe('art_7');
      return { track: 'packages', verdict: served, ...(withProof ? { log_entry: proof?.log_entry ?? null, log_proof: proof?.log_proof ?? null } : {}) };
    },
  };
}

const audit = (s: AuditSource) => auditLog({ source: s, previous: () => undefined, pinnedKey: KEY, concurrency: 2, progressEvery: 0 });
const verdict = (v: string, at: string) => ({ verdict: v, risk_score: 90, round_id: 'abcdef01', decided_at: new Date(at) });

describe('auditLog', () => {
  it('compares the latest verdict entry of an artifact with its published verdict; earlier ones are history', async () => {
    const result = await audit(source(verdict('BLOCK', '2026-11-29T11:00:00.000Z'), null));
    expect(result).toMatchObject({ ok: true, entries: 3, checked: { attestations: 1, verdicts: 1, verdict_history: 1 }, changed_since_checkpoint: 0, mismatch_count: 0 });
  });

  it('a verdict published after the checkpoint, proven later in the log with the log key, is not a finding', async () => {
    const later = await proofOf([...LOG, LATER], 3);
    const result = await audit(source(verdict('ALLOW', '2026-11-29T12:00:00.000Z'), later));
    expect(result).toMatchObject({ ok: true, changed_since_checkpoint: 1, checked: { verdicts: 0 }, mismatch_count: 0 });
  });

  it('a served verdict the log does not hold is a finding, whatever proof of an older entry, or one not signed by the log key, comes with it', async () => {
    const forged = await proofOf([...LOG, LATER], 3, new Uint8Array(32).fill(6));
    expect(await audit(source(verdict('ALLOW', '2026-11-29T12:00:00.000Z'), forged))).toMatchObject({ ok: false, failure: 'served_mismatch', changed_since_checkpoint: 0 });
    const older = await proofOf(LOG, 2);
    const result = await audit(source(verdict('ALLOW', '2026-11-29T12:00:00.000Z'), older));
    expect(result).toMatchObject({ ok: false, failure: 'served_mismatch', mismatch_count: 1 });
    expect(result.mismatches[0]).toMatchObject({ index: 2, type: 'vigil.verdict/v1', subject: BUNDLE });
    expect(result.mismatches[0]!.reason).toContain('says BLOCK (risk 90, round abcdef01, published 2026-11-29T11:00:00.000+00:00); the server publishes ALLOW');
  });
});
