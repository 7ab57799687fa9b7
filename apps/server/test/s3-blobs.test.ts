import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFileBlobStore } from '../src/platform/blobs/index.js';
import { S3_PART_SIZE } from '../src/platform/blobs/s3-blob-store.js';
import { startS3StandIn, type S3StandIn } from '../src/test-support/s3-stand-in.js';

// `vigil-server blobs migrate` and VIGIL_BLOB_STORE=s3 as installed: the compiled dist/bin.js
// against the s3rver stand-in, credentials from the standard AWS variables.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const built = existsSync(BIN);
if (!built) console.warn(`SKIPPED: blobs migrate command tests (${BIN} not built; run npx tsc -b)`);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let s3: S3StandIn;
let raw: S3Client;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3StandIn();
  raw = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3.credentials });
});
afterAll(async () => {
  raw.destroy();
  await s3.close();
});
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-migrate-'));
  dirs.push(dir);
  return dir;
}

function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        VIGIL_REGISTRY_FETCH: 'false',
        AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        VIGIL_S3_FORCE_PATH_STYLE: 'true',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function keysUnder(prefix: string): Promise<string[]> {
  const listed = await raw.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key!.slice(prefix.length)).sort();
}

const keyOf = (hash: string) => `sha256/${hash.slice(7, 9)}/${hash.slice(9)}`;

describe.skipIf(!built)('vigil-server blobs migrate', () => {
  it('copies every blob verified, resumes by skipping what is there, replaces rotten objects, reports what it cannot copy', async () => {
    const cwd = workDir();
    const files = createFileBlobStore(join(cwd, '.vigil', 'blobs'));
    const blobs = [Buffer.from('small blob'), randomBytes(70_000), randomBytes(S3_PART_SIZE + 4096)];
    const hashes = [];
    for (const bytes of blobs) hashes.push(await files.put(bytes));
    // A half-finished upload in staging is not a blob.
    mkdirSync(join(cwd, '.vigil', 'blobs', 'staging'), { recursive: true });
    writeFileSync(join(cwd, '.vigil', 'blobs', 'staging', 'x.tmp'), 'partial');
    const to = ['blobs', 'migrate', '--to', `s3://${s3.bucket}/deploy-1`, '--endpoint', s3.endpoint];

    const first = await run(to, cwd);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^blobs migrate: 0\/3 blobs \(0 copied, 0 already there, 0 failed\)\n/);
    expect(first.stderr).toContain('blobs migrate: 3/3 blobs (3 copied, 0 already there, 0 failed)\n');
    expect(first.stdout).toBe(`copied 3 blob(s) to s3://${s3.bucket}/deploy-1/, 0 already there and verified, 0 failed (of 3 under ${join(cwd, '.vigil', 'blobs')})\n`);
    expect(await keysUnder('deploy-1/')).toEqual(hashes.map(keyOf).sort());
    for (const [i, hash] of hashes.entries()) {
      const object = await raw.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `deploy-1/${keyOf(hash)}` }));
      expect(Buffer.from(await object.Body!.transformToByteArray()).equals(blobs[i]!)).toBe(true);
    }

    // Run again: nothing to copy. One object rotted meanwhile: it is copied again.
    await raw.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `deploy-1/${keyOf(hashes[1]!)}`, Body: Buffer.from('rotten') }));
    const again = await run(to, cwd);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('copied 1 blob(s)');
    expect(again.stdout).toContain('2 already there and verified, 0 failed');
    const healed = await raw.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `deploy-1/${keyOf(hashes[1]!)}` }));
    expect(Buffer.from(await healed.Body!.transformToByteArray()).equals(blobs[1]!)).toBe(true);

    // A local file whose bytes are not its name's is reported and not copied; exit 1.
    const bad = `sha256:${createHash('sha256').update('what the name says').digest('hex')}`;
    mkdirSync(join(cwd, '.vigil', 'blobs', 'sha256', bad.slice(7, 9)), { recursive: true });
    writeFileSync(join(cwd, '.vigil', 'blobs', 'sha256', bad.slice(7, 9), bad.slice(9)), 'other bytes');
    const rotten = await run(to, cwd);
    expect(rotten.code).toBe(1);
    expect(rotten.stdout).toContain(`failed ${bad}: `);
    expect(rotten.stdout).toContain('0 blob(s)');
    expect(rotten.stdout).toContain('3 already there and verified, 1 failed (of 4');
    expect(await keysUnder('deploy-1/')).not.toContain(keyOf(bad));
  }, 120_000);

  it('refuses a bad command line with the usage (exit 2) and a store that is down with exit 1', async () => {
    const cwd = workDir();
    await createFileBlobStore(join(cwd, '.vigil', 'blobs')).put(Buffer.from('one'));
    const missing = await run(['blobs', 'migrate'], cwd);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^vigil-server: blobs: migrate: expected --to s3:\/\/<bucket>\[\/<prefix>\]\n\nUsage: vigil-server/);
    expect((await run(['blobs', 'migrate', '--to', 'gs://bucket'], cwd)).stderr).toMatch(/^vigil-server: blobs: migrate: --to: expected s3:\/\/<bucket>\[\/<prefix>\], got "gs:\/\/bucket"\n/);
    expect((await run(['blobs', 'migrate', '--to', 's3://Bad_Bucket'], cwd)).code).toBe(2);
    expect((await run(['blobs', 'migrate', '--to', `s3://${s3.bucket}`, '--endpoint', 'nope'], cwd)).code).toBe(2);
    expect((await run(['blobs', 'copy'], cwd)).code).toBe(2);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await run(['blobs', 'migrate', '--to', `s3://${s3.bucket}/x`, '--endpoint', `http://127.0.0.1:${port}`], cwd, { VIGIL_S3_MAX_ATTEMPTS: '1' });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/vigil-server: object store: GET x\/sha256\/.*ECONNREFUSED/);
  }, 60_000);

  it('refuses (exit 1, nothing copied) a data directory that does not exist or holds no file-store blobs', async () => {
    const cwd = workDir();
    const to = ['blobs', 'migrate', '--to', `s3://${s3.bucket}/absent`, '--endpoint', s3.endpoint];
    // VIGIL_DATA_DIR unset: ./.vigil under the working directory, which is not there.
    const unset = await run(to, cwd);
    expect(unset.code).toBe(1);
    expect(unset.stdout).toBe('');
    expect(unset.stderr).toBe(`vigil-server: blobs: migrate: the data directory ${join(cwd, '.vigil')} does not exist (VIGIL_DATA_DIR; nothing was copied)\n`);
    const typo = await run(to, cwd, { VIGIL_DATA_DIR: join(cwd, 'typo') });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(`the data directory ${join(cwd, 'typo')} does not exist`);
    // A directory that exists but is not a file store's data directory (no blobs/sha256/).
    mkdirSync(join(cwd, 'other', 'blobs', 'staging'), { recursive: true });
    const other = await run(to, cwd, { VIGIL_DATA_DIR: join(cwd, 'other') });
    expect(other.code).toBe(1);
    expect(other.stderr).toBe(`vigil-server: blobs: migrate: ${join(cwd, 'other', 'blobs', 'sha256')} does not exist: ${join(cwd, 'other')} holds no file-store blobs (VIGIL_DATA_DIR; nothing was copied)\n`);
    expect(await keysUnder('absent/')).toEqual([]);
  }, 60_000);
});

