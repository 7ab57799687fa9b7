/**
 * Validator-signed in-toto/DSSE (issue 28, docs/attestations.md "In-toto statement and DSSE
 * envelope"): a validator sends `dsse_signature` beside its envelope, the server verifies it, stores
 * it and serves the attestation as a DSSE envelope at GET /v1/attestations/{hash}/dsse. The served
 * envelope is checked here with an independent implementation: @sigstore/core's DSSE
 * pre-authentication encoding and node:crypto's Ed25519, with the key decoded from the ss58 hotkey.
 */
import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { dsse } from '@sigstore/core';
import { SignedVigilClient, VigilApiError, keypairFromSeed, type VigilKeypair } from '@vigil/client';
import {
  AttestationReceipt,
  BatchAttestationReceipt,
  TaskClaim,
  canonicalHash,
  formatOffsetTimestamp,
  type AttestationPayload,
  type LeasedTask,
  type MetagraphSnapshot,
} from '@vigil/core';
import { signAttestation, signAttestationStatement, ss58Decode, verifyAttestationDsse } from '@vigil/crypto';
import { afterEach, expect, it } from 'vitest';
import { storeArtifact } from '../src/features/artifacts/store-artifact.js';
import { registerMiner } from '../src/features/network/miners/miners.js';
import { submitAgent } from '../src/features/network/miners/agents.js';
import { openRound, startEvaluation } from '../src/features/network/rounds/rounds.js';
import { createTasks } from '../src/features/network/tasks/tasks.js';
import { registerValidator } from '../src/features/network/validators/validators.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { call, shared } from './admin-support.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 3, 0, 0, 0);
const V1 = keypairFromSeed('d1'.repeat(32));
const V2 = keypairFromSeed('d2'.repeat(32));
const MINER = keypairFromSeed('d3'.repeat(32));
const SNAPSHOT: MetagraphSnapshot = {
  netuid: 76,
  block: 7_000_000,
  taken_at: '2026-12-03T00:00:00.000+00:00',
  neurons: [V1, V2].map((v, uid) => ({ uid, hotkey: v.hotkey, validator_permit: true })),
};
const FINDING = { type: 'static', category: 'exfiltration', severity: 'CRIT', title: 'uploads ssh keys', file: 'SKILL.md' } as const;

type Env = NetworkApp & { clock: number };
const envs: Env[] = [];
let tick = 0;

function client(e: Env, keypair: VigilKeypair): SignedVigilClient {
  return new SignedVigilClient({ baseUrl: e.baseUrl, keypair, now: () => e.clock + ((tick++ % 180) - 90) * 1000 });
}

/** A round in evaluation over three skills, one agent, both validators registered; returns the round id. */
async function seed(e: Env): Promise<void> {
  const db = e.database.db;
  for (const [uid, v] of [V1, V2].entries()) await registerValidator(db, { hotkey: v.hotkey, uid, allowedIps: ['127.0.0.1'], now: T0 });
  await registerMiner(db, { hotkey: MINER.hotkey, track: 'skills', now: T0 });
  await submitAgent(db, { hotkey: MINER.hotkey, track: 'skills', name: 'agent', provider: 'test', codeHash: `sha256:${'c'.repeat(64)}`, now: T0 });
  const bundleHashes: string[] = [];
  for (const name of ['a', 'b', 'c']) {
    const stored = await storeArtifact(db, e.blobs, { track: 'skills', label: 'acme', sourceId: name, kind: 'live', now: T0, bytes: new TextEncoder().encode(`---\nname: ${name}\n---\n`) });
    bundleHashes.push(stored.bundle_hash);
  }
  const round = await openRound(db, { track: 'skills', now: T0, submissionMs: HOUR, evaluationMs: 2 * HOUR, policyVersion: 'policy-dsse' });
  await startEvaluation(db, { roundId: round.round_id, now: T0 + HOUR });
  await createTasks(db, { roundId: round.round_id, bundleHashes, now: T0 + HOUR });
  e.clock = T0 + HOUR + 1000;
}

