import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SHA256_HASH_RE } from '@vigil/core';

export class BlobStoreError extends Error {
  override name = 'BlobStoreError';
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
}

function hexOf(hash: string, argument: string): string {
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
  };
}
