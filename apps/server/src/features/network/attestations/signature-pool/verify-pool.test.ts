import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { keypairFromSeed } from '@vigil/client';
import { canonicalBytes, canonicalHash, type AttestationPayload, type MetagraphSnapshot } from '@vigil/core';
import { sign, signAttestation, signAttestationStatement, toHex, verifyAttestation } from '@vigil/crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DSSE_SIGNATURE_REASON, createVerifyPool, verifyEnvelopes, type VerifyPool } from './index.js';

// Worker threads cannot load the TypeScript sources vitest runs: the pool is tested with the
// compiled worker, through a .mjs entry that imports it.
const DIST_WORKER = fileURLToPath(new URL('../../../../../dist/features/network/attestations/signature-pool/verify-worker.js', import.meta.url));
const SHIM = new URL('./test-support/dist-verify-worker.mjs', import.meta.url);
const built = existsSync(DIST_WORKER);
if (!built) console.warn(`SKIPPED: verify pool thread tests (${DIST_WORKER} not built; run npx tsc -b)`);

const V1 = keypairFromSeed('c1'.repeat(32));
const V2 = keypairFromSeed('c2'.repeat(32));
const NO_PERMIT = keypairFromSeed('c3'.repeat(32));
const STRANGER = keypairFromSeed('c4'.repeat(32));

const SNAPSHOT: MetagraphSnapshot = Object.freeze({
  netuid: 76,
  block: 6_000_000,
  taken_at: '2026-11-21T00:00:00.000+00:00',
  neurons: [
    { uid: 0, hotkey: V1.hotkey, validator_permit: true },
    { uid: 1, hotkey: V2.hotkey, validator_permit: true },
    { uid: 2, hotkey: NO_PERMIT.hotkey, validator_permit: false },
  ],
});
/** The next block: V1 lost its permit. */
const NEXT: MetagraphSnapshot = Object.freeze({
  ...SNAPSHOT,
  block: SNAPSHOT.block + 1,
  neurons: SNAPSHOT.neurons.map((n) => (n.hotkey === V1.hotkey ? { ...n, validator_permit: false } : n)),
});

function payload(validator: string, n: number): AttestationPayload {
  return {
    round_id: '0123456789abcdef',
    task_id: `task-${n}`,
    track: 'skills',
    miner_hotkey: STRANGER.hotkey,
    agent_hash: `sha256:${'a'.repeat(64)}`,
    artifact: { bundle_hash: 'skills/acme/x', sha256: `sha256:${'b'.repeat(64)}` },
    verdict: 'BLOCK',
    risk_score: n % 101,
    findings: [],
    policy_version: 'policy-2026.11',
    validator_hotkey: validator,
    created_at: '2026-11-21T10:00:00.000+00:00',
  };
}

/** Every kind of answer, repeated so each thread gets several: valid, tampered, forged, no permit, unknown key, malformed. */
function mixedEnvelopes(count: number): unknown[] {
  const out: unknown[] = [];
  for (let n = 0; out.length < count; n++) {
    const valid = signAttestation(payload(n % 2 === 0 ? V1.hotkey : V2.hotkey, n), (n % 2 === 0 ? V1 : V2).secretKey);
    const p = payload(V1.hotkey, n);
    // JSON round trip: the pool is given envelopes as a request body holds them.
    out.push(
      JSON.parse(JSON.stringify(valid)),
      { ...valid, payload: { ...valid.payload, risk_score: (valid.payload.risk_score + 1) % 101 } },
      { payload: p, canonical_hash: canonicalHash(p), signature: toHex(sign(canonicalBytes(p), V2.secretKey)) },
      signAttestation(payload(NO_PERMIT.hotkey, n), NO_PERMIT.secretKey),
      signAttestation(payload(STRANGER.hotkey, n), STRANGER.secretKey),
      { ...valid, signature: 'zz' },
      { extra: { ...valid.payload, keep: [n, 'unknown fields are signed too'] } },
    );
  }
  return out.slice(0, count);
}