function payloadFor(e: Env, claimed: TaskClaim, task: LeasedTask, validator: VigilKeypair, findings: boolean): AttestationPayload {
  return {
    round_id: claimed.round!.round_id,
    task_id: task.task_id,
    track: 'skills',
    miner_hotkey: task.miner_hotkey,
    agent_hash: task.agent_hash,
    artifact: task.artifact,
    verdict: findings ? 'BLOCK' : 'ALLOW',
    risk_score: findings ? 90 : 2,
    findings: findings ? [FINDING] : [],
    policy_version: claimed.round!.policy_version,
    validator_hotkey: validator.hotkey,
    created_at: formatOffsetTimestamp(e.clock),
  };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string | null; detail: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof VigilApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.status, code: error.code, detail: error.detail };
}

/** Verifies a served envelope without Vigil's code: sigstore's PAE, node's Ed25519, the key the ss58 hotkey decodes to. */
function independentlyVerified(envelope: { payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] }, hotkey: string): boolean {
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(ss58Decode(hotkey)).toString('base64url') }, format: 'jwk' });
  const pae = dsse.preAuthEncoding(envelope.payloadType, Buffer.from(envelope.payload, 'base64'));
  return envelope.signatures.some((s) => verifySignature(null, pae, publicKey, Buffer.from(s.sig, 'base64')));
}

