import { startTestApp } from '../src/test-support/test-app.js';
import { canonicalJson } from '@vigil/core';
import { fromHex } from '@vigil/crypto';
import { generateSecretKey, getPublicKey } from '@vigil/crypto';
import {
  cosignatureVerifier,
  cosigner,
  formatVerifierKey,
  parseHash,
  signNote,
  SIGNATURE_TYPE_COSIGNATURE_V1,
  verifyConsistency,
  leafHash,
  noteVerifier,
  openCheckpoint,
  parseEntryBundle,
  proveInclusion,
  tileHashReader,
  tilePath,
  verifyInclusion,
  verifyTlogProof,
  type Tile,
} from '@vigil/tlog';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import { closeRound, recordAttestations } from '../src/features/network/index.js';
import type { Database } from '../src/platform/db/schema.js';
import { describeEachDialect, type DialectContext } from '../src/test-support/databases.js';
import { attest, bundle, HOUR, newKey, seedRound, signedEnvelope, findTask, T0 } from '../src/test-support/fixtures.js';

interface Server {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

const servers: Server[] = [];

async function start(ctx: DialectContext, env: Record<string, string> = {}): Promise<Server> {
  const { app, url, close } = await startTestApp({ env: { LOG_LEVEL: 'warn', ...env }, database: ctx });
  const server = { app, url, close };
  servers.push(server);
  return server;
}

async function readKey(db: Kysely<Database>, plan: 'paid' | 'free'): Promise<string> {
  const lines = await runKeysCommand(db, 'keys', ['create', '--org', `org-${plan}`, '--plan', plan, '--scopes', 'read'], Date.now());
  return lines.find((line) => line.startsWith('vgl_'))!;
}

const miners = [newKey(), newKey()];
const validators = [newKey(), newKey()];
const ARTIFACTS = [
  { label: 'bad', sourceId: 'gh', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
  { label: 'ok', sourceId: 'gh', kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
  { label: 'live-tool', sourceId: 'gh', kind: 'live' as const },
];

/** A round where miner 0 judges right and wins, its live verdict published when the round closes. */
async function seed(db: Kysely<Database>) {
  const seeded = await seedRound(db, { now: T0, miners, validators, artifacts: ARTIFACTS });
  const hashes: string[] = [];
  const at = T0 + HOUR;
  for (const v of validators) {
    for (const spec of ARTIFACTS) {
      const b = bundle('skills', spec);
      const verdict = spec.kind === 'live' ? 'WARN' : spec.groundTruth!;
      await attest(db, seeded, miners[0]!, b, v, { verdict, now: at });
      hashes.push(signedEnvelope(seeded, findTask(seeded, miners[0]!, b), v, { verdict, createdAt: at }).canonical_hash);
      await attest(db, seeded, miners[1]!, b, v, { verdict: 'ALLOW', now: at });
    }
  }
  await closeRound(db, { roundId: seeded.round.round_id, now: T0 + 3 * HOUR });
  return { seeded, hashes };
}

describeEachDialect('transparency log over HTTP', (ctx) => {
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('logs every accepted attestation and published verdict; a tile client verifies the checkpoint, tiles, bundles and an attestation proof end to end', async () => {
    const { hashes } = await seed(ctx.db());
    const server = await start(ctx, { VIGIL_LOG_ORIGIN: 'vigil.test/log' });
    // The verifier key, built from the documented parts: origin and /v1/server-identity's key.
    const identity = (await (await fetch(`${server.url}/v1/server-identity`)).json()) as { server_hotkey: string };
    const vkey = formatVerifierKey('vigil.test/log', fromHex(identity.server_hotkey));
    const verifier = noteVerifier(vkey);

    const answer = await fetch(`${server.url}/v1/log/checkpoint`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=5');
    const { checkpoint } = openCheckpoint(await answer.text(), 'vigil.test/log', verifier);
    // 12 attestations (2 miners × 3 artifacts × 2 validators), then 1 published verdict.
    expect(checkpoint.size).toBe(13);

    const tiles = tileHashReader(checkpoint, {
      readTiles: (wanted: readonly Tile[]) =>
        Promise.all(
          wanted.map(async (t) => {
            const response = await fetch(`${server.url}/v1/log/${tilePath(t)}`);
            expect(response.status).toBe(200);
            expect(response.headers.get('content-type')).toBe('application/octet-stream');
            expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
            return new Uint8Array(await response.arrayBuffer());
          }),
        ),
    });
    const bundleResponse = await fetch(`${server.url}/v1/log/tile/entries/000.p/13`);
    const entries = parseEntryBundle(new Uint8Array(await bundleResponse.arrayBuffer())).map((e) => JSON.parse(new TextDecoder().decode(e)) as Record<string, unknown>);
    expect(entries.map((e) => e.type)).toEqual([...Array(12).fill('vigil.attestation/v1'), 'vigil.verdict/v1']);
    expect(entries[12]).toEqual({
      type: 'vigil.verdict/v1',
      bundle_hash: bundle('skills', ARTIFACTS[2]!),
      track: 'skills',
      verdict: 'WARN',
      previous_verdict: null,
      risk_score: 55,
      round_id: expect.any(String),
      published_at: '2026-11-21T13:00:00.000+00:00',
    });
    // Each leaf the tile client reads (checked against the signed root) is the bundle's entry.
    for (const [i, e] of entries.entries()) {
      const proof = await proveInclusion(13, i, tiles);
      expect(verifyInclusion(proof, 13, checkpoint.root, i, leafHash(new TextEncoder().encode(canonicalJson(e))))).toBe(true);
    }

    // An attestation read with ?proof=true: the proof verifies offline against the pinned key, and
    // the entry is rebuilt from the documented fields of the answer itself.
    const key = await readKey(ctx.db(), 'paid');
    const hash = hashes[5]!;
    const plain = await fetch(`${server.url}/v1/attestations/${hash}`, { headers: { authorization: `Bearer ${key}` } });
    const plainBody = (await plain.json()) as Record<string, unknown>;
    expect(Object.keys(plainBody)).toEqual(['attestation', 'envelope', 'envelope_withheld', 'checked_against']);
    const falseBody = await (await fetch(`${server.url}/v1/attestations/${hash}?proof=false`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(falseBody).toEqual(plainBody);
    const withProof = (await (await fetch(`${server.url}/v1/attestations/${hash}?proof=true`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      attestation: { canonical_hash: string; validator_hotkey: string; verdict: string; recorded_at: string; artifact: { bundle_hash: string } };
      envelope: { signature: string };
      log_proof: string;
      log_entry: string;
    };
    const rebuilt = canonicalJson({
      type: 'vigil.attestation/v1',
      canonical_hash: withProof.attestation.canonical_hash,
      signature: withProof.envelope.signature,
      validator_hotkey: withProof.attestation.validator_hotkey,
      bundle_hash: withProof.attestation.artifact.bundle_hash,
      verdict: withProof.attestation.verdict,
      recorded_at: withProof.attestation.recorded_at,
    });
    expect(withProof.log_entry).toBe(rebuilt);
    const verified = verifyTlogProof(withProof.log_proof, { leafHash: leafHash(new TextEncoder().encode(rebuilt)), origin: 'vigil.test/log', logVerifier: verifier });
    expect(verified.checkpoint.size).toBe(13);
    expect(entries[verified.index]!.canonical_hash).toBe(hash);
    const badValue = await fetch(`${server.url}/v1/attestations/${hash}?proof=yes`, { headers: { authorization: `Bearer ${key}` } });
    expect(badValue.status).toBe(422);
    expect(((await badValue.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(['query.proof']);
    // A free plan, whose envelope is withheld (not here: no findings), gets the entry and proof alike.
    const free = await readKey(ctx.db(), 'free');
    const freeBody = (await (await fetch(`${server.url}/v1/attestations/${hash}?proof=true`, { headers: { authorization: `Bearer ${free}` } })).json()) as { log_entry: string };
    expect(freeBody.log_entry).toBe(rebuilt);
    const unknown = await (await fetch(`${server.url}/v1/attestations/sha256:${'0'.repeat(64)}?proof=true`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(unknown).toEqual({ detail: 'attestation not found', code: 'attestation_not_found' });
  });

  it('the batch path logs the envelopes it creates, in input order, and nothing for duplicates and refusals', async () => {
    const db = ctx.db();
    const seeded = await seedRound(db, { now: T0, miners, validators, artifacts: ARTIFACTS });
    const at = T0 + HOUR;
    const envelopes = ARTIFACTS.map((spec) => signedEnvelope(seeded, findTask(seeded, miners[1]!, bundle('skills', spec)), validators[0]!, { verdict: 'ALLOW', createdAt: at }));
    const stranger = newKey();
    const refused = signedEnvelope(seeded, findTask(seeded, miners[0]!, bundle('skills', ARTIFACTS[0]!)), stranger, { verdict: 'ALLOW', createdAt: at });
    const results = await recordAttestations(db, [envelopes[2]!, refused, envelopes[0]!, envelopes[2]!, envelopes[1]!], { now: at });
    expect(results.map((r) => r.outcome)).toEqual(['created', 'refused', 'created', 'duplicate', 'created']);
    const logged = await db.selectFrom('log_entries').select(['idx', 'subject', 'entry']).orderBy('idx').execute();
    expect(logged.map((r) => [Number(r.idx), r.subject])).toEqual(
      [envelopes[2]!, envelopes[0]!, envelopes[1]!].map((e, i) => [i, `attestation:${e.canonical_hash}`]),
    );
    expect(JSON.parse(logged[0]!.entry)).toMatchObject({ type: 'vigil.attestation/v1', signature: envelopes[2]!.signature, recorded_at: '2026-11-21T11:00:00.000+00:00' });
    // Recorded again: already stored, nothing appended.
    await recordAttestations(db, envelopes, { now: at + 1 });
    expect(await db.selectFrom('log_entries').select('idx').execute()).toHaveLength(3);
  });

  it('answers a tile beyond the tree with 404 and a malformed tile path with 400, from the catalogue', async () => {
    await seed(ctx.db());
    const server = await start(ctx);
    for (const path of ['tile/0/000', 'tile/0/000.p/14', 'tile/entries/000', 'tile/entries/001.p/1', 'tile/1/000.p/1']) {
      const response = await fetch(`${server.url}/v1/log/${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({ detail: 'log tile not found', code: 'log_tile_not_found' });
    }
    for (const path of ['tile/0/0', 'tile/0/000.p/0', 'tile/0/000.p/256', 'tile/x/000', 'tile/entries']) {
      const response = await fetch(`${server.url}/v1/log/${path}`);
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toEqual({ detail: 'malformed log tile path', code: 'log_tile_malformed' });
    }
    // Without VIGIL_LOG_ORIGIN the origin names the server's key.
    const identity = (await (await fetch(`${server.url}/v1/server-identity`)).json()) as { server_hotkey: string };
    const note = await (await fetch(`${server.url}/v1/log/checkpoint`)).text();
    expect(note.split('\n')[0]).toBe(`vigil/${identity.server_hotkey}`);
    openCheckpoint(note, `vigil/${identity.server_hotkey}`, noteVerifier(formatVerifierKey(`vigil/${identity.server_hotkey}`, fromHex(identity.server_hotkey))));
  });

  it('serves consistency proofs between any two sizes, one base64 hash per line, that @vigil/tlog verifies; refuses a bad range', async () => {
    const db = ctx.db();
    const server = await start(ctx, { VIGIL_LOG_ORIGIN: 'vigil.test/log' });
    const identity = (await (await fetch(`${server.url}/v1/server-identity`)).json()) as { server_hotkey: string };
    const verifier = noteVerifier(formatVerifierKey('vigil.test/log', fromHex(identity.server_hotkey)));
    const roots: Record<number, Uint8Array> = {};
    // Checkpoints at each size the seed passes through: 12 attestations then the verdict, in steps.
    await seed(db);
    const at13 = openCheckpoint(await (await fetch(`${server.url}/v1/log/checkpoint`)).text(), 'vigil.test/log', verifier).checkpoint;
    roots[13] = at13.root;
    const entries = parseEntryBundle(new Uint8Array(await (await fetch(`${server.url}/v1/log/tile/entries/000.p/13`)).arrayBuffer()));
    const leaves = entries.map((e) => leafHash(e));
    const { rootFromLeafHashes } = await import('@vigil/tlog');
    for (let from = 1; from <= 13; from++) {
      const response = await fetch(`${server.url}/v1/log/consistency?from=${from}&to=13`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const text = await response.text();
      const proof = text === '' ? [] : text.split('\n').slice(0, -1).map(parseHash);
      if (from === 13) expect(text).toBe('');
      else expect(text.endsWith('\n')).toBe(true);
      const oldRoot = rootFromLeafHashes(leaves.slice(0, from));
      expect(verifyConsistency(proof, 13, at13.root, from, oldRoot), `from ${from}`).toBe(true);
      // Any other old root (a rewritten history) fails against the same proof.
      expect(verifyConsistency(proof, 13, at13.root, from, leafHash(new Uint8Array([from])))).toBe(false);
    }
    // Between two earlier sizes too.
    const mid = await (await fetch(`${server.url}/v1/log/consistency?from=5&to=9`)).text();
    expect(verifyConsistency(mid.split('\n').slice(0, -1).map(parseHash), 9, rootFromLeafHashes(leaves.slice(0, 9)), 5, rootFromLeafHashes(leaves.slice(0, 5)))).toBe(true);

    for (const query of ['from=0&to=13', 'from=5&to=4', 'from=1', 'to=3', 'from=01&to=3', 'from=-1&to=3', 'from=1.5&to=3', 'from=a&to=3', '']) {
      const response = await fetch(`${server.url}/v1/log/consistency?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json(), query).toEqual({ detail: 'invalid log consistency range: need 1 <= from <= to', code: 'log_consistency_range' });
    }
    const beyond = await fetch(`${server.url}/v1/log/consistency?from=1&to=14`);
    expect(beyond.status).toBe(404);
    expect(await beyond.json()).toEqual({ detail: 'the log has not reached that tree size', code: 'log_size_not_reached' });
  });

  it('keeps the cosignatures of configured witnesses on checkpoints it signed, serves them on the checkpoint, and refuses anything else', async () => {
    const db = ctx.db();
    await seed(db);
    const witnessSeed = generateSecretKey();
    const witnessKey = formatVerifierKey('witness.test/w1', getPublicKey(witnessSeed), SIGNATURE_TYPE_COSIGNATURE_V1);
    const otherSeed = generateSecretKey();
    const server = await start(ctx, { VIGIL_LOG_ORIGIN: 'vigil.test/log', VIGIL_LOG_WITNESSES: witnessKey });
    const identity = (await (await fetch(`${server.url}/v1/server-identity`)).json()) as { server_hotkey: string };
    const verifier = noteVerifier(formatVerifierKey('vigil.test/log', fromHex(identity.server_hotkey)));
    const note = await (await fetch(`${server.url}/v1/log/checkpoint`)).text();
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    const { sigs } = openCheckpoint(note, 'vigil.test/log', verifier).note;
    const post = (body: string, type = 'text/plain') => fetch(`${server.url}/v1/log/cosignature`, { method: 'POST', headers: { 'content-type': type }, body });

    // The witness cosigns the note as served and posts it back.
    const cosigned = signNote(text, [cosigner('witness.test/w1', witnessSeed, () => 1_800_000_000)], sigs);
    const answer = await post(cosigned);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const answered = await answer.text();
    const witnessVerifier = cosignatureVerifier(witnessKey);
    const opened = openCheckpoint(answered, 'vigil.test/log', verifier, [witnessVerifier]);
    expect(opened.note.sigs.map((s) => s.name)).toEqual(['vigil.test/log', 'witness.test/w1']);
    // The checkpoint endpoint now carries the cosignature, while the tree stays at that size.
    const served = await (await fetch(`${server.url}/v1/log/checkpoint`)).text();
    expect(served).toBe(answered);
    // A tlog-proof of an entry against it satisfies a client that requires one witness.
    const key = await readKey(db, 'paid');
    const hashes = (await db.selectFrom('log_entries').select(['subject', 'entry']).where('idx', '=', 0).executeTakeFirstOrThrow());
    const withProof = (await (await fetch(`${server.url}/v1/attestations/${hashes.subject.slice('attestation:'.length)}?proof=true`, { headers: { authorization: `Bearer ${key}` } })).json()) as { log_proof: string };
    const verified = verifyTlogProof(withProof.log_proof, { leafHash: leafHash(new TextEncoder().encode(hashes.entry)), origin: 'vigil.test/log', logVerifier: verifier, witnesses: [witnessVerifier], minWitnesses: 1 });
    expect(verified.witnessSignatures).toHaveLength(1);
    // An older cosignature of the same checkpoint does not replace the newer one; a newer does.
    expect(await (await post(signNote(text, [cosigner('witness.test/w1', witnessSeed, () => 1_700_000_000)], sigs))).text()).toBe(answered);
    const newer = await (await post(signNote(text, [cosigner('witness.test/w1', witnessSeed, () => 1_900_000_000)], sigs))).text();
    expect(newer).not.toBe(answered);
    openCheckpoint(newer, 'vigil.test/log', verifier, [witnessVerifier]);
    expect(await db.selectFrom('log_cosignatures').selectAll().execute()).toHaveLength(1);

    const refusals: [string, string, string?][] = [
      // Not a configured witness.
      [signNote(text, [cosigner('witness.test/other', otherSeed)], sigs), 'body: no cosignature by a configured witness (VIGIL_LOG_WITNESSES)'],
      // The log's signature dropped: not a checkpoint this log signed.
      [signNote(text, [cosigner('witness.test/w1', witnessSeed)]), 'body: not a checkpoint of vigil.test/log signed by this log'],
      // A checkpoint of another size, signed by someone else with the log's name.
      [signNote(text.replace(/\n13\n/, '\n14\n'), [cosigner('witness.test/w1', witnessSeed)], sigs), 'body: a signature does not verify'],
      ['not a note', 'body: not a checkpoint of vigil.test/log signed by this log'],
      // A second w1 line (timestamp 2^53, a bigint: the cosigner's clock is typed as a number) after w1's kept valid one: refused as that line alone is.
      [`${newer}${signNote(text, [cosigner('witness.test/w1', witnessSeed, () => (2n ** 53n) as unknown as number)]).trimEnd().split('\n').at(-1)}\n`, 'body: the cosignature of witness.test/w1+'],
    ];
    for (const [body, detail] of refusals) {
      const response = await post(body);
      expect(response.status, detail).toBe(422);
      const error = (await response.json()) as { code: string; detail: string };
      expect(error.code).toBe('log_cosignature_refused');
      expect(error.detail.startsWith(detail), error.detail).toBe(true);
    }
    // A witness line whose signature is bad (a flipped byte): refused.
    const line = cosigned.trimEnd().split('\n').at(-1)!;
    // A character well inside the signature: the last ones before the padding carry bits a strict
    // decoder requires to be zero, so flipping them is a malformed line, not a bad signature.
    const flipped = line.slice(0, -10) + (line.at(-10) === 'A' ? 'B' : 'A') + line.slice(-9);
    const bad = await post(cosigned.replace(line, flipped));
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^body: a signature does not verify/);
    const json = await post(JSON.stringify({ note: cosigned }), 'application/json');
    expect(json.status).toBe(415);
    // The note itself sent as application/json (not JSON at all): the same 415, not a 400 for malformed JSON.
    const mislabelled = await post(cosigned, 'application/json');
    expect([mislabelled.status, ((await mislabelled.json()) as { code: string }).code]).toEqual([415, 'unsupported_media_type']);

    // Without witnesses configured nothing is accepted, and kept lines of unconfigured witnesses are not served.
    const plain = await start(ctx, { VIGIL_LOG_ORIGIN: 'vigil.test/log' });
    const none = await fetch(`${plain.url}/v1/log/cosignature`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: cosigned });
    expect(none.status).toBe(422);
    expect(((await none.json()) as { detail: string }).detail).toBe('this log accepts no cosignatures: no witness is configured (VIGIL_LOG_WITNESSES)');
    const plainNote = await (await fetch(`${plain.url}/v1/log/checkpoint`)).text();
    expect(plainNote.startsWith(text)).toBe(true);
    expect(plainNote.split('\n— ')).toHaveLength(2);
  });
});
