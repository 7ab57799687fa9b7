import { startTestApp } from '../src/test-support/test-app.js';
import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import { dsse } from '@sigstore/core';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { fromHex } from '@vigil/crypto';
import { canonicalJson } from '@vigil/core';
import { formatVerifierKey, leafHash, noteVerifier, verifyTlogProof } from '@vigil/tlog';
import { expect, it } from 'vitest';
import { createFileBlobStore, type BlobStore } from '../src/platform/blobs/index.js';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import { tarGz } from '../src/features/artifacts/archive/tar-gz.js';
import { paxTarGz } from '../src/test-support/pax-tar.js';
import { keepVerifiedProvenance } from '../src/features/artifacts/provenance/artifact-provenance.js';
import { closeRound, openRound } from '../src/features/network/rounds/rounds.js';
import { closedAfterEach } from '../src/test-support/closed-after-each.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { zipOf } from '../src/test-support/stored-zip.js';
import { attest, bundle, DAY, finding, HOUR, newKey, seedRound, T0 } from '../src/test-support/fixtures.js';

interface Server {
  app: FastifyInstance;
  url: string;
  port: number;
  blobRoot: string;
  /** Bytes the blob store has read from upload streams so far. */
  streamed: () => number;
  /** Streaming puts that have finished, stored or failed. */
  settled: () => number;
  close(): Promise<void>;
}

const servers = closedAfterEach<Server>();

