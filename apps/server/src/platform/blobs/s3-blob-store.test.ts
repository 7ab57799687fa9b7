import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BlobIntegrityError, BlobStoreUnavailableError } from './blob-store.js';
import { createS3BlobStore, S3_PART_SIZE, type S3BlobStore } from './s3-blob-store.js';
import { STAGING_ORPHAN_AGE_MS } from './sweep-staging.js';
import type { S3Settings } from './blob-store-settings.js';
import { toVigilError } from '../http/plugins/errors.js';
import { describeBlobStoreContract } from '../../test-support/blob-store-contract.js';
import { startS3StandIn, type S3StandIn } from '../../test-support/s3-stand-in.js';
import { startHttpFaultProxy, type HttpFaultProxy } from '../../test-support/http-fault-proxy.js';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.js';

let s3: S3StandIn;
let raw: S3Client;
beforeAll(async () => {
  s3 = await startS3StandIn();
  raw = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3.credentials });
});
afterAll(async () => {
  raw.destroy();
  await s3.close();
});

function settings(endpoint: string, prefix: string, overrides: Partial<S3Settings> = {}): S3Settings {
  return { bucket: s3.bucket, prefix, endpoint, region: 'us-east-1', forcePathStyle: true, timeoutMs: 5_000, maxAttempts: 3, ...overrides };
}

async function keysUnder(prefix: string): Promise<string[]> {
  const listed = await raw.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key!.slice(prefix.length)).sort();
}

async function localFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).map((e) => e.name);
}

const sha = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

// Each test gets its own prefix in the one bucket, so what one leaves cannot satisfy another.
describeBlobStoreContract(
  's3 blob store (s3rver stand-in)',
  async () => {
    const local = await mkdtemp(join(tmpdir(), 'vigil-s3-local-'));
    const prefix = `t-${randomBytes(4).toString('hex')}/`;
    const store = createS3BlobStore(settings(s3.endpoint, prefix), local, { credentials: s3.credentials });
    return {
      store,
      stagingDir: join(local, 'staging'),
      blobs: async () => keysUnder(prefix),
      leftovers: async () => [...(await localFiles(local)), ...(await keysUnder(prefix)).filter((k) => !k.startsWith('sha256/'))],
      dispose: async () => {
        store.close();
        await rm(local, { recursive: true, force: true });
      },
    };
  },
  { propertyRuns: 15 },
);

