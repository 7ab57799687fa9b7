import { startTestApp } from '../src/test-support/test-app.js';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import { listAttestations } from '../src/features/network/attestations/attestations-read.js';
import { closedAfterEach } from '../src/test-support/closed-after-each.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { attest, bundle, HOUR, newKey, seedRound, T0 } from '../src/test-support/fixtures.js';
import { operatorKey } from '../src/test-support/operator-key.js';

interface Server {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

const servers = closedAfterEach<Server>();


interface Body {
  id?: string;
  detail?: string;
  results?: Result[];
  artifacts?: unknown[];
  packages?: { purl: string }[];
  errors?: { path: string }[];
}
type Answer = { status: number; headers: Headers; body: Body };
type Result = { type: string; kind: string; id: string; title: string; snippet: string; score: number; href: string };

describeEachDialect('customer API: search visibility', (ctx) => {
  async function start(): Promise<Server> {
    const { app, url, close } = await startTestApp({ database: ctx });
    const server = { app, url, close };
    servers.push(server);
    return server;
  }
  const call = async (server: Server, method: string, path: string, token: string, body?: Buffer): Promise<Answer> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/octet-stream';
    const response = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : new Uint8Array(body) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Body) };
  };
  const upload = (server: Server, token: string, ref: string, bytes: Buffer) =>
    call(server, 'POST', `/v1/artifacts?track=packages&package=${encodeURIComponent(ref)}`, token, bytes);
  const find = async (server: Server, token: string, q: string): Promise<Result[]> => {
    const answer = await call(server, 'GET', `/v1/search?q=${encodeURIComponent(q)}`, token);
    expect(answer.status).toBe(200);
    return answer.body.results!;
  };
  const artifactIds = (results: Result[]) => results.filter((r) => r.type === 'artifact').map((r) => r.id);

  it("finds an upload's package reference only for the accounts its claim counts for, and reads another account's private upload as an unknown id", async () => {
    const db = ctx.db();
    const alice = await operatorKey(db, ['--org', 'alice', '--plan', 'paid', '--scopes', 'read,upload']);
    const bob = await operatorKey(db, ['--org', 'bob', '--plan', 'paid', '--scopes', 'read,upload']);
    const ops = await operatorKey(db, ['--org', 'vigil-ops', '--plan', 'paid', '--scopes', 'read,upload']);
    const server = await start();
    const bytes = randomBytes(512);
    const sha256 = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

    const uploaded = await upload(server, alice, 'npm:@acme/secret-lib@1.0.0', bytes);
    expect(uploaded.status).toBe(201);
    const id = uploaded.body.id!;
    const canonical = 'pkg:npm/%40acme/secret-lib@1.0.0';

    // The uploader finds it by the decoded name, the decoded purl, the encoded purl and a word of it;
    // the result shows the canonical purl and links to a read that answers.
    for (const q of ['@acme/secret-lib', 'pkg:npm/@acme/secret-lib@1.0.0', canonical, 'secret']) {
      const results = await find(server, alice, q);
      expect(results[0], q).toMatchObject({ type: 'artifact', kind: 'artifact', id, title: canonical, href: `/v1/artifacts/${id}` });
      expect(results[0]!.snippet).toContain(`purl: ${canonical}`);
    }
    expect((await call(server, 'GET', `/v1/artifacts/${id}`, alice)).status).toBe(200);

    // Another account: no hit by name or by bytes, and every read answers as for an unknown id.
    const unknown = await call(server, 'GET', '/v1/artifacts/art_999999', bob);
    expect(unknown).toMatchObject({ status: 404, body: { detail: 'artifact not found', code: 'artifact_unknown' } });
    const privateToBob = async () => {
      for (const q of ['@acme/secret-lib', 'secret', sha256.slice(7, 20), 'packages artifact']) expect(artifactIds(await find(server, bob, q)), q).not.toContain(id);
      for (const path of [`/v1/artifacts/${id}`, `/v1/artifacts/${id}/facts`]) {
        const read = await call(server, 'GET', path, bob);
        expect({ status: read.status, body: read.body }, path).toEqual({ status: unknown.status, body: unknown.body });
      }
      expect((await call(server, 'GET', `/v1/artifacts?sha256=${sha256}`, bob)).body).toEqual({ artifacts: [] });
      expect((await call(server, 'GET', `/v1/artifacts?purl=${encodeURIComponent(canonical)}`, bob)).body).toEqual({ artifacts: [] });
    };
    await privateToBob();

    // The operator's account claims the same bytes under another name: once it is trusted, the
    // artifact is known publicly, and others see it under the trusted name only.
    expect((await upload(server, ops, 'npm:public-lib@2.0.0', bytes)).status).toBe(200);
    await privateToBob();
    await runKeysCommand(db, 'accounts', ['trust', 'vigil-ops'], Date.now());
    const byTrusted = await find(server, bob, 'public-lib');
    expect(byTrusted[0]).toMatchObject({ type: 'artifact', id, title: 'pkg:npm/public-lib@2.0.0' });
    expect(JSON.stringify(byTrusted)).not.toContain('secret');
    expect(artifactIds(await find(server, bob, 'secret-lib'))).not.toContain(id);
    const read = await call(server, 'GET', `/v1/artifacts/${id}`, bob);
    expect(read.status).toBe(200);
    expect(read.body.packages!.map((p) => p.purl)).toEqual(['pkg:npm/public-lib@2.0.0']);
    expect((await call(server, 'GET', `/v1/artifacts/${id}/facts`, bob)).status).not.toBe(404);
    // The uploader sees both names; its own ranks its result the same way.
    expect(artifactIds(await find(server, alice, 'secret-lib'))).toEqual([id]);

    // Trust withdrawn: hidden again at once, without a reindex.
    await runKeysCommand(db, 'accounts', ['untrust', 'vigil-ops'], Date.now());
    expect(artifactIds(await find(server, bob, 'public-lib'))).toEqual([]);
    await privateToBob();

    // Bob's own claim of the same bytes makes it his to see, under his name only.
    expect((await upload(server, bob, 'npm:bobs-copy@1.0.0', bytes)).status).toBe(200);
    expect(artifactIds(await find(server, bob, 'bobs-copy'))).toEqual([id]);
    expect(artifactIds(await find(server, bob, 'secret-lib'))).toEqual([]);
    expect(artifactIds(await find(server, alice, 'bobs-copy'))).toEqual([]);
  });

  it('answers hostile queries as plain words: long, operators only, quotes, stars, column filters, unicode; refuses a NUL', async () => {
    const db = ctx.db();
    const alice = await operatorKey(db, ['--org', 'alice', '--scopes', 'read,upload']);
    const server = await start();
    const id = (await upload(server, alice, 'npm:café-crème@1.0.0', randomBytes(64))).body.id!;
    const status = async (q: string) => (await call(server, 'GET', `/v1/search?q=${encodeURIComponent(q)}`, alice)).status;
    for (const q of ['a', 'a*', '"crème', 'crème"*', 'NEAR(a b)', '{ident_terms}: a', "'a':* | b", 'a AND OR NOT b', '(((a', '^a', 'x'.repeat(256), 'a '.repeat(128).trim()]) {
      expect(await status(q), q).toBe(200);
    }
    // Accents and case do not matter, and the decomposed form is the same word.
    expect(artifactIds(await find(server, alice, 'CAFE CREME'))).toEqual([id]);
    expect(artifactIds(await find(server, alice, 'cafe\u0301'))).toEqual([id]);
    expect(artifactIds(await find(server, alice, '"café*" (crème)'))).toEqual([id]);
    // An operator of either query language is a word like any other: `or` is not in the document.
    expect(artifactIds(await find(server, alice, 'cafe OR nothing'))).toEqual([]);
    const refused = async (q: string) => {
      const answer = await call(server, 'GET', `/v1/search?q=${encodeURIComponent(q)}`, alice);
      expect(answer.status, JSON.stringify(q)).toBe(422);
      return [...new Set(answer.body.errors!.map((e) => e.path))];
    };
    expect(await refused('x'.repeat(257))).toEqual(['query.q']);
    expect(await refused('* " ( ) : ^ - +')).toEqual(['query.q']);
    expect(await refused('"')).toEqual(['query.q']);
    expect(await refused('caf\u0000e')).toEqual(['query.q']);
    expect(await refused('')).toEqual(['query.q']);
  });
});

