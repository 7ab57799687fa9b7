import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { tarGz } from '../src/features/artifacts/archive/tar-gz.js';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import type { VigilDatabase } from '../src/platform/db/database.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { startServer, type TestServer } from './harness.js';
import { createS3BlobStore } from '../src/platform/blobs/s3-blob-store.js';
import { startHttpFaultProxy } from '../src/test-support/http-fault-proxy.js';
import { startS3StandIn, type S3StandIn } from '../src/test-support/s3-stand-in.js';

// docs/configuration.md, "Several instances": artifact bytes are files under <VIGIL_DATA_DIR>/blobs,
// kept by the instance that received the upload, so every instance needs the same data directory.
describeEachDialect('several instances over one database', (ctx) => {
  const servers: TestServer[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function instance(dataDir: string): Promise<TestServer> {
    // Both instances use the test's one database, as two processes with one DATABASE_URL do.
    const database: VigilDatabase = { db: ctx.db(), dialect: ctx.dialect, close: async () => {} };
    const server = await startServer({ database, dataDir, config: { artifactLimitBytes: 1024 * 1024 } });
    servers.push(server);
    return server;
  }
  function dataDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-instances-'));
    dirs.push(dir);
    return dir;
  }
  const get = async (server: TestServer, path: string, token: string) => {
    const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('an artifact uploaded through one instance is read, bytes and all, through another sharing its VIGIL_DATA_DIR', async () => {
    const shared = dataDir();
    const a = await instance(shared);
    const b = await instance(shared);
    const lines = await runKeysCommand(ctx.db(), 'keys', ['create', '--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read'], Date.now());
    const token = lines.find((line) => line.startsWith('vgl_'))!;
    const bytes = Buffer.from(
      tarGz([
        { path: 'package/package.json', content: '{"name":"left-pad","version":"1.3.0","license":"MIT"}' },
        { path: 'package/index.js', content: 'module.exports = (s, n) => s.padStart(n);\n' },
      ]),
    );

    const uploaded = await fetch(`${a.url}/v1/artifacts?track=packages&package=npm:left-pad@1.3.0`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    });
    expect(uploaded.status).toBe(201);
    const id = ((await uploaded.json()) as { id: string }).id;

    // B lists the tarball's files and reads its package.json: it has the bytes A stored.
    const throughB = await get(b, `/v1/artifacts/${id}`, token);
    expect(throughB).toMatchObject({
      status: 200,
      body: {
        size: bytes.length,
        archive: { format: 'tgz', status: 'ok', files: [{ name: 'package/package.json', size: 53 }, { name: 'package/index.js', size: 42 }] },
      },
    });
    expect(throughB).toEqual(await get(a, `/v1/artifacts/${id}`, token));
    const factsB = await get(b, `/v1/artifacts/${id}/facts`, token);
    expect(factsB.status).toBe(200);
    expect(factsB).toEqual(await get(a, `/v1/artifacts/${id}/facts`, token));
    expect(JSON.stringify(factsB.body)).toContain('MIT');
    // The same server-key too: one identity, and webhook secrets sealed by one open on the other.
    const identity = async (server: TestServer) => (await (await fetch(`${server.url}/v1/server-identity`)).json()) as unknown;
    expect(await identity(b)).toEqual(await identity(a));

    // What the documentation warns about: an instance with a data directory of its own has the
    // artifact's record (the database) but not its bytes.
    const alone = await instance(dataDir());
    expect(await get(alone, `/v1/artifacts/${id}`, token)).toMatchObject({
      status: 200,
      body: { size: null, archive: { status: 'unavailable', files: null } },
    });
  });
});