describe.skipIf(!built)('vigil-server with VIGIL_BLOB_STORE=s3', () => {
  it('the commands put artifact bytes in the bucket, none on local disk', async () => {
    const cwd = workDir();
    const dir = join(cwd, 'left-pad');
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), '{"name":"left-pad","version":"1.3.0","license":"MIT"}');
    writeFileSync(join(dir, 'index.js'), 'module.exports = 1;\n');
    const env = { VIGIL_BLOB_STORE: 's3', VIGIL_S3_BUCKET: s3.bucket, VIGIL_S3_PREFIX: 'deploy-2', VIGIL_S3_ENDPOINT: s3.endpoint };
    const added = await run(['artifacts', 'add', '--track', 'packages', '--kind', 'live', dir], cwd, env);
    expect(added.code).toBe(0);
    expect(await keysUnder('deploy-2/')).toHaveLength(1);
    expect(existsSync(join(cwd, '.vigil', 'blobs', 'sha256'))).toBe(false);
    const facts = await run(['facts', 'backfill'], cwd, env);
    expect(facts).toMatchObject({ code: 0, stdout: 'computed the facts of 1 artifact(s): 1 package archive(s), 0 other\n' });
  }, 60_000);

  it('two `serve` processes with data directories of their own share artifacts through the bucket; SIGTERM exits 0', async () => {
    const shared = workDir();
    const env = {
      VIGIL_BLOB_STORE: 's3',
      VIGIL_S3_BUCKET: s3.bucket,
      VIGIL_S3_PREFIX: 'deploy-3/',
      VIGIL_S3_ENDPOINT: s3.endpoint,
      DATABASE_URL: `sqlite:${join(shared, 'vigil.db')}`,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      VIGIL_SCHEDULER: 'false',
      VIGIL_WEBHOOK_WORKER: 'false',
      VIGIL_REPOSITORY_WORKER: 'false',
    };
    const keys = await run(['keys', 'create', '--org', 'acme', '--plan', 'paid', '--scopes', 'upload,read'], workDir(), env);
    expect(keys.code).toBe(0);
    const token = keys.stdout.split('\n').find((line) => line.startsWith('vgl_'))!;
    const serve = async () => {
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });
      const child = spawn(process.execPath, [BIN, 'serve'], {
        cwd: workDir(),
        env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', VIGIL_S3_FORCE_PATH_STYLE: 'true', PORT: String(port), ...env },
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      let health: Response | undefined;
      for (let i = 0; i < 200 && !health; i++) {
        health = await fetch(`http://127.0.0.1:${port}/v1/health`).catch(async () => {
          await new Promise((r) => setTimeout(r, 100));
          return undefined;
        });
      }
      expect(health?.status).toBe(200);
      return { url: `http://127.0.0.1:${port}`, child, exited };
    };
    const a = await serve();
    const b = await serve();
    try {
      const { tarGz } = await import('../src/features/artifacts/archive/tar-gz.js');
      const bytes = tarGz([{ path: 'package/package.json', content: '{"name":"left-pad","version":"1.3.0","license":"MIT"}' }]);
      const uploaded = await fetch(`${a.url}/v1/artifacts?track=packages&package=npm:left-pad@1.3.0`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(bytes),
      });
      expect(uploaded.status).toBe(201);
      const { id } = (await uploaded.json()) as { id: string };
      expect(await keysUnder('deploy-3/')).toHaveLength(1);
      const throughB = await fetch(`${b.url}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(await throughB.json()).toMatchObject({ size: bytes.length, archive: { status: 'ok', files: [{ name: 'package/package.json' }] } });
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      expect([await a.exited, await b.exited]).toEqual([0, 0]);
    } finally {
      a.child.kill('SIGKILL');
      b.child.kill('SIGKILL');
    }
  }, 120_000);
});