describe('s3 blob store', () => {
  let local: string;
  const stores: S3BlobStore[] = [];
  const proxies: { close(): Promise<void> }[] = [];
  const make = (endpoint: string, overrides: Partial<S3Settings> = {}, prefix = `t-${randomBytes(4).toString('hex')}/`) => {
    const store = createS3BlobStore(settings(endpoint, prefix, overrides), local, { credentials: s3.credentials });
    stores.push(store);
    return store;
  };
  beforeAll(async () => {
    local = await mkdtemp(join(tmpdir(), 'vigil-s3-faults-'));
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) store.close();
    for (const proxy of proxies.splice(0)) await proxy.close();
  });
  afterAll(async () => {
    await rm(local, { recursive: true, force: true });
  });

  it('keeps blobs under <prefix>sha256/<2 hex>/<62 hex> and uploads a large one in parts', async () => {
    const store = make(s3.endpoint, {}, 'deploy/a/');
    const bytes = randomBytes(2 * S3_PART_SIZE + 12_345);
    const result = await store.putStream(Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]), { maxBytes: bytes.length });
    expect(result).toEqual({ hash: sha(bytes), size: bytes.length, created: true });
    const hex = result.hash.slice(7);
    expect(store.keyOf(result.hash)).toBe(`deploy/a/sha256/${hex.slice(0, 2)}/${hex.slice(2)}`);
    expect(await keysUnder('deploy/a/')).toEqual([`sha256/${hex.slice(0, 2)}/${hex.slice(2)}`]);
    expect(await store.withLocalFile(result.hash, async (file) => sha(await (await import('node:fs/promises')).readFile(file.path)))).toBe(result.hash);
    expect(await store.check(result.hash)).toBe('verified');
    expect(await localFiles(local)).toEqual([]);
  });

  it('sweeps staging objects a killed upload left, once older than the orphan age', async () => {
    const store = make(s3.endpoint, {}, 'sweep/');
    await raw.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'sweep/staging/killed-upload', Body: Buffer.from('partial') }));
    const blob = await store.put(Buffer.from('a blob, not staging'));
    expect(await store.sweep(Date.now())).toBe(0);
    expect(await store.sweep(Date.now() + STAGING_ORPHAN_AGE_MS + 60_000)).toBe(1);
    expect(await keysUnder('sweep/')).toEqual([store.keyOf(blob).slice('sweep/'.length)]);
  });

  it('serves bytes that are not their name as an integrity error, never as the blob', async () => {
    const store = make(s3.endpoint);
    const bytes = Buffer.from('the real bytes');
    const hash = await store.put(bytes);
    // Something other than Vigil overwrote the object (or the disk under the store rotted).
    await raw.send(new PutObjectCommand({ Bucket: s3.bucket, Key: store.keyOf(hash), Body: Buffer.from('other bytes!!!') }));
    await expect(store.get(hash)).rejects.toBeInstanceOf(BlobIntegrityError);
    await expect(store.withLocalFile(hash, async () => 'served')).rejects.toBeInstanceOf(BlobIntegrityError);
    expect(await store.check(hash)).toBe('corrupt');
    expect(toVigilError(await store.get(hash).catch((e: unknown) => e))?.code).toBe('upstream_unavailable');
    expect(await localFiles(local)).toEqual([]);
  });

  it('is down: connection refused is BlobStoreUnavailableError, answered 502 upstream_unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const store = make(`http://127.0.0.1:${port}`, { maxAttempts: 2 });
    const hash = sha(Buffer.from('x'));
    const calls = [() => store.get(hash), () => store.has(hash), () => store.put(Buffer.from('x')), () => store.putStream(Readable.from([Buffer.from('x')]), { maxBytes: 10 })];
    for (const call of calls) {
      const error = await (call() as Promise<unknown>).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlobStoreUnavailableError);
      expect((error as Error).message).toMatch(/^object store: (GET|HEAD|PUT) /);
      const answer = toVigilError(error);
      expect({ code: answer?.code, status: answer?.status }).toEqual({ code: 'upstream_unavailable', status: 502 });
    }
    expect(await localFiles(local)).toEqual([]);
  });

  it('is slow: a store that accepts and never answers fails within the bounded attempts', async () => {
    const proxy: TcpProxy = await startTcpProxy({ host: '127.0.0.1', port: s3.port });
    proxies.push(proxy);
    const store = make(`http://${proxy.address}`, { timeoutMs: 300, maxAttempts: 2 });
    const hash = await store.put(Buffer.from('before the stall'));
    proxy.stall();
    const started = Date.now();
    const error = await store.get(hash).catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(error).toBeInstanceOf(BlobStoreUnavailableError);
    // Two attempts of 300 ms each plus the SDK's backoff between them: far below the default 10 s.
    expect(took).toBeLessThan(5_000);
    proxy.resume();
  });

  it('answers 500: retried up to the attempts, then BlobStoreUnavailableError naming the status', async () => {
    const proxy: HttpFaultProxy = await startHttpFaultProxy({ host: '127.0.0.1', port: s3.port });
    proxies.push(proxy);
    const store = make(proxy.endpoint, { maxAttempts: 3 });
    const hash = await store.put(Buffer.from('stored while healthy'));
    proxy.mode = 'error500';
    const before = proxy.requests.length;
    const error = await store.get(hash).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlobStoreUnavailableError);
    expect((error as Error).message).toMatch(/^object store: GET \S*sha256\/[0-9a-f]{2}\/[0-9a-f]{62}: HTTP 500 /);
    // The log line says what the store answered once: pino's error serializer appends the message of
    // a `cause` to the error's own, and this message already names it, so there is no cause.
    expect((error as Error).cause).toBeUndefined();
    expect(proxy.requests.length - before).toBe(3);
    // Healthy again: the same store serves it.
    proxy.mode = 'pass';
    expect(Buffer.from((await store.get(hash))!).toString()).toBe('stored while healthy');
  });

  it('truncates or corrupts a body: never served, retried, and an error once the attempts run out', async () => {
    const proxy: HttpFaultProxy = await startHttpFaultProxy({ host: '127.0.0.1', port: s3.port });
    proxies.push(proxy);
    const store = make(proxy.endpoint, { maxAttempts: 2 });
    const bytes = randomBytes(256 * 1024);
    const hash = await store.put(bytes);
    proxy.mode = 'truncate';
    const cut = await store.get(hash).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(BlobStoreUnavailableError);
    // Named as what it is, with how much arrived, not as the SDK's TimeoutError.
    expect((cut as Error).message).toMatch(/^object store: GET \S*sha256\/\S+: the (body broke off|body ended) after \d+ of 262144 bytes/);
    expect((cut as Error).message).not.toContain('TimeoutError');
    await expect(store.withLocalFile(hash, async () => 'served')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    proxy.mode = 'corrupt';
    await expect(store.get(hash)).rejects.toBeInstanceOf(BlobIntegrityError);
    expect(await localFiles(local)).toEqual([]);
    proxy.mode = 'pass';
    expect(Buffer.from((await store.get(hash))!)).toEqual(bytes);
  });

  it('stalls mid-body: the read is given up after the timeout of silence, not left hanging', async () => {
    const proxy: HttpFaultProxy = await startHttpFaultProxy({ host: '127.0.0.1', port: s3.port });
    proxies.push(proxy);
    const store = make(proxy.endpoint, { timeoutMs: 400, maxAttempts: 2 });
    const hash = await store.put(randomBytes(64 * 1024));
    proxy.mode = 'stallBody';
    const started = Date.now();
    const error = await store.get(hash).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlobStoreUnavailableError);
    expect((error as Error).message).toMatch(/^object store: GET \S*sha256\/\S+: no bytes for 400 ms$/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await localFiles(local)).toEqual([]);
  });
});
