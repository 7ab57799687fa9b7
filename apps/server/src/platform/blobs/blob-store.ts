import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SHA256_HASH_RE } from '@vigil/core';
import { sweepStagingFiles } from './sweep-staging.js';

export class BlobStoreError extends Error {
  override name = 'BlobStoreError';
}

/**
 * The store did not answer, failed, or answered wrongly (after its bounded retries): the HTTP layer
 * answers 502 `upstream_unavailable`, retryable, never 500.
 */
export class BlobStoreUnavailableError extends BlobStoreError {
  override name = 'BlobStoreUnavailableError';
}

/** Bytes read back do not hash to their name (a truncated or corrupted object): never served. */
export class BlobIntegrityError extends BlobStoreUnavailableError {
  override name = 'BlobIntegrityError';
}

/** The source of a streaming put sent more than `maxBytes`; nothing was stored. */
export class BlobTooLargeError extends BlobStoreError {
  override name = 'BlobTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`source: more than ${maxBytes} bytes`);
  }
}

export interface PutStreamOptions {
  /** The most bytes accepted; one more and the put fails with BlobTooLargeError, storing nothing. */
  maxBytes: number;
  /**
   * Looks at the complete bytes before they are stored under their name (a file on local disk,
   * `path`); throwing refuses the put and nothing is stored.
   */
  inspect?: (staged: { path: string; hash: string; size: number }) => Promise<void>;
}

export interface PutStreamResult {
  hash: string;
  size: number;
  /** False when a blob with these bytes was already stored. */
  created: boolean;
}

/**
 * Content-addressed storage for artifact files and agent bundles: a blob's name is the
 * `sha256:<hex>` of its bytes, so identical content is stored once and a name can never point at
 * other bytes. The embedded default keeps files under `<VIGIL_DATA_DIR>/blobs`; at scale an
 * S3-compatible store implements the same interface.
 */
export interface BlobStore {
  /** Stores the bytes (idempotent) and returns their `sha256:<hex>`. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes of `hash`, or undefined when absent. */
  get(hash: string): Promise<Uint8Array | undefined>;
  has(hash: string): Promise<boolean>;
  /**
   * Streams `source` into the store without holding it in memory: hashed (SHA-256) while written to
   * a temporary file, then renamed into place under its hash. A source that fails, is aborted or
   * exceeds `maxBytes`, or an `inspect` that throws, leaves no blob.
   */
  putStream(source: Readable, options: PutStreamOptions): Promise<PutStreamResult>;
  /** Runs `use` with the blob as a local file (read-only), or answers undefined when absent. */
  withLocalFile<T>(hash: string, use: (file: { path: string; size: number }) => Promise<T>): Promise<T | undefined>;
  /**
   * Removes what puts that never finished left behind (a process killed mid-upload) and is older
   * than `olderThanMs`; returns how many. `serve` calls it at start.
   */
  sweep(now: number, olderThanMs?: number): Promise<number>;
  /** Releases connections (the S3 client's sockets); the store is not used afterwards. */
  close(): void;
}

export function ignoreError(): void {}

/** Hashes and counts what passes, failing once more than `maxBytes` went through. */
export class HashingLimit extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.byteLength;
    if (this.size > this.maxBytes) return done(new BlobTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    done(null, chunk);
  }
}

export function hexOf(hash: string, argument: string): string {
  if (typeof hash !== 'string' || !SHA256_HASH_RE.test(hash)) {
    throw new BlobStoreError(`${argument}: expected sha256:<64 lowercase hex>`);
  }
  return hash.slice('sha256:'.length);
}

/** Files under `root/sha256/<2 hex>/<62 hex>`, written to a temp file, fsynced, then renamed into place. */
export function createFileBlobStore(root: string): BlobStore {
  const pathOf = (hex: string) => join(root, 'sha256', hex.slice(0, 2), hex.slice(2));
  return {
    async put(bytes) {
      const hex = createHash('sha256').update(bytes).digest('hex');
      const target = pathOf(hex);
      const existing = await stat(target).catch(() => undefined);
      if (existing?.size === bytes.byteLength) return `sha256:${hex}`;
      await mkdir(join(root, 'sha256', hex.slice(0, 2)), { recursive: true });
      // A crash leaves at most a stray temp file, never a half-written blob under its name.
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      return `sha256:${hex}`;
    },
    async putStream(source, options) {
      // A source that fails while the staging directory is made is reported by the pipeline below
      // (it sees the stored error), not as an unhandled 'error' event.
      source.on('error', ignoreError);
      const staging = join(root, 'staging');
      await mkdir(staging, { recursive: true });
      const temp = join(staging, `${randomBytes(12).toString('hex')}.tmp`);
      const limit = new HashingLimit(options.maxBytes);
      const out = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
      try {
        await pipeline(source, limit, out);
        source.off('error', ignoreError);
        // Durable before it gets its name, like put().
        const handle = await open(temp, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        const hex = limit.hash.digest('hex');
        const hash = `sha256:${hex}`;
        if (options.inspect) await options.inspect({ path: temp, hash, size: limit.size });
        const target = pathOf(hex);
        const existing = await stat(target).catch(() => undefined);
        if (existing?.size === limit.size) {
          await rm(temp, { force: true });
          return { hash, size: limit.size, created: false };
        }
        await mkdir(join(root, 'sha256', hex.slice(0, 2)), { recursive: true });
        await rename(temp, target);
        return { hash, size: limit.size, created: true };
      } catch (error) {
        // A source that fails at once can beat the file's open: removed before the open creates
        // it, the staging file would stay. The destroyed stream closes once its open has settled.
        if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
        await rm(temp, { force: true });
        throw error;
      }
    },
    async withLocalFile(hash, use) {
      const path = pathOf(hexOf(hash, 'hash'));
      const found = await stat(path).catch(() => undefined);
      if (found === undefined) return undefined;
      return use({ path, size: found.size });
    },
    async get(hash) {
      const hex = hexOf(hash, 'hash');
      try {
        return new Uint8Array(await readFile(pathOf(hex)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async has(hash) {
      const hex = hexOf(hash, 'hash');
      return (await stat(pathOf(hex)).catch(() => undefined)) !== undefined;
    },
    sweep(now, olderThanMs) {
      return sweepStagingFiles(root, now, olderThanMs);
    },
    close() {},
  };
}
