import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { MetagraphSnapshot } from '@vigil/core';
import { fromHex } from '@vigil/crypto';
import { formatVerifierKey, leafHash, noteVerifier, openCheckpoint, tileHashReader, tilePath, treeHash, verifyConsistency, verifyTlogProof } from '@vigil/tlog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Vigil,
  VigilAuthenticationError,
  VigilConflictError,
  VigilConnectionError,
  VigilNotFoundError,
  VigilPermissionError,
  VigilValidationError,
  verifyAttestationDsse,
} from '../src/index.js';
import { fileFromPath } from '../src/node/index.js';
import { startLossyProxy } from './support/stand-in.js';
import { serverBuilt, startVigilServer, type VigilServer } from './support/vigil-server.js';

// Every method of the SDK against a real listening Vigil (the built vigil-server command on a
// temporary SQLite database with the demo data), with a paid organization key made by
// `vigil-server keys create`.

const LOCKFILE = readFileSync(new URL('../../lockfiles/test/fixtures/npm-v3/package-lock.json', import.meta.url), 'utf8');
const SIGSTORE_BUNDLE = JSON.parse(
  readFileSync(new URL('../../../apps/server/test/fixtures/sigstore/gundam-visor-1.0.1.attestations.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

let server: VigilServer;
let vigil: Vigil;

beforeAll(async () => {
  server = await startVigilServer();
  vigil = new Vigil({ baseUrl: server.baseUrl, apiKey: server.paidKey });
}, 660_000);

afterAll(async () => {
  await server?.stop();
});

async function refusal<E>(call: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

describe.skipIf(!serverBuilt)('Vigil against a real server', () => {
  it('public reads: health, identity, dashboard, trends, rounds, leaderboard, agents, with timestamps as Date', async () => {
    const open = Vigil.public({ baseUrl: server.baseUrl });
    expect(await open.network.health()).toEqual({ status: 'ok' });
    expect((await open.network.identity()).server_hotkey).toMatch(/^[0-9a-f]{64}$/);
    const dashboard = await open.network.dashboard();
    expect(dashboard.last_update).toBeInstanceOf(Date);
    expect(dashboard.throughput).toHaveLength(24);
    const trends = await open.trends.get({ days: 7 });
    expect(trends.days).toBe(7);
    expect(trends.series[0]?.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const status = await open.rounds.status();
    expect(status.server_time).toBeInstanceOf(Date);
    // Naive timestamps are UTC: the server's clock and ours agree to within minutes, not hours.
    expect(Math.abs(status.server_time.getTime() - Date.now())).toBeLessThan(10 * 60_000);
    const rounds = await open.rounds.list({ limit: 5 });
    expect(rounds.rounds.length).toBeGreaterThan(0);
    const round = rounds.rounds[0]!;
    expect(round.closed_at).toBeInstanceOf(Date);
    const scores = await open.rounds.scores(round.round_id);
    expect(scores.round_id).toBe(round.round_id);
    const winner = round.winners[0]!;
    const tasks = await open.rounds.attestations(round.round_id, { miner: winner.hotkey });
    expect(tasks.round_status).toBe('closed');
    expect(tasks.miner_hotkey).toBe(winner.hotkey);

    const leaderboard = await open.leaderboard.get();
    expect(leaderboard.meta.last_update).toBeInstanceOf(Date);
    const agents = await open.agents.list({ track: round.track });
    expect(agents.agents.every((agent) => agent.track === round.track && agent.updated_at instanceof Date)).toBe(true);
    const agent = await open.agents.get(agents.agents[0]!.hotkey, { track: round.track });
    expect(agent.hotkey).toBe(agents.agents[0]!.hotkey);
  });

  it('account and keys: get, create, list, revoke', async () => {
    const self = await vigil.account.get();
    expect(self.account.name).toBe('acme');
    expect(self.account.created_at).toBeInstanceOf(Date);
    const created = await vigil.keys.create({ name: 'ci', scopes: ['read'] });
    expect(created.token).toMatch(/^vgl_[0-9a-f]{8}_[0-9a-f]{48}$/);
    const listed = await vigil.keys.list();
    expect(listed.map((key) => key.key_id)).toContain(created.key_id);
    const reader = new Vigil({ baseUrl: server.baseUrl, apiKey: created.token });
    expect((await reader.account.get()).key.scopes).toEqual(['read']);
    const revoked = await vigil.keys.revoke(created.key_id);
    expect(revoked.status).toBe('revoked');
    expect(revoked.revoked_at).toBeInstanceOf(Date);
    await refusal(reader.account.get(), VigilAuthenticationError);
  });

  it('artifacts: upload (bytes, stream, file), get, by purl, by hash, facts, verify, verify batch, provenance', async () => {
    const bytes = new TextEncoder().encode(`sdk artifact ${Date.now()} ${Math.random()}\n`);
    const uploaded = await vigil.artifacts.upload({ track: 'packages', package: 'pkg:npm/vigil-sdk-test@1.0.0', file: bytes });
    expect(uploaded.id).toMatch(/^art_\d+$/);
    expect(uploaded.created_at).toBeInstanceOf(Date);
    // The same bytes as a stream: idempotent by content, the same artifact.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 5));
        controller.enqueue(bytes.slice(5));
        controller.close();
      },
    });
    expect((await vigil.artifacts.upload({ track: 'packages', package: 'pkg:npm/vigil-sdk-test@1.0.0', file: stream })).id).toBe(uploaded.id);
    // And from a file on disk, through @vigil/client/node.
    const path = `${server.dataDir}/upload.bin`;
    (await import('node:fs')).writeFileSync(path, bytes);
    expect((await vigil.artifacts.upload({ track: 'packages', package: 'pkg:npm/vigil-sdk-test@1.0.0', file: await fileFromPath(path) })).id).toBe(uploaded.id);

    expect((await vigil.artifacts.get(uploaded.id)).sha256).toBe(uploaded.sha256);
    const byPurl = await vigil.artifacts.getByPurl('npm:vigil-sdk-test@1.0.0');
    expect(byPurl.items.map((a) => a.id)).toEqual([uploaded.id]);
    expect(byPurl.nextPage).toBeNull();
    const byHash = await vigil.artifacts.getByHash(uploaded.sha256);
    expect(byHash.items.map((a) => a.id)).toContain(uploaded.id);
    const facts = await vigil.artifacts.facts(uploaded.id);
    expect(facts.artifact_id).toBe(uploaded.id);

    const verified = await vigil.artifacts.verify('pkg:npm/vigil-sdk-test@1.0.0');
    expect(verified.state).toBe('pending');
    expect(verified.queued).toBe(true);
    const batch = await vigil.artifacts.verifyBatch(['pkg:npm/vigil-sdk-test@1.0.0', 'npm:never-uploaded@0.0.1']);
    expect(batch.results.map((r) => r.queued)).toEqual([true, false]);

    // A real Sigstore bundle, verified by the server, that signs other bytes: refused with the reason.
    const refused = await refusal(vigil.artifacts.provenance(uploaded.id, SIGSTORE_BUNDLE), VigilValidationError);
    expect(refused.status).toBe(422);
    expect(refused.detail).toBe('provenance bundle does not verify');
    expect(refused.errors[0]?.path).toBe('body');
  });

  it('attestations: list across pages, get, server verify, offline verifier, DSSE form, search', async () => {
    const first = await vigil.attestations.list({ verdict: 'BLOCK' }, { pageSize: 3 });
    expect(first.items).toHaveLength(3);
    expect(first.nextPage).toMatch(/^c1\./);
    const second = await vigil.attestations.list({ verdict: 'BLOCK' }, { pageSize: 3, page: first.nextPage! });
    expect(second.items.map((a) => a.canonical_hash)).not.toContain(first.items[0]!.canonical_hash);
    const record = first.items[0]!;
    expect(record.recorded_at).toBeInstanceOf(Date);
    expect(record.verdict).toBe('BLOCK');

    const since = await vigil.attestations.list({ until: record.recorded_at, since: new Date(record.recorded_at.getTime() - 1) }, { pageSize: 100 });
    expect(since.items.every((a) => a.recorded_at.getTime() === record.recorded_at.getTime() - 1 || a.recorded_at < record.recorded_at)).toBe(true);

    const detail = await vigil.attestations.get(record.canonical_hash);
    expect(detail.attestation.canonical_hash).toBe(record.canonical_hash);
    expect(detail.envelope).not.toBeNull();
    expect('log_proof' in detail).toBe(false);
    const proven = await vigil.attestations.getWithProof(record.canonical_hash);
    expect(proven.attestation).toEqual(detail.attestation);
    expect(proven.log_proof).toMatch(/^c2sp\.org\/tlog-proof@v1\nindex \d+\n/);
    expect(JSON.parse(proven.log_entry!)).toMatchObject({ type: 'vigil.attestation/v1', canonical_hash: record.canonical_hash, signature: detail.envelope!.signature });
    const checked = await vigil.attestations.verify(detail.envelope!);
    expect(checked.checks.hash).toBe(true);
    expect(checked.checks.signature).toBe(true);
    expect(checked.checked_against.taken_at).toBeInstanceOf(Date);

    const verifier = await vigil.attestations.verifier({ snapshot: server.metagraph() as MetagraphSnapshot });
    expect(verifier.serverHotkey).toMatch(/^[0-9a-f]{64}$/);
    const offline = verifier.verify(detail.envelope);
    expect(offline.checks).toEqual({ hash: checked.checks.hash, signature: checked.checks.signature, permit: checked.checks.permit });
    const tampered = { ...detail.envelope!, payload: { ...(detail.envelope!.payload as Record<string, unknown>), risk_score: 1 } };
    expect(verifier.verifyMany([detail.envelope, tampered]).map((v) => v.checks.hash)).toEqual([true, false]);
    expect((await verifier.verifyRecorded(record.canonical_hash))?.checks.signature).toBe(true);

    // The demo's validators sign the in-toto statement too: the DSSE envelope, checked offline by the SDK's helper.
    const dsse = await vigil.attestations.dsse(record.canonical_hash);
    expect(dsse.payloadType).toBe('application/vnd.in-toto+json');
    expect(verifyAttestationDsse(dsse)).toMatchObject({ ok: true, reason: null, canonical_hash: record.canonical_hash, payload: detail.envelope!.payload });
    expect(verifyAttestationDsse({ ...dsse, signatures: [{ ...dsse.signatures[0]!, sig: Buffer.from(detail.envelope!.signature, 'hex').toString('base64') }] }).ok).toBe(false);
    expect((await refusal(vigil.attestations.dsse(`sha256:${'0'.repeat(64)}`), VigilNotFoundError)).code).toBe('attestation_not_found');

    const results = await vigil.search({ q: record.canonical_hash.slice(7, 20), kind: 'attestation' });
    expect(results.items[0]?.id).toBe(record.canonical_hash);
  });

  it('log: checkpoint, tiles, consistency proofs and cosign (public), and verdict proofs on artifacts', async () => {
    const open = Vigil.public({ baseUrl: server.baseUrl });
    const hotkey = (await open.network.identity()).server_hotkey;
    const origin = `vigil/${hotkey}`;
    const logVerifier = noteVerifier(formatVerifierKey(origin, fromHex(hotkey)));
    const { checkpoint } = openCheckpoint(await open.log.checkpoint(), origin, logVerifier);
    expect(checkpoint.size).toBeGreaterThan(300);
    // Tiles through the SDK, each checked against the signed root by @vigil/tlog's tile reader.
    const tiles = tileHashReader(checkpoint, { readTiles: (wanted) => Promise.all(wanted.map((t) => open.log.tile(tilePath(t)))) });
    const oldRoot = await treeHash(300, tiles);
    const proof = await open.log.consistency(300, checkpoint.size);
    expect(proof.every((h) => h.length === 32)).toBe(true);
    expect(verifyConsistency(proof, checkpoint.size, checkpoint.root, 300, oldRoot)).toBe(true);
    expect(await open.log.consistency(checkpoint.size, checkpoint.size)).toEqual([]);
    const beyond = await refusal(open.log.consistency(1, checkpoint.size + 1_000_000), VigilNotFoundError);
    expect(beyond.code).toBe('log_size_not_reached');
    expect((await refusal(open.log.consistency(0, 1), VigilValidationError)).code).toBe('log_consistency_range');
    expect(() => open.log.tile('../v1/health')).toThrow(TypeError);
    await expect(open.log.consistency(1.5, 3)).rejects.toThrow(TypeError);
    // This server has no witness configured: a cosignature is refused with the reason.
    const cosign = await refusal(open.log.cosign(await open.log.checkpoint()), VigilValidationError);
    expect(cosign.status).toBe(422);
    expect(cosign.detail).toBe('this log accepts no cosignatures: no witness is configured (VIGIL_LOG_WITNESSES)');

    // A demo artifact with a published verdict: its newest verdict entry, proven against a fresh checkpoint.
    const records = await vigil.attestations.list({}, { pageSize: 100 });
    let found: Awaited<ReturnType<typeof vigil.artifacts.get>> | undefined;
    for (const id of [...new Set(records.items.map((r) => `art_${r.artifact.id}`))]) {
      const artifact = await vigil.artifacts.get(id);
      if (artifact.verdict !== null) {
        found = artifact;
        break;
      }
    }
    expect(found).toBeDefined();
    const proven = await vigil.artifacts.getWithProof(found!.id);
    const entry = JSON.parse(proven.log_entry!) as Record<string, unknown>;
    expect(entry).toMatchObject({ type: 'vigil.verdict/v1', track: found!.track, verdict: found!.verdict!.verdict, risk_score: found!.verdict!.risk_score, round_id: found!.verdict!.round_id });
    const verified = verifyTlogProof(proven.log_proof!, { leafHash: leafHash(new TextEncoder().encode(proven.log_entry!)), origin, logVerifier });
    expect(verified.checkpoint.size).toBeGreaterThanOrEqual(checkpoint.size);
    // The same verdict as a SLSA VSA in a DSSE envelope, its signature checked with node:crypto over the DSSE PAE.
    const vsa = await vigil.artifacts.vsa(found!.id);
    expect(vsa.signatures[0]!.keyid).toBe(hotkey);
    const payload = Buffer.from(vsa.payload, 'base64');
    const pae = Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(vsa.payloadType)} ${vsa.payloadType} ${payload.length} `), payload]);
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hotkey, 'hex').toString('base64url') }, format: 'jwk' });
    expect(verifySignature(null, pae, publicKey, Buffer.from(vsa.signatures[0]!.sig, 'base64'))).toBe(true);
    expect(JSON.parse(payload.toString())).toMatchObject({ predicateType: 'https://slsa.dev/verification_summary/v1', predicate: { verifiedLevels: [`VIGIL_VERDICT_${found!.verdict!.verdict}`] } });
    // A reference nobody uploaded: pending, nothing to prove.
    const pending = await vigil.artifacts.verifyWithProof('npm:never-uploaded-proof@0.0.1');
    expect(pending).toMatchObject({ state: 'pending', log_proof: null, log_entry: null });
  });

  it('policies: create, list, get, update, versions, evaluate, evaluations, delete', async () => {
    const created = await vigil.policies.create({
      name: 'sdk-prod',
      rules: [{ name: 'vigil-block', expression: 'artifact.verdict != "BLOCK"', action: 'block' }],
    });
    expect(created.version).toBe(1);
    expect(created.created_at).toBeInstanceOf(Date);
    const all: string[] = [];
    for await (const policy of vigil.policies.list({ pageSize: 1 })) all.push(policy.name);
    expect(all).toContain('sdk-prod');
    expect((await vigil.policies.get(created.id)).name).toBe('sdk-prod');
    const updated = await vigil.policies.update(created.id, { description: 'production gate' });
    expect(updated.version).toBe(2);
    expect((await vigil.policies.versions.get(created.id, 1)).description).toBeNull();
    const evaluation = await vigil.policies.evaluate({ artifact: 'npm:vigil-sdk-test@1.0.0', policy: 'sdk-prod' });
    expect(evaluation.id).toMatch(/^eval_/);
    expect(evaluation.evaluated_at).toBeInstanceOf(Date);
    expect((await vigil.policies.evaluations.get(evaluation.id)).id).toBe(evaluation.id);
    expect((await vigil.policies.delete(created.id)).id).toBe(created.id);
    await refusal(vigil.policies.get(created.id), VigilNotFoundError);
  });

  it('repositories: create, list, get, verification, verify, delete', async () => {
    const registered = await vigil.repositories.create({ url: 'https://github.com/acme/sdk-app.git', provider: 'github' });
    const id = registered.data.id;
    expect(registered.data.webhook.secret).toBeTruthy();
    expect((await vigil.repositories.list()).items.map((r) => r.id)).toContain(id);
    expect((await vigil.repositories.get(id)).created_at).toBeInstanceOf(Date);
    // Nothing verified yet (the push needs GitHub): the documented 409.
    const notYet = await refusal(vigil.repositories.verification(id), VigilConflictError);
    expect(notYet.detail).toMatch(/has no verified push yet/);
    const verification = await vigil.repositories.verify({ lockfiles: [{ path: 'package-lock.json', content: LOCKFILE }] });
    expect(verification.verified_at).toBeInstanceOf(Date);
    expect(verification.files.map((f) => f.path)).toEqual(['package-lock.json']);
    expect((await vigil.repositories.delete(id)).id).toBe(id);
    await refusal(vigil.repositories.get(id), VigilNotFoundError);
  });

  it('admin: accounts, their keys, key revocation, audit log, validators, metagraph, rounds, outbox, advisories, package requests', async () => {
    const account = await vigil.admin.accounts.create({ name: 'sdk-corp' });
    expect(account.plan).toBe('free');
    expect((await vigil.admin.accounts.list()).map((a) => a.name)).toContain('sdk-corp');
    expect((await vigil.admin.accounts.get(account.id)).name).toBe('sdk-corp');
    expect((await vigil.admin.accounts.update(account.id, { plan: 'paid', trusted: true })).plan).toBe('paid');
    const key = await vigil.admin.accounts.keys.create(account.id, { name: 'bootstrap', scopes: ['admin', 'keys'] });
    expect((await vigil.admin.accounts.keys.list(account.id)).map((k) => k.key_id)).toEqual([key.key_id]);
    expect((await vigil.admin.keys.revoke(key.key_id)).status).toBe('revoked');
    const audit = await vigil.admin.auditLog.list({ pageSize: 2 });
    expect(audit.items).toHaveLength(2);
    expect(audit.items[0]!.at).toBeInstanceOf(Date);
    expect(audit.nextPage).toBe('2');

    const validators = await vigil.admin.validators.list();
    const active = validators.find((v) => v.status === 'active')!;
    expect((await vigil.admin.validators.suspend(active.hotkey)).status).toBe('suspended');
    expect((await vigil.admin.validators.restore(active.hotkey)).status).toBe('active');
    expect((await vigil.admin.validators.setAllowlist(active.hotkey, ['127.0.0.1'])).allowed_ips).toEqual(['127.0.0.1']);
    const revokedValidator = await vigil.admin.validators.revoke(active.hotkey);
    expect(revokedValidator.status).toBe('revoked');
    expect((await vigil.admin.validators.restore(active.hotkey)).status).toBe('active');
    const pending = await refusal(vigil.admin.validators.approve(active.hotkey), VigilConflictError);
    expect(pending.detail).toMatch(/approve applies to pending validators/);

    const snapshot = server.metagraph() as { netuid: number; block: number; taken_at: string; neurons: unknown[] };
    expect((await vigil.admin.metagraph.upload(snapshot as never)).block).toBe(snapshot.block);
    const schedule = await vigil.admin.rounds.schedule();
    expect(schedule.server_time).toBeInstanceOf(Date);
    const evaluating = schedule.tracks.find((t) => t.current?.phase === 'evaluation')?.current;
    expect(evaluating).toBeDefined();
    const notDue = await refusal(vigil.admin.rounds.close(evaluating!.round_id), VigilConflictError);
    expect(notDue.status).toBe(409);
    const closed = await vigil.admin.rounds.close(evaluating!.round_id, { force: true });
    expect(closed.closed_at).toBeInstanceOf(Date);
    expect((await vigil.admin.outbox.get()).total).toBeGreaterThanOrEqual(0);
    expect((await vigil.admin.advisories.status()).last_import).toBeNull();
    expect(Array.isArray((await vigil.admin.packageRequests.list()).items)).toBe(true);
    // This server fetches nothing (VIGIL_REGISTRY_FETCH=false): an empty queue, every state counted.
    const queue = await vigil.admin.registries.fetches.queue({ state: 'failed' });
    expect([queue.counts, queue.due, queue.oldest_due_at, queue.fetches]).toEqual([{ queued: 0, running: 0, stored: 0, failed: 0 }, 0, null, []]);
    expect(queue.server_time).toBeInstanceOf(Date);
    expect((await vigil.admin.registries.fetches.list({ ecosystem: 'npm' })).items).toEqual([]);
    expect(await vigil.admin.registries.fetches.retry({ state: 'failed' })).toEqual({ retried: 0, purls: [] });
    const noFetch = await refusal(vigil.admin.registries.fetches.retry({ purl: 'npm:left-pad@1.3.0' }), VigilNotFoundError);
    expect([noFetch.status, noFetch.code, noFetch.detail]).toEqual([404, 'registry_fetch_not_found', 'registry fetch not found']);
    const watcher = await vigil.admin.registries.watcher();
    expect([watcher.names, watcher.watches, watcher.due, watcher.oldest_due_at, watcher.failing]).toEqual([0, { api: 0, repository: 0, operator: 0 }, 0, null, 0]);
    expect(watcher.server_time).toBeInstanceOf(Date);
  });

  it('watches: create, list, delete (this server fetches nothing, so a new watch is the documented 409)', async () => {
    const off = await refusal(vigil.watches.create({ package: 'npm:left-pad' }), VigilConflictError);
    expect([off.status, off.code, off.detail]).toEqual([409, 'watching_off', 'registry fetching is off on this server: packages cannot be watched']);
    const bad = await refusal(vigil.watches.create({ package: 'npm:left-pad@1.3.0' }), VigilValidationError);
    expect(bad.status).toBe(422);
    expect((await vigil.watches.list()).items).toEqual([]);
    const gone = await refusal(vigil.watches.delete('wat_000000000000000000000000'), VigilNotFoundError);
    expect([gone.code, gone.detail]).toEqual(['watch_not_found', 'watch not found']);
  });

  it('refusals are typed: 401, 403, 404, 422, 409, each with status, catalogue code, detail, request id and attempts', async () => {
    const stranger = new Vigil({ baseUrl: server.baseUrl, apiKey: `vgl_00000000_${'0'.repeat(48)}` });
    const unauthenticated = await refusal(stranger.account.get(), VigilAuthenticationError);
    expect([unauthenticated.status, unauthenticated.code, unauthenticated.detail, unauthenticated.attempts]).toEqual([401, 'invalid_api_key', 'invalid or revoked api key', 1]);
    expect(unauthenticated.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const free = new Vigil({ baseUrl: server.baseUrl, apiKey: server.freeKey });
    const unpaid = await refusal(free.artifacts.verify('npm:left-pad@1.3.0'), VigilPermissionError);
    expect([unpaid.status, unpaid.code, unpaid.detail]).toEqual([403, 'paid_plan_required', 'this endpoint requires a paid plan']);

    const missing = await refusal(vigil.rounds.scores('0123456789abcdef'), VigilNotFoundError);
    expect([missing.status, missing.code, missing.detail, missing.endpoint]).toEqual([404, 'round_not_found', 'round not found', 'GET /v1/rounds/0123456789abcdef/scores']);

    const invalid = await refusal(vigil.trends.get({ days: 999 }), VigilValidationError);
    expect([invalid.status, invalid.code, invalid.detail, invalid.errors[0]?.path]).toEqual([422, 'validation_error', 'Validation error', 'query.days']);

    await vigil.admin.accounts.create({ name: 'sdk-twice' });
    const taken = await refusal(vigil.admin.accounts.create({ name: 'sdk-twice' }), VigilConflictError);
    expect([taken.status, taken.code, taken.detail]).toEqual([409, 'account_name_taken', 'account name already taken']);

    const publicOnly = Vigil.public({ baseUrl: server.baseUrl });
    const anonymous = await refusal(publicOnly.keys.list(), VigilAuthenticationError);
    expect([anonymous.code, anonymous.detail]).toEqual(['missing_api_key', 'missing api key']);
  });

  it('a POST whose answer is lost is sent again with the same Idempotency-Key and done once; key creation is not resent', async () => {
    const proxy = await startLossyProxy(server.baseUrl, (_i, seen) => seen.method === 'POST' && proxy.seen.filter((s) => s.method === 'POST').length === 1);
    try {
      const delays: number[] = [];
      const through = new Vigil({ baseUrl: proxy.baseUrl, apiKey: server.paidKey, sleep: async (ms) => void delays.push(ms), random: () => 0.5 });
      const rules = [{ name: 'vigil-block', expression: 'artifact.verdict != "BLOCK"', action: 'block' as const }];
      const policy = await through.policies.create({ name: 'sdk-once', rules });
      const posts = proxy.seen.filter((s) => s.method === 'POST');
      expect(posts).toHaveLength(2);
      expect(posts[1]!.headers['idempotency-key']).toBe(posts[0]!.headers['idempotency-key']);
      expect(delays).toEqual([1000]);
      // The server created it once (the first request) and answered the second from it.
      const names: string[] = [];
      for await (const p of vigil.policies.list()) names.push(p.name);
      expect(names.filter((name) => name === 'sdk-once')).toHaveLength(1);
      expect((await vigil.policies.get(policy.id)).version).toBe(1);
    } finally {
      await proxy.close();
    }

    const lossy = await startLossyProxy(server.baseUrl, (_i, seen) => seen.method === 'POST');
    try {
      const through = new Vigil({ baseUrl: lossy.baseUrl, apiKey: server.paidKey, sleep: async () => undefined });
      const before = (await vigil.keys.list()).length;
      const lost = await refusal(through.keys.create({ name: 'lost', scopes: ['read'] }), VigilConnectionError);
      expect(lost.attempts).toBe(1);
      expect(lossy.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
      // The key exists: what the docs tell a caller to look for and revoke.
      const keys = await vigil.keys.list();
      expect(keys).toHaveLength(before + 1);
      expect(keys.filter((k) => k.name === 'lost')).toHaveLength(1);
    } finally {
      await lossy.close();
    }
  });
});
