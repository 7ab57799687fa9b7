import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { join } from 'node:path';
import { Transform, Writable, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { BlobIntegrityError, BlobStoreUnavailableError, HashingLimit, hexOf, ignoreError, type BlobStore } from './blob-store.js';
import type { S3Settings } from './blob-store-settings.js';
import { STAGING_ORPHAN_AGE_MS, sweepStagingFiles } from './sweep-staging.js';

/**
 * Objects up to this size go up in one PutObject carrying their SHA-256 (the store checks it);
 * larger ones as a multipart upload of parts this size, which becomes visible only when complete.
 */
export const S3_PART_SIZE = 8 * 1024 * 1024;
/** Parts of one multipart upload in flight at once (memory: this many parts). */
const UPLOAD_QUEUE_SIZE = 4;

/** What `check` found under a hash: the object is there with exactly its bytes, absent, or other bytes. */
export type BlobCheck = 'verified' | 'absent' | 'corrupt';

export interface S3BlobStore extends BlobStore {
  readonly bucket: string;
  readonly prefix: string;
  /** The object key of a `sha256:<hex>`: `<prefix>sha256/<2 hex>/<62 hex>`. */
  keyOf(hash: string): string;
  /** Reads the whole object and hashes it (nothing kept): what `blobs migrate` trusts instead of a listing. */
  check(hash: string): Promise<BlobCheck>;
  /** Uploads a local file that must hash to `hash` (re-hashed while read; a mismatch uploads nothing). */
  putFile(path: string, hash: string): Promise<void>;
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey')) return true;
  return statusOf(error) === 404 && (error as { name?: string }).name !== 'NoSuchBucket';
}

/** A failure of the store itself, named for the operator: what was asked, of which key, and what came back. */
function unavailable(operation: string, key: string, error: unknown): BlobStoreUnavailableError {
  if (error instanceof BlobStoreUnavailableError) return error;
  const status = statusOf(error);
  const name = (error as { name?: string } | undefined)?.name ?? 'Error';
  const message = (error as { message?: string } | undefined)?.message ?? String(error);
  const what = status === undefined ? `${name}: ${message}` : `HTTP ${status} ${name}: ${message}`;
  // No `cause`: the text already names it, and the logger appends a cause's message to the error's
  // own ("… InternalError: injected: injected").
  return new BlobStoreUnavailableError(`object store: ${operation} ${key}: ${what}`);
}

/**
 * A body that broke off part-way, named as what it is rather than by the SDK's error class (a
 * connection cut mid-body surfaces as a `TimeoutError: socket hang up`).
 */
function bodyBrokeOff(key: string, received: number, expected: number | undefined, error: unknown): BlobStoreUnavailableError {
  if (error instanceof BlobStoreUnavailableError) return error;
  const message = (error as { message?: string } | undefined)?.message ?? String(error);
  return new BlobStoreUnavailableError(`object store: GET ${key}: the body broke off after ${received} of ${expected ?? 'an unknown number of'} bytes (${message})`);
}

/**
 * Destroys `stream` when no bytes arrive for `ms`: the SDK's socket timeout covers the request,
 * not a body that stalls after its headers.
 */
function idleLimit(ms: number, key: string): Transform {
  let timer: NodeJS.Timeout | undefined;
  const stream: Transform = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      arm();
      done(null, chunk);
    },
    flush(done) {
      clearTimeout(timer);
      done();
    },
    destroy(error, done) {
      clearTimeout(timer);
      done(error);
    },
  });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stream.destroy(new BlobStoreUnavailableError(`object store: GET ${key}: no bytes for ${ms} ms`)), ms);
  };
  arm();
  return stream;
}

/**
 * Content-addressed blobs in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Ceph) under
 * `<prefix>sha256/<2 hex>/<62 hex>`, the file store's layout. A streamed put is spooled to a local
 * file while it is hashed, uploaded to a staging key `<prefix>staging/<random>`, inspected, and only
 * then copied (server-side) under its name and the staging object deleted; `put` of known bytes
 * goes straight under its name. S3 shows an object only once its PutObject, multipart upload or
 * copy completes, so no key under `sha256/` ever names bytes other than its own.
 * Every read is hashed and a mismatch is an error, never served. Requests time out and are retried
 * (`maxAttempts`); a store that still fails throws BlobStoreUnavailableError, which the HTTP layer
 * answers 502 `upstream_unavailable`.
 */