describeEachDialect('validator-signed DSSE attestations', (ctx) => {
  afterEach(async () => {
    for (const e of envs.splice(0)) await e.close();
  });

  it('verifies, stores and serves the validator-signed in-toto statement; refuses a bad one; old validators still attest', async () => {
    const e = (await startNetworkApp({ snapshot: SNAPSHOT, clock: T0, database: shared(ctx) })) as Env;
    envs.push(e);
    await seed(e);
    const paid = await operatorKey(ctx.db(), ['--org', 'dsse-paid', '--plan', 'paid', '--scopes', 'read']);
    const free = await operatorKey(ctx.db(), ['--org', 'dsse-free', '--plan', 'free', '--scopes', 'read']);

    const claimed = await client(e, V1).request('POST', '/v1/validators/tasks/claim', { max: 3 }, { schema: TaskClaim });
    expect(claimed.tasks).toHaveLength(3);
    const [withFindings, clean, legacy] = claimed.tasks as [LeasedTask, LeasedTask, LeasedTask];

    // A DSSE signature that does not verify (another task's statement) is refused, naming the field; nothing is stored.
    const payload = payloadFor(e, claimed, withFindings, V1, true);
    const envelope = signAttestation(payload, V1.secretKey);
    const wrong = signAttestationStatement(payloadFor(e, claimed, clean, V1, false), V1.secretKey);
    expect(await refusal(client(e, V1).request('POST', '/v1/validators/attestations', { ...envelope, dsse_signature: wrong }, { schema: AttestationReceipt }))).toEqual({
      status: 422,
      code: 'attestation_invalid',
      detail: "envelope.dsse_signature: dsse_signature does not verify against validator_hotkey over the attestation's in-toto statement",
    });
    // Not 128 lowercase hex: a validation error.
    const malformed = await refusal(client(e, V1).request('POST', '/v1/validators/attestations', { ...envelope, dsse_signature: 'AB' }, { schema: AttestationReceipt }));
    expect(malformed).toMatchObject({ status: 422, detail: 'Validation error' });

    // Signed: accepted with the same receipt as before (the canonical hash is unchanged).
    const dsseSignature = signAttestationStatement(payload, V1.secretKey);
    expect(await client(e, V1).request('POST', '/v1/validators/attestations', { ...envelope, dsse_signature: dsseSignature }, { schema: AttestationReceipt })).toEqual({
      canonical_hash: envelope.canonical_hash,
      task_id: withFindings.task_id,
      created: true,
    });
    // The batch takes it too, and refuses a bad one in its item, as the single endpoint would.
    const cleanPayload = payloadFor(e, claimed, clean, V1, false);
    const cleanEnvelope = { ...signAttestation(cleanPayload, V1.secretKey), dsse_signature: signAttestationStatement(cleanPayload, V1.secretKey) };
    const legacyEnvelope = signAttestation(payloadFor(e, claimed, legacy, V1, false), V1.secretKey);
    const batch = await client(e, V1).request(
      'POST',
      '/v1/validators/attestations/batch',
      { attestations: [cleanEnvelope, { ...legacyEnvelope, dsse_signature: dsseSignature }] },
      { schema: BatchAttestationReceipt },
    );
    expect(batch.results.map((r) => [r.outcome, r.code ?? null])).toEqual([
      ['created', null],
      ['refused', 'attestation_invalid'],
    ]);
    expect(batch.results[1]!.detail).toBe("envelope.dsse_signature: dsse_signature does not verify against validator_hotkey over the attestation's in-toto statement");
    // Without dsse_signature (a validator of the previous release): accepted as before.
    expect(await client(e, V1).request('POST', '/v1/validators/attestations', legacyEnvelope, { schema: AttestationReceipt })).toMatchObject({ created: true });

    // Served: the statement of the payload as signed, and a signature standard DSSE code verifies.
    const served = await call(e, 'GET', `/v1/attestations/${envelope.canonical_hash}/dsse`, paid);
    expect(served.status).toBe(200);
    const dsseEnvelope = served.body as { payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] };
    expect(dsseEnvelope.payloadType).toBe('application/vnd.in-toto+json');
    expect(dsseEnvelope.signatures).toEqual([{ keyid: Buffer.from(ss58Decode(V1.hotkey)).toString('hex'), sig: Buffer.from(dsseSignature, 'hex').toString('base64') }]);
    expect(independentlyVerified(dsseEnvelope, V1.hotkey)).toBe(true);
    expect(independentlyVerified(dsseEnvelope, V2.hotkey)).toBe(false);
    const statementText = Buffer.from(dsseEnvelope.payload, 'base64').toString('utf8');
    const statement = JSON.parse(statementText) as Record<string, unknown>;
    expect(statement).toEqual({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: withFindings.artifact.bundle_hash, digest: { sha256: withFindings.artifact.sha256.slice('sha256:'.length) } }],
      predicateType: 'https://vigil.dev/attestation/v1',
      predicate: payload,
    });
    // The predicate is the attestation: its canonical hash is the attestation's identity.
    expect(canonicalHash(statement.predicate)).toBe(envelope.canonical_hash);
    // A changed predicate no longer verifies with the independent implementation.
    const tampered = { ...dsseEnvelope, payload: Buffer.from(statementText.replace('"BLOCK"', '"ALLOW"')).toString('base64') };
    expect(independentlyVerified(tampered, V1.hotkey)).toBe(false);
    // Vigil's offline helper agrees on both.
    expect(verifyAttestationDsse(dsseEnvelope)).toMatchObject({ ok: true, reason: null, canonical_hash: envelope.canonical_hash });
    expect(verifyAttestationDsse(tampered)).toMatchObject({ ok: false, reason: 'no signature verifies against validator_hotkey' });

    const cleanServed = await call(e, 'GET', `/v1/attestations/${cleanEnvelope.canonical_hash}/dsse`, free);
    expect(cleanServed.status).toBe(200);
    expect(independentlyVerified(cleanServed.body as never, V1.hotkey)).toBe(true);

    // The refusals: findings on a free plan, an attestation without a DSSE signature, an unknown or malformed hash, no key.
    expect(await call(e, 'GET', `/v1/attestations/${envelope.canonical_hash}/dsse`, free)).toMatchObject({
      status: 403,
      body: { detail: 'attestation carries findings, which a free plan cannot read', code: 'attestation_dsse_withheld' },
    });
    expect(await call(e, 'GET', `/v1/attestations/${legacyEnvelope.canonical_hash}/dsse`, paid)).toMatchObject({
      status: 404,
      body: { detail: 'attestation has no DSSE signature', code: 'attestation_dsse_unavailable' },
    });
    for (const hash of [`sha256:${'0'.repeat(64)}`, 'sha256:nothex']) {
      expect(await call(e, 'GET', `/v1/attestations/${hash}/dsse`, paid)).toMatchObject({ status: 404, body: { detail: 'attestation not found', code: 'attestation_not_found' } });
    }
    expect((await fetch(`${e.baseUrl}/v1/attestations/${envelope.canonical_hash}/dsse`)).status).toBe(401);

    // The stored envelope (and so the log entry and canonical hash) is what it always was.
    const detail = await call(e, 'GET', `/v1/attestations/${envelope.canonical_hash}`, paid);
    expect(detail.body!.envelope).toEqual({ payload, canonical_hash: envelope.canonical_hash, signature: envelope.signature });
  });
});