function multipartBody(fields: [string, string][], file?: { name: string; type: string; bytes: Buffer }, boundary = 'vigil-test-boundary') {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="artifact"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const sha = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describeEachDialect('customer API: artifacts', (ctx) => {
  async function start(options: { artifactLimitBytes?: number } = {}): Promise<Server> {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-artifacts-'));
    const blobRoot = join(dataDir, 'blobs');
    const files = createFileBlobStore(blobRoot);
    let streamed = 0;
    let settled = 0;
    // Counts what the store reads from an upload as it reads it: a body buffered before the store
    // sees it would show nothing here until the client had sent everything.
    const blobs: BlobStore = {
      ...files,
      putStream: (source, putOptions) => {
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            streamed += chunk.byteLength;
            done(null, chunk);
          },
        });
        source.on('error', (error) => counter.destroy(error));
        return files.putStream(source.pipe(counter), putOptions).finally(() => (settled += 1));
      },
    };
    const started = await startTestApp({
      dataDir,
      database: ctx,
      config: { artifactLimitBytes: options.artifactLimitBytes ?? 1024 * 1024 },
      overrides: { blobs },
    });
    const { app, port } = started;
    const server: Server = {
      app,
      port,
      url: `http://127.0.0.1:${port}`,
      blobRoot,
      streamed: () => streamed,
      settled: () => settled,
      close: async () => {
        await started.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    servers.push(server);
    return server;
  }

  type Answer = { status: number; headers: Headers; body: Record<string, any> | undefined };
  const send = async (server: Server, method: string, path: string, init: { token?: string; body?: Buffer | string; type?: string } = {}): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
    if (init.type !== undefined) headers['content-type'] = init.type;
    const body = typeof init.body === 'string' || init.body === undefined ? init.body : new Uint8Array(init.body);
    const response = await fetch(server.url + path, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as Record<string, any>) };
  };
  const json = (server: Server, path: string, token: string, body: unknown) =>
    send(server, 'POST', path, { token, body: JSON.stringify(body), type: 'application/json' });
  const uploadRaw = (server: Server, token: string, bytes: Buffer, query: string) =>
    send(server, 'POST', `/v1/artifacts?${query}`, { token, body: bytes, type: 'application/octet-stream' });

  /** Nothing stored: no artifact row, no package row, no blob, no staging file. */
  async function expectNothingStored(server: Server): Promise<void> {
    expect(await ctx.db().selectFrom('artifacts').select('id').execute()).toEqual([]);
    expect(await ctx.db().selectFrom('artifact_packages').select('purl').execute()).toEqual([]);
    const files = existsSync(server.blobRoot) ? readdirSync(server.blobRoot, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()) : [];
    expect(files.map((f) => f.name)).toEqual([]);
  }

  const npmTarball = () =>
    Buffer.from(
      tarGz([
        { path: 'package/package.json', content: '{"name":"left-pad","version":"1.3.0"}' },
        { path: 'package/index.js', content: 'module.exports = (s, n) => s.padStart(n);\n' },
      ]),
    );

  it('stores a raw upload once, lists its tarball, and finds it by id, purl and content hash', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read']);
    const server = await start();
    const bytes = npmTarball();

    const first = await uploadRaw(server, token, bytes, 'track=packages&package=npm:left-pad@1.3.0');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      track: 'packages',
      sha256: sha(bytes),
      size: bytes.length,
      media_type: 'application/octet-stream',
      packages: [{ purl: 'pkg:npm/left-pad@1.3.0', ecosystem: 'npm', namespace: null, name: 'left-pad', version: '1.3.0' }],
      archive: {
        format: 'tgz',
        status: 'ok',
        truncated: false,
        long_names_omitted: 0,
        error: null,
        files: [
          { name: 'package/package.json', size: 37 },
          { name: 'package/index.js', size: 42 },
        ],
      },
      state: 'pending',
      verdict: null,
      verdict_history: [],
      attestations: [],
      findings: [],
      findings_withheld: false,
    });
    const id = first.body!.id as string;
    expect(id).toMatch(/^art_\d+$/);

    const again = await uploadRaw(server, token, bytes, 'track=packages&package=pkg:npm/left-pad@1.3.0');
    expect(again.status).toBe(200);
    expect(again.body!.id).toBe(id);
    expect(await ctx.db().selectFrom('artifacts').selectAll().execute()).toEqual([
      expect.objectContaining({ kind: 'live', label: 'npm', source_id: 'pkg:npm/left-pad@1.3.0', bundle_hash: 'packages/npm/pkg:npm/left-pad@1.3.0' }),
    ]);

    expect((await send(server, 'GET', `/v1/artifacts/${id}`, { token })).body).toEqual(first.body);
    // The listing is remembered per content hash, but only while the store holds the bytes.
    const hex = sha(bytes).slice('sha256:'.length);
    rmSync(join(server.blobRoot, 'sha256', hex.slice(0, 2), hex.slice(2)));
    expect((await send(server, 'GET', `/v1/artifacts/${id}`, { token })).body).toMatchObject({
      size: null,
      // Missing bytes are not a single file (`none`): their format is not known.
      archive: { format: 'unavailable', status: 'unavailable', files: null, truncated: false, error: null },
    });
    expect((await uploadRaw(server, token, bytes, 'track=packages&package=npm:left-pad@1.3.0')).body).toMatchObject({ size: bytes.length, archive: { status: 'ok' } });
    const byPurl = await send(server, 'GET', '/v1/artifacts?purl=npm:left-pad@1.3.0', { token });
    expect(byPurl.status).toBe(200);
    expect(byPurl.body!.artifacts.map((a: { id: string }) => a.id)).toEqual([id]);
    expect(byPurl.headers.get('x-vigil-page')).toBe('1');
    expect(byPurl.headers.get('x-vigil-next-page')).toBeNull();
    const byHash = await send(server, 'GET', `/v1/artifacts?sha256=${sha(bytes)}`, { token });
    expect(byHash.body!.artifacts.map((a: { id: string }) => a.id)).toEqual([id]);
    expect((await send(server, 'GET', `/v1/artifacts?purl=pkg:npm/unknown@1.0.0`, { token })).body).toEqual({ artifacts: [] });
    // Exactly one of purl and sha256.
    expect((await send(server, 'GET', '/v1/artifacts', { token })).status).toBe(422);

    expect(await send(server, 'GET', '/v1/artifacts/art_999999', { token })).toMatchObject({ status: 404, body: { detail: 'artifact not found', code: 'artifact_unknown' } });
    expect(await send(server, 'GET', '/v1/artifacts/not-an-id', { token })).toMatchObject({ status: 404, body: { detail: 'artifact not found', code: 'artifact_unknown' } });
  });

  it('lists no name longer than 4,096 bytes: a small upload of 100 entries with 100 KB names answers a small body, and counts them (probe finding: a 10 MB answer to a 17 KB upload)', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read']);
    const server = await start();
    const atLimit = `package/${'b'.repeat(4096 - 'package/'.length)}`;
    // Bytes, not characters: 2,045 two-byte characters make a name of 4,098 bytes.
    const wide = `package/${'é'.repeat(2045)}`;
    const bytes = await paxTarGz([
      { name: 'package/package.json', content: '{"name":"amp","version":"1.0.0"}' },
      ...Array.from({ length: 100 }, (_, i) => ({ name: `package/${i}-${'a'.repeat(100_000)}`, content: 'x' })),
      { name: atLimit, content: 'at' },
      { name: `${atLimit}c`, content: 'over' },
      { name: wide, content: 'wide' },
      { name: 'package/index.js', content: 'module.exports = 1;\n' },
    ]);
    expect(bytes.length).toBeLessThan(64 * 1024);

    const uploaded = await send(server, 'POST', '/v1/artifacts?track=packages&package=npm:amp@1.0.0', { token, body: bytes, type: 'application/octet-stream' });
    expect(uploaded.status).toBe(201);
    const expected = {
      format: 'tgz',
      status: 'ok',
      files: [
        { name: 'package/package.json', size: 32 },
        { name: atLimit, size: 2 },
        { name: 'package/index.js', size: 20 },
      ],
      truncated: false,
      long_names_omitted: 102,
      error: null,
    };
    expect(uploaded.body!.archive).toEqual(expected);
    const read = await fetch(`${server.url}/v1/artifacts/${uploaded.body!.id as string}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await read.text();
    expect(read.status).toBe(200);
    expect(text.length).toBeLessThan(16 * 1024);
    expect((JSON.parse(text) as { archive: unknown }).archive).toEqual(expected);
  });

  it('cuts a listing whose files would pass 4 MiB as JSON, and says so with truncated', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read']);
    const server = await start();
    // 2,000 names of 4,000 bytes: each listable, together about 8 MB of JSON.
    const names = Array.from({ length: 2000 }, (_, i) => `package/${String(i).padStart(4, '0')}-${'n'.repeat(4000 - 'package/0000-'.length)}`);
    const bytes = await paxTarGz(names.map((name) => ({ name, content: 'x' })));
    expect(bytes.length).toBeLessThan(256 * 1024);

    const uploaded = await send(server, 'POST', '/v1/artifacts?track=packages&package=npm:wide@1.0.0', { token, body: bytes, type: 'application/octet-stream' });
    expect(uploaded.status).toBe(201);
    const read = await fetch(`${server.url}/v1/artifacts/${uploaded.body!.id as string}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await read.text();
    expect(text.length).toBeLessThan(4 * 1024 * 1024 + 16 * 1024);
    type Listing = { files: { name: string; size: number }[] };
    for (const archive of [uploaded.body!.archive as Listing, (JSON.parse(text) as { archive: Listing }).archive]) {
      expect(archive).toMatchObject({ format: 'tgz', status: 'ok', truncated: true, long_names_omitted: 0, error: null });
      const listed = Buffer.byteLength(JSON.stringify(archive.files));
      // Cut just before the file that would pass the limit: the files are the archive's first ones.
      expect(listed).toBeLessThanOrEqual(4 * 1024 * 1024);
      expect(listed + Buffer.byteLength(JSON.stringify({ name: names[0], size: 1 })) + 1).toBeGreaterThan(4 * 1024 * 1024);
      expect(archive.files).toEqual(names.slice(0, archive.files.length).map((name) => ({ name, size: 1 })));
    }
  });

  it('shares 4 MiB of listed files among the artifacts of one lookup page: a later listing is cut, and read whole by its id', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read']);
    const server = await start();
    // Five different tarballs claiming one version, each listing about 3.9 MB of names.
    const entry = (i: number, j: number) => `package/${i}-${String(j).padStart(4, '0')}-${'w'.repeat(3985)}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const bytes = await paxTarGz(Array.from({ length: 975 }, (_, j) => ({ name: entry(i, j), content: 'x' })));
      const uploaded = await send(server, 'POST', '/v1/artifacts?track=packages&package=npm:many@1.0.0', { token, body: bytes, type: 'application/octet-stream' });
      expect(uploaded.status).toBe(201);
      expect(uploaded.body!.archive).toMatchObject({ truncated: false });
      ids.push(uploaded.body!.id as string);
    }
    type Listing = { files: { name: string; size: number }[]; truncated: boolean };
    const lookup = await fetch(`${server.url}/v1/artifacts?purl=npm:many@1.0.0`, { headers: { authorization: `Bearer ${token}` } });
    const text = await lookup.text();
    expect(lookup.status).toBe(200);
    expect(text.length).toBeLessThan(4 * 1024 * 1024 + 64 * 1024);
    const listed = (JSON.parse(text) as { artifacts: { id: string; archive: Listing }[] }).artifacts;
    expect(listed.map((a) => a.id)).toEqual(ids);
    const entryBytes = (archive: Listing) => archive.files.reduce((sum, f) => sum + Buffer.byteLength(JSON.stringify(f)), 0);
    expect(listed.reduce((sum, a) => sum + entryBytes(a.archive), 0)).toBeLessThanOrEqual(4 * 1024 * 1024);
    // The first fits whole; the second has what is left, in archive order, and says it is cut; the rest have none.
    expect(listed[0]!.archive).toMatchObject({ truncated: false, files: { length: 975 } });
    const cut = listed[1]!.archive;
    expect(cut.truncated).toBe(true);
    expect(cut.files.length).toBeLessThan(975);
    expect(cut.files).toEqual(Array.from({ length: cut.files.length }, (_, j) => ({ name: entry(1, j), size: 1 })));
    for (const artifact of listed.slice(2)) expect(artifact.archive).toMatchObject({ truncated: true, files: [] });
    const whole = await send(server, 'GET', `/v1/artifacts/${ids[4]!}`, { token });
    expect(whole.body!.archive).toMatchObject({ truncated: false, files: { length: 975 } });
  });

  it('takes a multipart upload and lists a zip; other bytes under the same purl get their own artifact', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'upload,read']);
    const server = await start();
    const wheel = zipOf([
      { name: 'requests/__init__.py', content: 'import os\n' },
      { name: 'requests-2.31.0.dist-info/METADATA', content: 'Name: requests\n' },
    ]);
    const form = multipartBody([['track', 'packages'], ['package', 'pypi:Requests@2.31.0']], { name: 'file', type: 'application/zip', bytes: wheel });
    const answer = await send(server, 'POST', '/v1/artifacts', { token, body: form.body, type: form.contentType });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      sha256: sha(wheel),
      media_type: 'application/zip',
      packages: [{ purl: 'pkg:pypi/requests@2.31.0', ecosystem: 'pypi', name: 'requests' }],
      archive: { format: 'zip', status: 'ok', files: [{ name: 'requests/__init__.py', size: 10 }, { name: 'requests-2.31.0.dist-info/METADATA', size: 15 }] },
      // A free plan never gets an empty list for findings it cannot see.
      findings: null,
      findings_withheld: true,
    });

    const other = zipOf([{ name: 'requests/__init__.py', content: 'import socket\n' }]);
    const second = multipartBody([['track', 'packages'], ['package', 'pkg:pypi/requests@2.31.0']], { name: 'file', type: 'application/zip', bytes: other });
    const again = await send(server, 'POST', '/v1/artifacts', { token, body: second.body, type: second.contentType });
    expect(again.status).toBe(201);
    expect(again.body!.id).not.toBe(answer.body!.id);
    const rows = await ctx.db().selectFrom('artifacts').select(['source_id', 'label']).orderBy('id').execute();
    expect(rows).toEqual([
      { label: 'pypi', source_id: 'pkg:pypi/requests@2.31.0' },
      { label: 'pypi', source_id: `pkg:pypi/requests@2.31.0?checksum=${sha(other)}` },
    ]);
    const both = await send(server, 'GET', '/v1/artifacts?purl=pypi:requests@2.31.0', { token });
    expect(both.body!.artifacts).toHaveLength(2);
    // A plain file is an artifact too, with nothing to list.
    const plain = await uploadRaw(server, token, Buffer.from('# SKILL\nsummarize a page\n'), 'track=skills&package=npm:some-skill@0.1.0');
    expect(plain.body!.archive).toEqual({ format: 'none', status: 'ok', files: null, truncated: false, long_names_omitted: 0, error: null });
  });

  it('refuses each credential problem before reading the body', async () => {
    const reader = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'read']);
    const free = await operatorKey(ctx.db(), ['--org', 'globex', '--scopes', 'verify,upload']);
    const server = await start();
    const bytes = npmTarball();
    expect(await send(server, 'POST', '/v1/artifacts?track=packages&package=npm:a@1.0.0', { body: bytes, type: 'application/octet-stream' })).toMatchObject({
      status: 401,
      body: { detail: 'missing api key', code: 'missing_api_key' },
    });
    expect(await uploadRaw(server, reader, bytes, 'track=packages&package=npm:a@1.0.0')).toMatchObject({ status: 403, body: { detail: "api key lacks 'upload' scope", code: 'scope_missing' } });
    expect(await send(server, 'GET', '/v1/artifacts/art_1', { token: free })).toMatchObject({ status: 403, body: { detail: "api key lacks 'read' scope", code: 'scope_missing' } });
    expect(await json(server, '/v1/artifacts/verify', reader, { artifact: 'npm:a@1.0.0' })).toMatchObject({ status: 403, body: { detail: "api key lacks 'verify' scope", code: 'scope_missing' } });
    expect(await json(server, '/v1/artifacts/verify', free, { artifact: 'npm:a@1.0.0' })).toMatchObject({ status: 403, body: { detail: 'this endpoint requires a paid plan', code: 'paid_plan_required' } });
    expect(await json(server, '/v1/artifacts/verify/batch', free, { artifacts: ['npm:a@1.0.0'] })).toMatchObject({
      status: 403,
      body: { detail: 'this endpoint requires a paid plan', code: 'paid_plan_required' },
    });
    await expectNothingStored(server);
  });

  it('answers a refused caller before its body and closes the connection instead of reading what it declared (probe finding)', async () => {
    const reader = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'read']);
    const server = await start({ artifactLimitBytes: 64 * 1024 * 1024 });
    for (const authorization of ['', `Authorization: Bearer ${reader}\r\n`]) {
      const socket = connect(server.port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => {});
      // 8 MiB declared, none of it sent: the server must not wait for (or read) it.
      const ended = new Promise((resolve) => socket.on('close', resolve));
      socket.write(
        `POST /v1/artifacts?track=packages&package=npm:a@1.0.0 HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorization}` +
          `Content-Type: application/octet-stream\r\nContent-Length: ${8 * 1024 * 1024}\r\n\r\n`,
      );
      // The client keeps sending, as an upload does: the answer must reach it all the same (a close
      // with its bytes unread would reset the connection and could drop the answer).
      const chunk = Buffer.alloc(64 * 1024, 1);
      let closed = false;
      void ended.then(() => (closed = true));
      for (let sent = 0; sent < 8 * 1024 * 1024 && !closed && !socket.destroyed; sent += chunk.length) {
        if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), ended]);
      }
      await ended;
      const [head = '', body = ''] = received.split('\r\n\r\n');
      expect(head).toMatch(authorization === '' ? /^HTTP\/1\.1 401 / : /^HTTP\/1\.1 403 /);
      expect(head.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(body)).toEqual(
        authorization === '' ? { detail: 'missing api key', code: 'missing_api_key' } : { detail: "api key lacks 'upload' scope", code: 'scope_missing' },
      );
    }
    expect(server.streamed()).toBe(0);
  });

  it('refuses bad uploads with a clear 4xx and stores nothing', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read,verify']);
    const server = await start({ artifactLimitBytes: 64 * 1024 });
    const bytes = npmTarball();
    const paths = (answer: Answer) => (answer.body?.errors as { path: string }[] | undefined)?.map((e) => e.path);

    const badTrack = await uploadRaw(server, token, bytes, 'track=npm&package=npm:a@1.0.0');
    expect([badTrack.status, badTrack.body!.detail, paths(badTrack)]).toEqual([422, 'Validation error', ['query.track']]);
    const missing = await uploadRaw(server, token, bytes, 'track=packages');
    expect([missing.status, paths(missing)]).toEqual([422, ['query.package']]);
    const badPurl = await uploadRaw(server, token, bytes, 'track=packages&package=lodash');
    expect([badPurl.status, paths(badPurl)]).toEqual([422, ['query.package']]);
    const unknown = await uploadRaw(server, token, bytes, 'track=packages&package=npm:a@1.0.0&kind=labeled');
    expect(unknown.status).toBe(422);
    expect(await send(server, 'POST', '/v1/artifacts?track=packages&package=npm:a@1.0.0', { token, body: '{}', type: 'application/json' })).toMatchObject({
      status: 415,
      body: { detail: 'unsupported media type', code: 'unsupported_media_type' },
    });
    const formBadPurl = multipartBody([['track', 'packages'], ['package', 'npm:']], { name: 'file', type: 'application/gzip', bytes });
    const multipartPurl = await send(server, 'POST', '/v1/artifacts', { token, body: formBadPurl.body, type: formBadPurl.contentType });
    expect([multipartPurl.status, paths(multipartPurl)]).toEqual([422, ['body.package']]);
    const fileFirst = multipartBody([], { name: 'file', type: 'application/gzip', bytes });
    const noFields = await send(server, 'POST', '/v1/artifacts', { token, body: fileFirst.body, type: fileFirst.contentType });
    expect([noFields.status, paths(noFields)?.sort()]).toEqual([422, ['body.package', 'body.track']]);
    const noFile = multipartBody([['track', 'packages'], ['package', 'npm:a@1.0.0']]);
    expect(paths(await send(server, 'POST', '/v1/artifacts', { token, body: noFile.body, type: noFile.contentType }))).toEqual(['body.file']);
    // The file before the fields names the fields as out of place (outsider finding), and a part after
    // the file is 422 naming it, not busboy's 413 (outsider finding).
    const beforeFields = Buffer.concat([fileFirst.body.subarray(0, fileFirst.body.length - '--vigil-test-boundary--\r\n'.length), multipartBody([['track', 'packages'], ['package', 'npm:a@1.0.0']]).body]);
    const misordered = await send(server, 'POST', '/v1/artifacts', { token, body: beforeFields, type: fileFirst.contentType });
    expect(misordered.status).toBe(422);
    expect(misordered.body?.errors).toEqual([
      { path: 'body.track', message: 'expected as a form field before the file part' },
      { path: 'body.package', message: 'expected as a form field before the file part' },
    ]);
    const withFile = multipartBody([['track', 'packages'], ['package', 'npm:a@1.0.0']], { name: 'file', type: 'application/octet-stream', bytes: Buffer.from('abc') });
    const trailing = Buffer.concat([
      withFile.body.subarray(0, withFile.body.length - '--vigil-test-boundary--\r\n'.length),
      Buffer.from('--vigil-test-boundary\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--vigil-test-boundary--\r\n'),
    ]);
    const afterFile = await send(server, 'POST', '/v1/artifacts', { token, body: trailing, type: withFile.contentType });
    expect([afterFile.status, paths(afterFile)]).toEqual([422, ['body.note']]);
    // A field over 4 KiB is refused, not cut (probe finding: the cut purl named another package).
    const longField = multipartBody([['track', 'packages'], ['package', `npm:${'a'.repeat(5000)}@1.0.0`]], { name: 'file', type: 'application/octet-stream', bytes: Buffer.from('abc') });
    expect(paths(await send(server, 'POST', '/v1/artifacts', { token, body: longField.body, type: longField.contentType }))).toEqual(['body.package']);
    // A boundary beyond RFC 2046's 70 characters is broken framing: 400, not a 500 (probe finding).
    const longBoundary = multipartBody([['track', 'packages']], undefined, 'b'.repeat(300));
    expect(await send(server, 'POST', '/v1/artifacts', { token, body: longBoundary.body, type: longBoundary.contentType })).toMatchObject({
      status: 400,
      body: { detail: 'malformed request', code: 'malformed_request' },
    });

    // Over the limit, declared: 413 from the headers alone; multipart over it: 413 while streaming.
    const big = Buffer.alloc(64 * 1024 + 1, 1);
    expect(await uploadRaw(server, token, big, 'track=packages&package=npm:a@1.0.0')).toMatchObject({ status: 413, body: { detail: 'Body too large', code: 'body_too_large' } });
    const bigForm = multipartBody([['track', 'packages'], ['package', 'npm:a@1.0.0']], { name: 'file', type: 'application/octet-stream', bytes: big });
    expect(await send(server, 'POST', '/v1/artifacts', { token, body: bigForm.body, type: bigForm.contentType })).toMatchObject({
      status: 413,
      body: { detail: 'Body too large', code: 'body_too_large' },
    });
    // Empty, and a corrupt archive (gzip magic, then garbage; a zip cut short).
    expect(paths(await uploadRaw(server, token, Buffer.alloc(0), 'track=packages&package=npm:a@1.0.0'))).toEqual(['body']);
    const corruptGzip = Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), Buffer.alloc(200, 7)]);
    expect(await uploadRaw(server, token, corruptGzip, 'track=packages&package=npm:a@1.0.0')).toMatchObject({ status: 422, body: { detail: 'corrupt archive', code: 'archive_corrupt' } });
    const zip = zipOf([{ name: 'a.txt', content: 'hello' }]);
    expect(await uploadRaw(server, token, zip.subarray(0, zip.length - 10), 'track=packages&package=npm:a@1.0.0')).toMatchObject({
      status: 422,
      body: { detail: 'corrupt archive', code: 'archive_corrupt' },
    });
    const truncatedTar = Buffer.from(tarGz([{ path: 'a.txt', content: 'x'.repeat(5000) }])).subarray(0, 40);
    expect((await uploadRaw(server, token, truncatedTar, 'track=packages&package=npm:a@1.0.0')).body).toEqual({ detail: 'corrupt archive', code: 'archive_corrupt' });

    // Verify bodies: wrong type, unknown field, malformed purl, too many references.
    expect(paths(await json(server, '/v1/artifacts/verify', token, { artifact: 42 }))).toEqual(['body.artifact']);
    expect(paths(await json(server, '/v1/artifacts/verify', token, { artifact: 'npm:a@1.0.0', extra: true }))).toEqual(['body']);
    expect(paths(await json(server, '/v1/artifacts/verify', token, { artifact: 'not a purl' }))).toEqual(['body.artifact']);
    expect(paths(await json(server, '/v1/artifacts/verify/batch', token, { artifacts: ['npm:a@1.0.0', 'oops'] }))).toEqual(['body.artifacts.1']);
    expect(paths(await json(server, '/v1/artifacts/verify/batch', token, { artifacts: Array.from({ length: 101 }, (_, i) => `npm:a@${i}.0.0`) }))).toEqual([
      'body.artifacts',
    ]);
    await expectNothingStored(server);
  });

  it('refuses a NUL (or any control character) in a reference or a part Content-Type with 422, storing nothing (probe finding: 500 on PostgreSQL and a blob left behind)', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read,verify']);
    const server = await start();
    const paths = (answer: Answer) => [answer.status, (answer.body?.errors as { path: string }[] | undefined)?.map((e) => e.path)];
    const bytes = Buffer.from('nul probe bytes\n');
    for (const purl of ['pkg:npm/a%00b@1.0.0', 'pkg:npm/ab@1.0.0%00', 'pkg:npm/%40sc%00ope/ab@1.0.0', 'pkg:npm/ab@1.0.0?x=%00', 'pkg:npm/ab@1.0.0#a%00b', 'pkg:npm/a%0Ab@1.0.0']) {
      expect(paths(await uploadRaw(server, token, bytes, `track=packages&package=${encodeURIComponent(purl)}`))).toEqual([422, ['query.package']]);
      const form = multipartBody([['track', 'packages'], ['package', purl]], { name: 'file', type: 'application/octet-stream', bytes });
      expect(paths(await send(server, 'POST', '/v1/artifacts', { token, body: form.body, type: form.contentType }))).toEqual([422, ['body.package']]);
    }
    const badType = multipartBody([['track', 'packages'], ['package', 'npm:ab@1.0.0']], { name: 'file', type: 'text/pl\u0000ain', bytes });
    expect(paths(await send(server, 'POST', '/v1/artifacts', { token, body: badType.body, type: badType.contentType }))).toEqual([422, ['body.file']]);
    expect(paths(await json(server, '/v1/artifacts/verify', token, { artifact: 'pkg:npm/a%00b@1.0.0' }))).toEqual([422, ['body.artifact']]);
    expect(paths(await send(server, 'GET', `/v1/artifacts?purl=${encodeURIComponent('pkg:npm/a%00b@1.0.0')}`, { token }))).toEqual([422, ['query.purl']]);
    await expectNothingStored(server);
  });

  it('leaves no blob when writing the row fails (500), and the same upload succeeds once the database can take it (probe finding)', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'upload,read']);
    const server = await start();
    const bytes = npmTarball();
    await sql`alter table artifact_packages rename to artifact_packages_away`.execute(ctx.db());
    let failed: Answer;
    try {
      failed = await uploadRaw(server, token, bytes, 'track=packages&package=npm:left-pad@1.3.0');
    } finally {
      await sql`alter table artifact_packages_away rename to artifact_packages`.execute(ctx.db());
    }
    expect(failed).toMatchObject({ status: 500, body: { detail: 'internal error', code: 'internal_error' } });
    await expectNothingStored(server);
    const stored = await uploadRaw(server, token, bytes, 'track=packages&package=npm:left-pad@1.3.0');
    expect(stored).toMatchObject({ status: 201, body: { size: bytes.length, archive: { status: 'ok' } } });
  });

  it('concurrent uploads of the same new bytes to one track make one artifact, carrying every reference (probe finding)', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'upload,read']);
    const server = await start();
    const bytes = Buffer.from(`racing bytes ${Math.random()}\n`.repeat(2000));
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => uploadRaw(server, token, bytes, `track=packages&package=npm:race-${i}@1.0.0`)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body!.id)).size).toBe(1);
    const byHash = await send(server, 'GET', `/v1/artifacts?sha256=${sha(bytes)}`, { token });
    expect(byHash.body!.artifacts).toHaveLength(1);
    expect(byHash.body!.artifacts[0].packages.map((p: { purl: string }) => p.purl).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `pkg:npm/race-${i}@1.0.0`).sort(),
    );
    // Another track is another artifact: the same bytes evaluated by other rounds.
    expect((await uploadRaw(server, token, bytes, 'track=skills&package=npm:race-0@1.0.0')).status).toBe(201);

    // Different bytes racing under one new reference: one artifact each, one of them named by the bare purl.
    const different = await Promise.all(
      Array.from({ length: 8 }, (_, i) => uploadRaw(server, token, Buffer.from(`claimant ${i} ${Math.random()}`), 'track=packages&package=npm:claimed@1.0.0')),
    );
    expect(different.map((a) => a.status)).toEqual(Array(8).fill(201));
    const sources = await ctx.db().selectFrom('artifacts').select('source_id').where('source_id', 'like', 'pkg:npm/claimed@1.0.0%').execute();
    expect(sources).toHaveLength(8);
    expect(sources.filter((row) => row.source_id === 'pkg:npm/claimed@1.0.0')).toHaveLength(1);
  });

  it('refuses a verify body nested deeper than 64 levels with 400 malformed JSON body, and reads one of 64', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'verify']);
    const server = await start();
    const body = (levels: number) => `{"artifact":"npm:left-pad@1.3.0","extra":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    for (const levels of [65, 2_500]) {
      const refused = await send(server, 'POST', '/v1/artifacts/verify', { token, body: body(levels), type: 'application/json' });
      expect(refused, `${levels} levels`).toMatchObject({ status: 400, body: { detail: 'malformed JSON body', code: 'bad_request' } });
    }
    // 64 levels are parsed: the schema then names the field it does not take.
    const read = await send(server, 'POST', '/v1/artifacts/verify', { token, body: body(64), type: 'application/json' });
    expect(read).toMatchObject({ status: 422, body: { detail: 'Validation error', code: 'validation_error' } });
    expect(JSON.stringify(read.body!.errors)).toContain('extra');
  });

  it('refuses a reference with whitespace or over 2,048 characters everywhere one is taken, and a body over the verify limits', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read,verify']);
    const server = await start();
    const paths = (answer: Answer) => (answer.body?.errors as { path: string }[] | undefined)?.map((e) => e.path);
    for (const padded of [' npm:lodash@1', 'npm:lodash@1\n', '\tpkg:npm/lodash@1']) {
      expect(paths(await json(server, '/v1/artifacts/verify', token, { artifact: padded }))).toEqual(['body.artifact']);
      expect(paths(await json(server, '/v1/artifacts/verify/batch', token, { artifacts: ['npm:lodash@1', padded] }))).toEqual(['body.artifacts.1']);
      expect(paths(await uploadRaw(server, token, npmTarball(), `track=packages&package=${encodeURIComponent(padded)}`))).toEqual(['query.package']);
      const form = multipartBody([['track', 'packages'], ['package', padded]], { name: 'file', type: 'application/gzip', bytes: npmTarball() });
      expect(paths(await send(server, 'POST', '/v1/artifacts', { token, body: form.body, type: form.contentType }))).toEqual(['body.package']);
      expect(paths(await send(server, 'GET', `/v1/artifacts?purl=${encodeURIComponent(padded)}`, { token }))).toEqual(['query.purl']);
    }
    const longest = `npm:${'a'.repeat(2048 - 'npm:@1'.length)}@1`;
    const tooLong = `npm:${'a'.repeat(2048)}@1`;
    expect((await json(server, '/v1/artifacts/verify', token, { artifact: longest })).body).toMatchObject({ state: 'pending' });
    const refused = await json(server, '/v1/artifacts/verify', token, { artifact: tooLong });
    expect(refused.body).toEqual({ detail: 'Validation error', code: 'validation_error', errors: [{ path: 'body.artifact', message: `input: a package reference is at most 2048 characters, got ${tooLong.length}` }] });
    expect(paths(await json(server, '/v1/artifacts/verify/batch', token, { artifacts: ['npm:a@1', tooLong] }))).toEqual(['body.artifacts.1']);
    expect(paths(await send(server, 'GET', `/v1/artifacts?purl=${tooLong}`, { token }))).toEqual(['query.purl']);
    expect(paths(await uploadRaw(server, token, npmTarball(), `track=packages&package=${tooLong}`))).toEqual(['query.package']);
    // 100 of the longest references fit the batch limit, even with every character escaped as JSON allows.
    const escaped = JSON.stringify({ artifacts: Array(100).fill(longest) }).replace(/a/g, '\\u0061');
    const full = await send(server, 'POST', '/v1/artifacts/verify/batch', { token, body: escaped, type: 'application/json' });
    expect([full.status, full.body!.results.length]).toEqual([200, 100]);
    // Anything larger is refused from its Content-Length before a byte of it is parsed.
    expect(await send(server, 'POST', '/v1/artifacts/verify/batch', { token, body: `{"artifacts":["npm:a@1"]}${' '.repeat(1280 * 1024)}`, type: 'application/json' })).toMatchObject({
      status: 413,
      body: { detail: 'Body too large', code: 'body_too_large' },
    });
    expect(await send(server, 'POST', '/v1/artifacts/verify', { token, body: `{"artifact":"npm:a@1"}${' '.repeat(16 * 1024)}`, type: 'application/json' })).toMatchObject({
      status: 413,
      body: { detail: 'Body too large', code: 'body_too_large' },
    });
    await expectNothingStored(server);
  });

  it("checks an upload's checksum qualifier against its bytes: a false one is refused, a true one names the bytes", async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'upload,read']);
    const server = await start();
    const bytes = npmTarball();
    const sha512 = createHash('sha512').update(bytes).digest('hex');
    const upload = (purl: string) => uploadRaw(server, token, bytes, `track=packages&package=${encodeURIComponent(purl)}`);

    expect((await upload('pkg:npm/o3q@1.0.0?checksum=sha256:00')).body).toEqual({
      detail: `package: checksum sha256:00 does not match the uploaded bytes (${sha(bytes)})`,
      code: 'checksum_mismatch',
    });
    const wrong512 = await upload(`pkg:npm/o3q@1.0.0?checksum=${sha(bytes)},sha512:${'0'.repeat(128)}`);
    expect(wrong512).toMatchObject({ status: 422, body: { detail: `package: checksum sha512:${'0'.repeat(128)} does not match the uploaded bytes (sha512:${sha512})` } });
    expect(await upload('pkg:npm/o3q@1.0.0?checksum=blake3:00')).toMatchObject({
      status: 422,
      body: { errors: [{ path: 'query.package', message: 'checksum algorithm blake3 is not one Vigil checks (md5, sha1, sha256, sha384, sha512)' }] },
    });
    expect(await upload('pkg:npm/o3q@1.0.0?checksum=sha256')).toMatchObject({ status: 422, body: { errors: [{ path: 'query.package' }] } });
    await expectNothingStored(server);

    const right = await upload(`pkg:npm/o3q@1.0.0?checksum=${sha(bytes)},sha512:${sha512}`);
    expect(right.status).toBe(201);
    expect(right.body!.packages).toMatchObject([{ purl: `pkg:npm/o3q@1.0.0?checksum=${sha(bytes)}%2Csha512:${sha512}` }]);
  });

  it('stores nothing when the client stops mid-body', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'upload']);
    const server = await start();
    const socket = connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /v1/artifacts?track=packages&package=npm:a@1.0.0 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n',
    );
    socket.write(Buffer.alloc(50_000, 3));
    // Once the store has seen the first half, the client disappears.
    while (server.streamed() < 50_000) await new Promise((resolve) => setTimeout(resolve, 10));
    socket.destroy();
    // The aborted stream fails the put, which removes its staging file.
    while (server.settled() < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await expectNothingStored(server);
  });

  it('streams a 48 MiB upload to the blob store while the client is still sending it', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'upload']);
    const server = await start({ artifactLimitBytes: 64 * 1024 * 1024 });
    const total = 48 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 0x5a);
    const hash = createHash('sha256');
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/v1/artifacts?track=packages&package=npm:big@1.0.0',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', 'content-length': String(total) },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      void (async () => {
        for (let sent = 0; sent < total; sent += chunk.length) {
          hash.update(chunk);
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
          // Half way, wait until the store has read most of what was sent: a server that buffered the
          // body before storing it would never get there, and the test would time out.
          if (sent + chunk.length === total / 2) {
            while (server.streamed() < total / 4) await new Promise((r) => setTimeout(r, 5));
          }
        }
        req.end();
      })();
    });
    const done = await answer;
    expect(done.status).toBe(201);
    expect(JSON.parse(done.body)).toMatchObject({ size: total, sha256: `sha256:${hash.digest('hex')}` });
    expect(server.streamed()).toBe(total);
  }, 60_000);

  /** A closed round whose winners published `BLOCK` for a live artifact, uploaded as `purl`. */
  async function publishVerdict(purl: string): Promise<{ artifactId: number; canonical: string[]; validators: string[] }> {
    const db = ctx.db();
    const miners = [newKey(), newKey()];
    const [v1, v2] = [newKey(), newKey()];
    const labeled = [
      { label: 'npm', sourceId: 'pkg:npm/bench-bad@1.0.0', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
      { label: 'npm', sourceId: 'pkg:npm/bench-ok@1.0.0', kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
    ];
    const live = { label: 'npm', sourceId: purl, kind: 'live' as const };
    const seeded = await seedRound(db, { track: 'packages', now: T0, miners, validators: [v1, v2], artifacts: [...labeled, live] });
    const t = T0 + HOUR;
    for (const v of [v1, v2]) {
      for (const spec of labeled) {
        await attest(db, seeded, miners[0]!, bundle('packages', spec), v, { verdict: spec.groundTruth, now: t });
        await attest(db, seeded, miners[1]!, bundle('packages', spec), v, { verdict: 'ALLOW', now: t });
      }
    }
    const liveHash = bundle('packages', live);
    const findings = [finding('install_script', 'CRIT'), finding('exfiltration', 'HIGH')];
    const a1 = await attest(db, seeded, miners[0]!, liveHash, v1, { verdict: 'BLOCK', riskScore: 90, findings, now: t });
    const a2 = await attest(db, seeded, miners[0]!, liveHash, v2, { verdict: 'BLOCK', riskScore: 80, findings: [findings[0]!], now: t });
    // The loser's vote backs nothing.
    await attest(db, seeded, miners[1]!, liveHash, v1, { verdict: 'ALLOW', now: t });
    await closeRound(db, { roundId: seeded.round.round_id, now: T0 + 3 * HOUR });
    const artifactId = Number(seeded.artifacts.get(liveHash)!.id);
    // Claimed by the operator's trusted account, so the reference answers for every account.
    await operatorKey(db, ['--org', 'vigil-ops', '--scopes', 'upload']);
    await runKeysCommand(db, 'accounts', ['trust', 'vigil-ops'], T0);
    const account = await db.selectFrom('accounts').select('account_id').where('name', '=', 'vigil-ops').executeTakeFirstOrThrow();
    await db
      .insertInto('artifact_packages')
      .values({ artifact_id: artifactId, purl, ecosystem: 'npm', namespace: null, name: 'evil', version: '1.0.0', uploaded_by: account.account_id, size: 1, media_type: 'application/octet-stream', created_at: T0 })
      .execute();
    const canonical = await db.selectFrom('attestations').select(['id', 'canonical_hash']).where('id', 'in', [a1.id, a2.id]).orderBy('id').execute();
    return { artifactId, canonical: canonical.map((r) => r.canonical_hash), validators: [v1.hotkey, v2.hotkey] };
  }

  it('?proof=true adds the verdict entry and its tlog-proof to GET /v1/artifacts/{id} and POST /v1/artifacts/verify', async () => {
    const paid = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read,verify']);
    const server = await start();
    const { artifactId } = await publishVerdict('pkg:npm/evil@1.0.0');
    const identity = (await (await fetch(`${server.url}/v1/server-identity`)).json()) as { server_hotkey: string };
    const origin = `vigil/${identity.server_hotkey}`;
    const logVerifier = noteVerifier(formatVerifierKey(origin, fromHex(identity.server_hotkey)));
    const id = `art_${artifactId}`;

    const plain = await send(server, 'GET', `/v1/artifacts/${id}`, { token: paid });
    expect(plain.status).toBe(200);
    expect('log_proof' in plain.body!).toBe(false);
    expect((await send(server, 'GET', `/v1/artifacts/${id}?proof=false`, { token: paid })).body).toEqual(plain.body);
    const detail = await send(server, 'GET', `/v1/artifacts/${id}?proof=true`, { token: paid });
    expect(detail.status).toBe(200);
    const { log_proof: proof, log_entry: entry, ...rest } = detail.body!;
    expect(rest).toEqual(plain.body);
    // The entry is rebuilt from the answer's own fields (bundle_hash from the round's public record).
    const logged = JSON.parse(entry as string) as Record<string, unknown>;
    expect(entry).toBe(
      canonicalJson({
        type: 'vigil.verdict/v1',
        bundle_hash: bundle('packages', { label: 'npm', sourceId: 'pkg:npm/evil@1.0.0' }),
        track: rest.track,
        verdict: rest.verdict.verdict,
        previous_verdict: null,
        risk_score: rest.verdict.risk_score,
        round_id: rest.verdict.round_id,
        published_at: rest.verdict.decided_at,
      }),
    );
    expect(logged.verdict).toBe('BLOCK');
    const verified = verifyTlogProof(proof as string, { leafHash: leafHash(new TextEncoder().encode(entry as string)), origin, logVerifier });
    const size = Number((await (await fetch(`${server.url}/v1/log/checkpoint`)).text()).split('\n')[1]);
    expect(verified.checkpoint.size).toBe(size);

    const verify = await send(server, 'POST', '/v1/artifacts/verify?proof=true', { token: paid, body: JSON.stringify({ artifact: 'npm:evil@1.0.0' }), type: 'application/json' });
    expect(verify.status).toBe(200);
    expect(verify.body).toMatchObject({ state: 'decided', verdict: 'BLOCK', artifact_id: id, log_entry: entry });
    expect(verifyTlogProof(verify.body!.log_proof as string, { leafHash: leafHash(new TextEncoder().encode(entry as string)), origin, logVerifier }).index).toBe(verified.index);
    const withoutProof = await json(server, '/v1/artifacts/verify', paid, { artifact: 'npm:evil@1.0.0' });
    expect('log_proof' in withoutProof.body!).toBe(false);

    // Pending: nothing to prove, both null.
    const pending = await send(server, 'POST', '/v1/artifacts/verify?proof=true', { token: paid, body: JSON.stringify({ artifact: 'npm:never-seen@1.0.0' }), type: 'application/json' });
    expect(pending.body).toMatchObject({ state: 'pending', log_proof: null, log_entry: null });
    const bad = await send(server, 'GET', `/v1/artifacts/${id}?proof=yes`, { token: paid });
    expect(bad.status).toBe(422);
    expect(bad.body!.errors.map((e: { path: string }) => e.path)).toEqual(['query.proof']);
  });

  it('GET /v1/artifacts/{id}/vsa: the verdict as a SLSA VSA in a DSSE envelope, verified with @sigstore/core\'s PAE and node:crypto', async () => {
    const paid = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read,verify']);
    const server = await start();
    const { artifactId, canonical } = await publishVerdict('pkg:npm/evil@1.0.0');
    const identity = (await (await fetch(`${server.url}/v1/server-identity`)).json()) as { server_hotkey: string };
    const detail = (await send(server, 'GET', `/v1/artifacts/art_${artifactId}`, { token: paid })).body!;
    const answer = await send(server, 'GET', `/v1/artifacts/art_${artifactId}/vsa`, { token: paid });
    expect(answer.status).toBe(200);
    const envelope = answer.body as { payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] };
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    expect(envelope.signatures).toHaveLength(1);
    expect(envelope.signatures[0]!.keyid).toBe(identity.server_hotkey);
    // Independently: sigstore's DSSE pre-authentication encoding, node's Ed25519, the key from /v1/server-identity.
    const payload = Buffer.from(envelope.payload, 'base64');
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(identity.server_hotkey, 'hex').toString('base64url') }, format: 'jwk' });
    const pae = dsse.preAuthEncoding(envelope.payloadType, payload);
    expect(verifySignature(null, pae, publicKey, Buffer.from(envelope.signatures[0]!.sig, 'base64'))).toBe(true);
    const tampered = Buffer.from(payload.toString().replace('"FAILED"', '"PASSED"'));
    expect(verifySignature(null, dsse.preAuthEncoding(envelope.payloadType, tampered), publicKey, Buffer.from(envelope.signatures[0]!.sig, 'base64'))).toBe(false);
    expect(JSON.parse(payload.toString())).toEqual({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: 'pkg:npm/evil@1.0.0', digest: { sha256: detail.sha256.slice('sha256:'.length) } }],
      predicateType: 'https://slsa.dev/verification_summary/v1',
      predicate: {
        verifier: { id: `urn:vigil:server:${identity.server_hotkey}` },
        timeVerified: new Date(detail.verdict.decided_at).toISOString(),
        resourceUri: 'pkg:npm/evil@1.0.0',
        policy: { uri: `urn:vigil:round:${detail.verdict.round_id}` },
        inputAttestations: canonical.map((hash) => ({ uri: `urn:vigil:attestation:${hash}`, digest: { sha256: hash.slice('sha256:'.length) } })),
        verificationResult: 'FAILED',
        verifiedLevels: ['VIGIL_VERDICT_BLOCK'],
      },
    });
    // No published verdict: 404 from the catalogue; an unknown id as for the artifact.
    const uploaded = await uploadRaw(server, paid, npmTarball(), 'track=packages&package=npm:left-pad@1.3.0');
    const none = await send(server, 'GET', `/v1/artifacts/${uploaded.body!.id}/vsa`, { token: paid });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: 'artifact has no published verdict', code: 'artifact_verdict_not_published' });
    expect((await send(server, 'GET', '/v1/artifacts/art_999999/vsa', { token: paid })).body).toEqual({ detail: 'artifact not found', code: 'artifact_unknown' });
    expect((await send(server, 'GET', `/v1/artifacts/art_${artifactId}/vsa`)).status).toBe(401);
  });

  it('verifies: decided with what backs it, pending when unseen or undecided, in order for a batch of 100', async () => {
    const paid = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read,verify']);
    const free = await operatorKey(ctx.db(), ['--org', 'globex', '--scopes', 'read']);
    const server = await start();
    const decided = await publishVerdict('pkg:npm/evil@1.0.0');
    const uploaded = await uploadRaw(server, paid, npmTarball(), 'track=packages&package=npm:left-pad@1.3.0');
    expect(uploaded.status).toBe(201);

    const verdict = await json(server, '/v1/artifacts/verify', paid, { artifact: 'npm:evil@1.0.0' });
    expect(verdict.status).toBe(200);
    expect(verdict.body).toEqual({
      artifact: 'pkg:npm/evil@1.0.0',
      state: 'decided',
      queued: false,
      artifact_id: `art_${decided.artifactId}`,
      sha256: expect.stringMatching(/^sha256:/),
      verdict: 'BLOCK',
      risk_score: 85,
      round_id: expect.any(String),
      decided_at: '2026-11-21T13:00:00.000+00:00',
      findings_summary: { total: 2, by_severity: { CRIT: 1, HIGH: 1, MED: 0, LOW: 0 }, by_category: [{ category: 'exfiltration', count: 1 }, { category: 'install_script', count: 1 }] },
      attestations: [
        { canonical_hash: decided.canonical[0], validator_hotkey: decided.validators[0] },
        { canonical_hash: decided.canonical[1], validator_hotkey: decided.validators[1] },
      ],
    });
    const queued = await json(server, '/v1/artifacts/verify', paid, { artifact: 'pkg:npm/left-pad@1.3.0' });
    expect(queued.body).toMatchObject({ state: 'pending', queued: true, artifact_id: uploaded.body!.id, verdict: null, risk_score: null, findings_summary: null, attestations: [] });
    const unseen = await json(server, '/v1/artifacts/verify', paid, { artifact: 'npm:never-seen@9.9.9' });
    expect(unseen.body).toMatchObject({ artifact: 'pkg:npm/never-seen@9.9.9', state: 'pending', queued: false, artifact_id: null, sha256: null, verdict: null });

    // The artifact read: history, backing attestations, and findings for paid only.
    const paidRead = await send(server, 'GET', `/v1/artifacts/art_${decided.artifactId}`, { token: paid });
    expect(paidRead.body).toMatchObject({
      state: 'decided',
      verdict: { verdict: 'BLOCK', risk_score: 85 },
      verdict_history: [{ verdict: 'BLOCK', previous_verdict: null, risk_score: 85 }],
      attestations: [
        { canonical_hash: decided.canonical[0], validator_hotkey: decided.validators[0], verdict: 'BLOCK', risk_score: 90 },
        { canonical_hash: decided.canonical[1], validator_hotkey: decided.validators[1], verdict: 'BLOCK', risk_score: 80 },
      ],
      findings_withheld: false,
      // The seeded artifact has no bytes in this server's blob store.
      archive: { format: 'unavailable', status: 'unavailable', files: null },
      size: null,
    });
    expect(paidRead.body!.findings).toHaveLength(3);
    expect(paidRead.body!.findings[0]).toMatchObject({ category: 'install_script', severity: 'CRIT', canonical_hash: decided.canonical[0] });
    const freeRead = await send(server, 'GET', `/v1/artifacts/art_${decided.artifactId}`, { token: free });
    expect(freeRead.body).toMatchObject({ findings: null, findings_withheld: true, attestations: paidRead.body!.attestations });

    const references = Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 'npm:evil@1.0.0' : i % 3 === 1 ? 'pkg:npm/left-pad@1.3.0' : `npm:other-${i}@1.0.0`));
    const batch = await json(server, '/v1/artifacts/verify/batch', paid, { artifacts: references });
    expect(batch.status).toBe(200);
    const results = batch.body!.results as { artifact: string; state: string; queued: boolean }[];
    expect(results).toHaveLength(100);
    results.forEach((result, i) => {
      const expected = i % 3 === 0 ? ['pkg:npm/evil@1.0.0', 'decided', false] : i % 3 === 1 ? ['pkg:npm/left-pad@1.3.0', 'pending', true] : [`pkg:npm/other-${i}@1.0.0`, 'pending', false];
      expect([result.artifact, result.state, result.queued]).toEqual(expected);
    });
    expect(results[0]).toEqual(verdict.body);
  });

  it("answers a reference from the asking account's own claims and trusted ones: another account's claim never changes it", async () => {
    const db = ctx.db();
    const acme = await operatorKey(db, ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read,verify']);
    const initech = await operatorKey(db, ['--org', 'initech', '--plan', 'paid', '--scopes', 'read,verify']);
    const mallory = await operatorKey(db, ['--org', 'mallory', '--scopes', 'upload,read']);
    const ops = await operatorKey(db, ['--org', 'vigil-ops', '--scopes', 'upload']);
    await runKeysCommand(db, 'accounts', ['trust', 'vigil-ops'], Date.now());
    const server = await start();
    const round = await openRound(db, { track: 'packages', now: T0, submissionMs: 1, evaluationMs: 1, policyVersion: 'p' });
    /** A published verdict, as a closed round leaves it. */
    const decide = async (id: string, verdict: 'ALLOW' | 'BLOCK', riskScore: number) =>
      db.insertInto('published_verdicts').values({ artifact_id: Number(id.slice('art_'.length)), verdict, risk_score: riskScore, round_id: round.round_id, updated_at: T0 }).execute();
    const tarball = (name: string, code: string) =>
      Buffer.from(tarGz([{ path: 'package/package.json', content: JSON.stringify({ name, version: '1.0.0' }) }, { path: 'package/index.js', content: code }]));
    const verify = async (token: string, artifact: string) => (await json(server, '/v1/artifacts/verify', token, { artifact })).body!;
    const lookup = async (token: string, purl: string) => (await send(server, 'GET', `/v1/artifacts?purl=${purl}`, { token })).body!.artifacts.map((a: { id: string }) => a.id);

    // The operator uploads a known-bad package and the genuine react; rounds decided both.
    const evilBytes = tarball('evil', 'require("child_process").exec(process.env.X)');
    const evil = (await uploadRaw(server, ops, evilBytes, 'track=packages&package=npm:evil@1.0.0')).body!.id as string;
    await decide(evil, 'BLOCK', 95);
    const react = (await uploadRaw(server, ops, tarball('react', 'module.exports = {}'), 'track=packages&package=npm:react@18.2.0')).body!.id as string;
    await decide(react, 'ALLOW', 2);
    const lodash = (await uploadRaw(server, ops, tarball('lodash', 'module.exports = 4'), 'track=packages&package=npm:lodash@4.17.21')).body!.id as string;
    await decide(lodash, 'ALLOW', 1);
    expect(await verify(acme, 'npm:react@18.2.0')).toMatchObject({ state: 'decided', verdict: 'ALLOW', artifact_id: react });

    // A free account uploads the BLOCK bytes under react (reference poisoning): the same artifact, its own claim.
    const poisoned = await uploadRaw(server, mallory, evilBytes, 'track=packages&package=npm:react@18.2.0');
    expect(poisoned).toMatchObject({ status: 200, body: { id: evil } });
    expect(poisoned.body!.packages.map((p: { purl: string }) => p.purl)).toEqual(['pkg:npm/evil@1.0.0', 'pkg:npm/react@18.2.0']);
    // Every other account's answer is what it was, at once and after any cache.
    expect(await verify(acme, 'npm:react@18.2.0')).toMatchObject({ state: 'decided', verdict: 'ALLOW', artifact_id: react });
    expect((await json(server, '/v1/artifacts/verify/batch', initech, { artifacts: ['npm:react@18.2.0', 'npm:evil@1.0.0'] })).body!.results).toMatchObject([
      { verdict: 'ALLOW', artifact_id: react },
      { verdict: 'BLOCK', artifact_id: evil },
    ]);
    expect(await lookup(initech, 'npm:react@18.2.0')).toEqual([react]);
    expect(await lookup(mallory, 'npm:react@18.2.0')).toEqual([evil, react]);
    // Nor does another account see the claim on the artifact itself.
    const read = await send(server, 'GET', `/v1/artifacts/${evil}`, { token: initech });
    expect(read.body!.packages.map((p: { purl: string }) => p.purl)).toEqual(['pkg:npm/evil@1.0.0']);

    // An account's own claim counts for itself: acme names the bad bytes react too; the most severe answers.
    expect((await uploadRaw(server, acme, evilBytes, 'track=packages&package=npm:react@18.2.0')).status).toBe(200);
    expect(await verify(acme, 'pkg:npm/react@18.2.0')).toMatchObject({ state: 'decided', verdict: 'BLOCK', risk_score: 95, artifact_id: evil });
    expect(await verify(initech, 'pkg:npm/react@18.2.0')).toMatchObject({ verdict: 'ALLOW', artifact_id: react });
    // A pending upload of its own is queued for it only.
    const internal = (await uploadRaw(server, acme, tarball('internal', '1'), 'track=packages&package=npm:@acme/internal@1.0.0')).body!.id as string;
    expect(await verify(acme, 'npm:@acme/internal@1.0.0')).toMatchObject({ state: 'pending', queued: true, artifact_id: internal });
    expect(await verify(initech, 'npm:@acme/internal@1.0.0')).toMatchObject({ state: 'pending', queued: false, artifact_id: null, sha256: null });
    expect(await lookup(initech, 'npm:@acme/internal@1.0.0')).toEqual([]);

    // Trust is the operator's to withdraw: the operator's claims then speak for the operator only.
    await runKeysCommand(db, 'accounts', ['untrust', 'vigil-ops'], Date.now());
    expect(await lookup(initech, 'npm:react@18.2.0')).toEqual([]);
    expect(await verify(initech, 'npm:lodash@4.17.21')).toMatchObject({ state: 'pending', queued: false, artifact_id: null });
    expect(await lookup(acme, 'npm:react@18.2.0')).toEqual([evil]);
  });

  it('reads package facts, and takes a provenance bundle for an artifact the account uploaded, verified offline', async () => {
    const acme = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'upload,read']);
    const other = await operatorKey(ctx.db(), ['--org', 'other', '--scopes', 'upload,read']);
    const server = await start();
    const tarball = Buffer.from(
      tarGz([{ path: 'package/package.json', content: JSON.stringify({ name: 'gundam-visor', version: '1.0.1', license: 'MIT', scripts: { install: 'node-gyp rebuild' } }) }]),
    );
    const uploaded = await uploadRaw(server, acme, tarball, 'track=packages&package=npm:gundam-visor@1.0.1');
    const id = uploaded.body!.id as string;
    // Another account's private upload is no artifact for it; once the uploader is trusted, it is.
    expect(await send(server, 'GET', `/v1/artifacts/${id}/facts`, { token: other })).toMatchObject({ status: 404, body: { detail: 'artifact not found', code: 'artifact_unknown' } });
    await runKeysCommand(ctx.db(), 'accounts', ['trust', 'acme'], Date.now());
    const facts = await send(server, 'GET', `/v1/artifacts/${id}/facts`, { token: other });
    expect(facts.status).toBe(200);
    expect(facts.body).toEqual({
      artifact_id: id,
      kind: 'npm',
      license: 'MIT',
      license_source: 'package.json license',
      install_scripts: ['install'],
      registry_provenance: 'absent',
      published_at: null,
      provenance: null,
    });

    // The real npm attestations of gundam-visor@1.0.1: its signatures verify, but these are not its bytes.
    const attestations = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/sigstore/gundam-visor-1.0.1.attestations.json'), 'utf8'));
    const refused = await json(server, `/v1/artifacts/${id}/provenance`, acme, attestations);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      detail: 'provenance bundle does not verify', code: 'provenance_unverified',
      errors: [
        {
          path: 'body',
          message: `the bundle signs pkg:npm/gundam-visor@1.0.1 with sha512 8d9d7972f676516c75014aa074e11ae604d98f0b64ec6725a61e2838ff3dab162118fa71433fb31e1550d30bd0dec9d086ce032b94457b583900c507acf39c40, not these bytes (sha512 ${createHash('sha512').update(tarball).digest('hex')})`,
        },
      ],
    });
    expect((await send(server, 'GET', `/v1/artifacts/${id}/facts`, { token: acme })).body).toEqual(facts.body);

    // Verified bundles (stored as a verification leaves them): the one logged first is kept, whoever attached it,
    // and every account reads it, as every account reads the artifact.
    const acmeId = (await ctx.db().selectFrom('artifact_packages').select('uploaded_by').executeTakeFirstOrThrow()).uploaded_by;
    const verified = (loggedAt: number | null, repository: string) => ({
      artifact_id: Number(id.slice(4)),
      subject: 'pkg:npm/gundam-visor@1.0.1',
      source_repository: repository,
      logged_at: loggedAt,
      bundle: '{}',
      uploaded_by: acmeId,
      created_at: T0 + 5 * DAY,
    });
    const first = await keepVerifiedProvenance(ctx.db(), verified(T0, 'https://github.com/acme/gundam-visor'));
    expect(first).toEqual({
      artifact_id: id,
      status: 'verified',
      subject: 'pkg:npm/gundam-visor@1.0.1',
      source_repository: 'https://github.com/acme/gundam-visor',
      logged_at: '2026-11-21T10:00:00.000+00:00',
      created_at: '2026-11-26T10:00:00.000+00:00',
    });
    expect(await keepVerifiedProvenance(ctx.db(), verified(T0 + DAY, 'https://github.com/mallory/resigned'))).toEqual(first);
    expect(await keepVerifiedProvenance(ctx.db(), verified(null, 'https://github.com/mallory/unlogged'))).toEqual(first);
    const earlier = await keepVerifiedProvenance(ctx.db(), verified(T0 - DAY, 'https://github.com/acme/gundam-visor-first'));
    expect(earlier).toMatchObject({ source_repository: 'https://github.com/acme/gundam-visor-first', logged_at: '2026-11-20T10:00:00.000+00:00' });
    for (const token of [acme, other]) {
      expect((await send(server, 'GET', `/v1/artifacts/${id}/facts`, { token })).body).toEqual({
        ...facts.body,
        registry_provenance: 'verified',
        published_at: '2026-11-20T10:00:00.000+00:00',
        provenance: earlier,
      });
    }
    // A bundle that does not verify changes nothing, and a row left from before they were refused is no bundle.
    expect((await json(server, `/v1/artifacts/${id}/provenance`, acme, attestations)).status).toBe(422);
    expect((await send(server, 'GET', `/v1/artifacts/${id}/facts`, { token: other })).body).toMatchObject({ provenance: earlier });
    await ctx.db().updateTable('artifact_provenance').set({ status: 'present_unverified', reason: 'junk' }).execute();
    expect((await send(server, 'GET', `/v1/artifacts/${id}/facts`, { token: other })).body).toEqual(facts.body);

    // Only an account that uploaded the artifact may attach provenance to it; anything but a bundle is 422.
    expect(await json(server, `/v1/artifacts/${id}/provenance`, other, attestations)).toMatchObject({ status: 404, body: { detail: 'artifact not found', code: 'artifact_unknown' } });
    expect(await json(server, `/v1/artifacts/art_999/provenance`, acme, attestations)).toMatchObject({ status: 404, body: { detail: 'artifact not found', code: 'artifact_unknown' } });
    const notBundle = await json(server, `/v1/artifacts/${id}/provenance`, acme, { attestations: [{ predicateType: 'https://example.com/other', bundle: {} }] });
    expect(notBundle).toMatchObject({ status: 422, body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: 'body', message: expect.stringContaining('no SLSA provenance bundle') }] } });
    expect(await json(server, `/v1/artifacts/${id}/provenance`, acme, { mediaType: 'nonsense' })).toMatchObject({ status: 422, body: { errors: [{ path: 'body' }] } });
    expect(await json(server, `/v1/artifacts/${id}/provenance`, acme, [1, 2])).toMatchObject({ status: 422 });
    expect((await send(server, 'GET', `/v1/artifacts/art_999/facts`, { token: acme })).status).toBe(404);

    // Without the bytes there is nothing to verify a bundle against.
    rmSync(server.blobRoot, { recursive: true, force: true });
    expect(await json(server, `/v1/artifacts/${id}/provenance`, acme, attestations)).toMatchObject({
      status: 404,
      body: { detail: `${id}: its bytes are not in the blob store, so a provenance bundle cannot be verified against them` },
    });
  });
});