// docs/storage.md, "Blob store": with VIGIL_BLOB_STORE=s3 the instances share the bucket, not a
// directory. The bucket is the s3rver stand-in, reached through the real AWS SDK.
describeEachDialect('several instances over one database and one S3 bucket', (ctx) => {
  const servers: TestServer[] = [];
  const closers: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    for (const close of closers.splice(0).reverse()) await close();
  });

  async function instance(s3: S3StandIn, prefix: string, endpoint = s3.endpoint): Promise<TestServer> {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-s3-instance-'));
    closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const blobs = createS3BlobStore(
      { bucket: s3.bucket, prefix, endpoint, region: 'us-east-1', forcePathStyle: true, timeoutMs: 1_000, maxAttempts: 2 },
      join(dataDir, 'blobs'),
      { credentials: s3.credentials },
    );
    closers.push(() => blobs.close());
    const database: VigilDatabase = { db: ctx.db(), dialect: ctx.dialect, close: async () => {} };
    const server = await startServer({ database, dataDir, blobs, config: { artifactLimitBytes: 1024 * 1024 } });
    servers.push(server);
    return server;
  }

  it('an artifact uploaded through one instance is served by another with its own data directory; a store that is down is 502', async () => {
    const s3 = await startS3StandIn();
    closers.push(() => s3.close());
    const proxy = await startHttpFaultProxy({ host: '127.0.0.1', port: s3.port });
    closers.push(() => proxy.close());
    const prefix = `e2e-${ctx.dialect}/`;
    const a = await instance(s3, prefix);
    const b = await instance(s3, prefix, proxy.endpoint);
    const lines = await runKeysCommand(ctx.db(), 'keys', ['create', '--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read'], Date.now());
    const token = lines.find((line) => line.startsWith('vgl_'))!;
    const bytes = Buffer.from(
      tarGz([
        { path: 'package/package.json', content: '{"name":"left-pad","version":"1.3.0","license":"MIT"}' },
        { path: 'package/index.js', content: 'module.exports = (s, n) => s.padStart(n);\n' },
      ]),
    );
    const upload = (server: TestServer, body: Uint8Array<ArrayBuffer>, name: string) =>
      fetch(`${server.url}/v1/artifacts?track=packages&package=npm:${name}@1.3.0`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body,
      });
    const get = async (server: TestServer, path: string) => {
      const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    const uploaded = await upload(a, new Uint8Array(bytes), 'left-pad');
    expect(uploaded.status).toBe(201);
    const id = ((await uploaded.json()) as { id: string; content_hash?: string }).id;

    const throughB = await get(b, `/v1/artifacts/${id}`);
    expect(throughB).toMatchObject({
      status: 200,
      body: { size: bytes.length, archive: { format: 'tgz', status: 'ok', files: [{ name: 'package/package.json', size: 53 }, { name: 'package/index.js', size: 42 }] } },
    });
    expect(throughB).toEqual(await get(a, `/v1/artifacts/${id}`));
    const factsB = await get(b, `/v1/artifacts/${id}/facts`);
    expect(factsB).toEqual(await get(a, `/v1/artifacts/${id}/facts`));
    expect(JSON.stringify(factsB.body)).toContain('MIT');

    // B's store answers 500 to everything: an upload through B is a retryable 502, not a 500 or a 201.
    proxy.mode = 'error500';
    const other = Buffer.from(tarGz([{ path: 'package/package.json', content: '{"name":"right-pad","version":"1.3.0"}' }]));
    const refused = await upload(b, new Uint8Array(other), 'right-pad');
    expect({ status: refused.status, body: await refused.json() }).toEqual({ status: 502, body: { code: 'upstream_unavailable', detail: 'upstream dependency unavailable' } });
    // A read that needs the bytes is 502 too, never an answer that says the bytes are missing.
    expect(await get(b, `/v1/artifacts/${id}`)).toEqual({ status: 502, body: { code: 'upstream_unavailable', detail: 'upstream dependency unavailable' } });
    // Nothing of the refused upload is anywhere: healthy again, A does not know it.
    proxy.mode = 'pass';
    expect(await get(a, `/v1/artifacts?purl=${encodeURIComponent('pkg:npm/right-pad@1.3.0')}`)).toEqual({ status: 200, body: { artifacts: [] } });
    expect(await get(a, `/v1/artifacts?purl=${encodeURIComponent('pkg:npm/left-pad@1.3.0')}`)).toMatchObject({ status: 200, body: { artifacts: [{ id }] } });

    // The one window (docs/storage.md, "Consistency"): the row commits, then the copy under the
    // name fails. 502; the artifact reads as unavailable until the client's retry copies the bytes.
    proxy.mode = 'error500OnCopy';
    const halfway = await upload(b, new Uint8Array(other), 'right-pad');
    expect(halfway.status).toBe(502);
    const missing = await get(a, `/v1/artifacts?purl=${encodeURIComponent('pkg:npm/right-pad@1.3.0')}`);
    expect(missing).toMatchObject({ status: 200, body: { artifacts: [{ size: null, archive: { status: 'unavailable' } }] } });
    proxy.mode = 'pass';
    const retried = await upload(b, new Uint8Array(other), 'right-pad');
    expect(retried.status).toBe(200);
    expect(await get(a, `/v1/artifacts?purl=${encodeURIComponent('pkg:npm/right-pad@1.3.0')}`)).toMatchObject({
      status: 200,
      body: { artifacts: [{ size: other.length, archive: { status: 'ok' } }] },
    });
  });
});