let pool: VerifyPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe.skipIf(!built)('verify pool threads', () => {
  it('answers every envelope exactly as verifyAttestation does, in input order, across threads', async () => {
    pool = createVerifyPool({ size: 2, workerUrl: SHIM });
    const envelopes = mixedEnvelopes(203);
    const results = await pool.verify(envelopes, SNAPSHOT);
    expect(results).toEqual(envelopes.map((e) => verifyAttestation(e, SNAPSHOT)));
    expect(results.filter((r) => r.ok).length).toBe(29);
    expect(new Set(results.map((r) => r.reason))).toEqual(
      new Set(envelopes.map((e) => verifyAttestation(e, SNAPSHOT).reason)),
    );
  });

  it('verifies against the new snapshot once the metagraph changes, and back', async () => {
    pool = createVerifyPool({ size: 2, workerUrl: SHIM });
    const envelopes = mixedEnvelopes(70);
    const before = await pool.verify(envelopes, SNAPSHOT);
    const after = await pool.verify(envelopes, NEXT);
    expect(after).toEqual(envelopes.map((e) => verifyAttestation(e, NEXT)));
    // V1's valid envelopes (index 0 of every group of 7, even n) lost their permit.
    expect(before[0]).toMatchObject({ ok: true });
    expect(after[0]).toEqual({
      ok: false,
      checks: { hash: true, signature: true, permit: false },
      reason: 'validator_hotkey holds no validator permit on netuid 76',
    });
    expect(await pool.verify(envelopes, SNAPSHOT)).toEqual(before);
  });

  it('sees a snapshot edited in place (same block and taken_at, a validator added) as new', async () => {
    pool = createVerifyPool({ size: 2, workerUrl: SHIM });
    const envelopes = Array.from({ length: 40 }, (_, n) => signAttestation(payload(STRANGER.hotkey, n), STRANGER.secretKey));
    expect((await pool.verify(envelopes, SNAPSHOT)).every((r) => !r.ok)).toBe(true);
    // What an operator's edit of the snapshot file gives: the same block, one more validator.
    const edited: MetagraphSnapshot = Object.freeze({
      ...SNAPSHOT,
      neurons: [...SNAPSHOT.neurons, { uid: 3, hotkey: STRANGER.hotkey, validator_permit: true }],
    });
    const results = await pool.verify(envelopes, edited);
    expect(results).toEqual(envelopes.map((e) => verifyAttestation(e, edited)));
    expect(results.every((r) => r.ok)).toBe(true);
  });

  it('serves concurrent calls, and refuses calls once closed', async () => {
    pool = createVerifyPool({ size: 2, workerUrl: SHIM });
    const batches = [mixedEnvelopes(40), mixedEnvelopes(90), mixedEnvelopes(7)];
    const answers = await Promise.all(batches.map((batch, i) => pool!.verify(batch, i === 1 ? NEXT : SNAPSHOT)));
    batches.forEach((batch, i) => expect(answers[i]).toEqual(batch.map((e) => verifyAttestation(e, i === 1 ? NEXT : SNAPSHOT))));
    await pool.close();
    await expect(pool.verify(batches[0]!, SNAPSHOT)).rejects.toThrow('the verify pool is closed');
  });

  it('finds its compiled worker next to itself by default (the pool as the built server runs it)', async () => {
    const dist = (await import(new URL('../../../../../dist/features/network/attestations/signature-pool/index.js', import.meta.url).href)) as typeof import('./index.js');
    pool = dist.createVerifyPool({ size: 1 });
    const envelopes = mixedEnvelopes(35);
    expect(await dist.verifyEnvelopes(pool, envelopes, SNAPSHOT)).toEqual(envelopes.map((e) => verifyAttestation(e, SNAPSHOT)));
  });

  it('checks a sent dsse_signature after the three checks, on the threads as inline', async () => {
    pool = createVerifyPool({ size: 2, workerUrl: SHIM });
    const envelopes: unknown[] = [];
    for (let n = 0; n < 40; n++) {
      const p = payload(V1.hotkey, n);
      const valid = signAttestation(p, V1.secretKey);
      envelopes.push(
        { ...valid, dsse_signature: signAttestationStatement(p, V1.secretKey) },
        { ...valid, dsse_signature: valid.signature },
        valid,
        { ...signAttestation(payload(NO_PERMIT.hotkey, n), NO_PERMIT.secretKey), dsse_signature: valid.signature },
      );
    }
    const threaded = await verifyEnvelopes(pool, envelopes, SNAPSHOT, 0);
    expect(threaded).toEqual(await verifyEnvelopes(pool, envelopes, SNAPSHOT, envelopes.length));
    const ok = { ok: true, checks: { hash: true, signature: true, permit: true }, reason: null };
    expect(threaded.slice(0, 4)).toEqual([
      { ...ok, dsse: true },
      { ...ok, ok: false, reason: DSSE_SIGNATURE_REASON, dsse: false },
      ok,
      // A refused envelope is refused for its first failure; its dsse_signature is not checked.
      verifyAttestation(envelopes[3], SNAPSHOT),
    ]);
  });

  it('verifyEnvelopes gives the same answers inline and on the pool', async () => {
    pool = createVerifyPool({ size: 2, workerUrl: SHIM });
    const envelopes = mixedEnvelopes(50);
    const inline = await verifyEnvelopes(pool, envelopes, SNAPSHOT, envelopes.length);
    const threaded = await verifyEnvelopes(pool, envelopes, SNAPSHOT, 0);
    expect(threaded).toEqual(inline);
  });
});

describe('verify pool without threads', () => {
  it('rejects, rather than hangs, when its worker cannot start; verifies small batches inline', async () => {
    pool = createVerifyPool({ size: 1, workerUrl: new URL('./no-such-worker.mjs', import.meta.url) });
    const envelopes = mixedEnvelopes(40);
    await expect(pool.verify(envelopes, SNAPSHOT)).rejects.toThrow();
    // At or under the inline limit no thread is involved.
    expect(await verifyEnvelopes(pool, envelopes.slice(0, 32), SNAPSHOT)).toEqual(envelopes.slice(0, 32).map((e) => verifyAttestation(e, SNAPSHOT)));
  });

  it('names a bad size', () => {
    expect(() => createVerifyPool({ size: 0 })).toThrow('options.size: expected a positive integer, got 0');
  });
});