describeEachDialect('attestation lists: combined filters', (ctx) => {
  it('examine a bounded number of rows per page and still page through every match, short and empty pages included', async () => {
    const db = ctx.db();
    const miners = [newKey(), newKey()];
    const validators = [newKey(), newKey(), newKey()];
    const artifacts = [
      { label: 'a', sourceId: 'x', kind: 'live' as const },
      { label: 'b', sourceId: 'x', kind: 'live' as const },
    ];
    const seeded = await seedRound(db, { now: T0, miners, validators, artifacts });
    let hour = 1;
    for (const a of artifacts) {
      for (const miner of miners) {
        for (const validator of validators) {
          const verdict = miner === miners[0] && validator !== validators[2] ? 'BLOCK' : 'ALLOW';
          await attest(db, seeded, miner, bundle('skills', a), validator, { verdict, now: T0 + hour++ * HOUR });
        }
      }
    }
    const filters = { miner: miners[1]!.hotkey, verdict: 'ALLOW' as const, validator: validators[0]!.hotkey };
    const everything = await listAttestations(db, { filters, after: null, size: 100, showFindings: false });
    expect(everything.attestations).toHaveLength(2);
    expect(everything.next).toBeNull();

    // At most 3 rows examined per page (2,000 on the server): the pages hold the same rows in the same order.
    const pages: string[][] = [];
    let after = null;
    for (let i = 0; i < 20; i++) {
      const page: Awaited<ReturnType<typeof listAttestations>> = await listAttestations(db, { filters, after, size: 5, showFindings: false, maxExamined: 3 });
      pages.push(page.attestations.map((a) => a.canonical_hash));
      if (page.next === null) break;
      after = page.next;
    }
    expect(pages.flat()).toEqual(everything.attestations.map((a) => a.canonical_hash));
    // The miner's index holds 6 rows: pages of 3 examined rows, one of them without a match.
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.some((p) => p.length === 0)).toBe(true);
  });
});
