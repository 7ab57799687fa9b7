import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { tarGz } from '../src/features/artifacts/archive/tar-gz.js';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import type { VigilDatabase } from '../src/platform/db/database.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { startServer, type TestServer } from './harness.js';

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
    const server = await startServer({ database, dataDir, customers: true, config: { artifactLimitBytes: 1024 * 1024 } });
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