export function createS3BlobStore(settings: S3Settings, localRoot: string, options: { credentials?: { accessKeyId: string; secretAccessKey: string } } = {}): S3BlobStore {
  const { bucket, prefix, timeoutMs, maxAttempts } = settings;
  // Uploads are spooled and reads land here; `sweep` clears what a killed process left.
  const spoolDir = join(localRoot, 'staging');
  const agentOptions = { keepAlive: true, maxSockets: 64 };
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    forcePathStyle: settings.forcePathStyle,
    maxAttempts,
    // Credentials come from the standard AWS chain (environment, shared files, instance roles)
    // unless a caller (a test) passes them.
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // Checksums we send ourselves (x-amz-checksum-sha256 on PutObject); the SDK's default CRC32
    // trailers are not understood by every S3-compatible service.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: new NodeHttpHandler({
      connectionTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      // Without it a silent store only logs a warning and the request waits on.
      throwOnRequestTimeout: true,
      httpAgent: new Agent(agentOptions),
      httpsAgent: new HttpsAgent(agentOptions),
    }),
  });
  const keyOf = (hash: string) => {
    const hex = hexOf(hash, 'hash');
    return `${prefix}sha256/${hex.slice(0, 2)}/${hex.slice(2)}`;
  };
  const spoolPath = () => join(spoolDir, `${randomBytes(12).toString('hex')}.tmp`);

  /** The stored size of `key`, or undefined when absent. */
  async function sizeOf(key: string): Promise<number | undefined> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return head.ContentLength;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw unavailable('HEAD', key, error);
    }
  }

  /**
   * Streams the object at `key` into `sink` (fresh per attempt) while hashing it, and checks the
   * hash: false when absent. A body that fails or stalls, or bytes that are not `hex`'s, are tried
   * again up to `maxAttempts` times (the SDK retries only up to the response headers).
   */
  async function readVerified(hex: string, key: string, sink: () => Writable): Promise<boolean> {
    let last: unknown;
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      let body: Readable;
      let expected: number | undefined;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        body = object.Body as Readable;
        expected = object.ContentLength;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw unavailable('GET', key, error);
      }
      const hash = createHash('sha256');
      let received = 0;
      const hasher = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          received += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(body, idleLimit(timeoutMs, key), hasher, sink());
        const got = hash.digest('hex');
        if (got === hex) return true;
        last =
          expected !== undefined && received !== expected
            ? new BlobIntegrityError(`object store: GET ${key}: the body ended after ${received} of ${expected} bytes`)
            : new BlobIntegrityError(`object store: GET ${key}: the bytes hash to sha256:${got}`);
      } catch (error) {
        last = bodyBrokeOff(key, received, expected, error);
      }
    }
    throw last;
  }

  async function upload(key: string, path: string, size: number, hex: string): Promise<void> {
    try {
      if (size <= S3_PART_SIZE) {
        // One request, its SHA-256 checked by the store before the object exists.
        const bytes = await readFile(path);
        await client.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentLength: size, ChecksumSHA256: Buffer.from(hex, 'hex').toString('base64') }),
        );
      } else {
        // Multipart: visible only at CompleteMultipartUpload; a failure aborts the upload.
        const upload = new Upload({
          client,
          params: { Bucket: bucket, Key: key, Body: createReadStream(path), ContentLength: size },
          partSize: S3_PART_SIZE,
          queueSize: UPLOAD_QUEUE_SIZE,
          leavePartsOnError: false,
        });
        await upload.done();
      }
    } catch (error) {
      throw unavailable('PUT', key, error);
    }
    // What the store now holds under the name has the size we sent (a proxy or store that lost
    // bytes of a multipart upload is caught here rather than at the first read).
    const stored = await sizeOf(key);
    if (stored !== size) throw new BlobIntegrityError(`object store: PUT ${key}: stored ${stored ?? 'nothing'} bytes of ${size}`);
  }

  /** Deletes a staging object; one that cannot be deleted now is left to `sweep`. */
  async function deleteQuietly(key: string): Promise<void> {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(ignoreError);
  }

  /** Hashes a local file (and counts it), rejecting past `maxBytes`. */
  async function spool(source: Readable, path: string, maxBytes: number): Promise<HashingLimit> {
    const limit = new HashingLimit(maxBytes);
    const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(source, limit, out);
      return limit;
    } catch (error) {
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      throw error;
    }
  }

  return {
    bucket,
    prefix,
    keyOf,
    async put(bytes) {
      const hex = createHash('sha256').update(bytes).digest('hex');
      const key = keyOf(`sha256:${hex}`);
      if ((await sizeOf(key)) === bytes.byteLength) return `sha256:${hex}`;
      try {
        await client.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentLength: bytes.byteLength, ChecksumSHA256: Buffer.from(hex, 'hex').toString('base64') }),
        );
      } catch (error) {
        throw unavailable('PUT', key, error);
      }
      return `sha256:${hex}`;
    },
    async putStream(source, options) {
      source.on('error', ignoreError);
      await mkdir(spoolDir, { recursive: true });
      const temp = spoolPath();
      let staged: string | undefined;
      try {
        const limit = await spool(source, temp, options.maxBytes);
        source.off('error', ignoreError);
        const hex = limit.hash.digest('hex');
        const hash = `sha256:${hex}`;
        const key = keyOf(hash);
        const present = (await sizeOf(key)) === limit.size;
        // The transfer, the slow part that fails most, happens before `inspect`, which may commit
        // what refers to the blob (an artifact row): after it only a copy inside the store is left.
        if (!present) {
          staged = `${prefix}staging/${randomBytes(12).toString('hex')}`;
          await upload(staged, temp, limit.size, hex);
        }
        if (options.inspect) await options.inspect({ path: temp, hash, size: limit.size });
        if (present || staged === undefined) return { hash, size: limit.size, created: false };
        try {
          await client.send(new CopyObjectCommand({ Bucket: bucket, Key: key, CopySource: `${bucket}/${encodeURIComponent(staged).replaceAll('%2F', '/')}` }));
        } catch (error) {
          throw unavailable('COPY', key, error);
        }
        return { hash, size: limit.size, created: true };
      } finally {
        await rm(temp, { force: true });
        if (staged !== undefined) await deleteQuietly(staged);
      }
    },
    async putFile(path, hash) {
      const hex = hexOf(hash, 'hash');
      const limit = new HashingLimit(Number.MAX_SAFE_INTEGER);
      await pipeline(createReadStream(path), limit, new Writable({ write: (_chunk, _encoding, done) => done() }));
      const got = limit.hash.digest('hex');
      if (got !== hex) throw new BlobIntegrityError(`${path}: the file hashes to sha256:${got}, not ${hash}`);
      await upload(keyOf(hash), path, limit.size, hex);
    },
    async get(hash) {
      const hex = hexOf(hash, 'hash');
      let chunks: Buffer[] = [];
      const found = await readVerified(hex, keyOf(hash), () => {
        chunks = [];
        return new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        });
      });
      return found ? new Uint8Array(Buffer.concat(chunks)) : undefined;
    },
    async has(hash) {
      return (await sizeOf(keyOf(hash))) !== undefined;
    },
    async check(hash) {
      const hex = hexOf(hash, 'hash');
      try {
        const found = await readVerified(hex, keyOf(hash), () => new Writable({ write: (_chunk, _encoding, done) => done() }));
        return found ? 'verified' : 'absent';
      } catch (error) {
        if (error instanceof BlobIntegrityError) return 'corrupt';
        throw error;
      }
    },
    async withLocalFile(hash, use) {
      const hex = hexOf(hash, 'hash');
      await mkdir(spoolDir, { recursive: true });
      const temp = spoolPath();
      try {
        const found = await readVerified(hex, keyOf(hash), () => createWriteStream(temp, { flags: 'w', mode: 0o600 }));
        if (!found) return undefined;
        const handle = await open(temp, 'r');
        let size: number;
        try {
          size = (await handle.stat()).size;
        } finally {
          await handle.close();
        }
        return await use({ path: temp, size });
      } finally {
        await rm(temp, { force: true });
      }
    },
    async sweep(now, olderThanMs = STAGING_ORPHAN_AGE_MS) {
      // Multipart uploads a killed process never completed are the bucket's to expire (a lifecycle
      // rule, docs/storage.md); staging objects and the local spool are ours. Objects written
      // within `olderThanMs` may be another instance's upload in progress and are kept.
      let removed = await sweepStagingFiles(localRoot, now, olderThanMs);
      let token: string | undefined;
      do {
        let page;
        try {
          page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}staging/`, ...(token ? { ContinuationToken: token } : {}) }));
        } catch (error) {
          throw unavailable('LIST', `${prefix}staging/`, error);
        }
        for (const object of page.Contents ?? []) {
          if (object.Key === undefined || object.LastModified === undefined || now - object.LastModified.getTime() < olderThanMs) continue;
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key })).catch((error: unknown) => Promise.reject(unavailable('DELETE', object.Key!, error)));
          removed += 1;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      return removed;
    },
    close() {
      client.destroy();
    },
  };
}
