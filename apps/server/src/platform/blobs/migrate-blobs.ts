import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BlobIntegrityError } from './blob-store.js';
import type { S3BlobStore } from './s3-blob-store.js';

const DIR_RE = /^[0-9a-f]{2}$/;
const NAME_RE = /^[0-9a-f]{62}$/;

export interface MigrateBlobsProgress {
  done: number;
  total: number;
  copied: number;
  present: number;
  failed: number;
}

export interface MigrateBlobsResult extends MigrateBlobsProgress {
  /** Blobs that could not be copied, each with why (a local file whose bytes are not its name's, say). */
  failures: { hash: string; reason: string }[];
}

/** The blobs of a file store: `<root>/sha256/<2 hex>/<62 hex>`, in name order (staging files are not blobs). */
export async function listFileBlobs(root: string): Promise<{ hash: string; path: string }[]> {
  const base = join(root, 'sha256');
  const dirs = (await readdir(base).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)))).filter((d) => DIR_RE.test(d)).sort();
  const blobs: { hash: string; path: string }[] = [];
  for (const dir of dirs) {
    for (const name of (await readdir(join(base, dir))).filter((n) => NAME_RE.test(n)).sort()) {
      blobs.push({ hash: `sha256:${dir}${name}`, path: join(base, dir, name) });
    }
  }
  return blobs;
}

/**
 * Copies every blob of the file store at `root` into `target` (`vigil-server blobs migrate`). A blob
 * the target already holds with exactly its bytes (read back and hashed) is skipped, so a run that
 * stopped part-way is resumed by running it again; a copied blob is read back and hashed before it
 * counts. A blob that cannot be copied (its local bytes are not its name's, the store kept other
 * bytes) is reported and the run goes on; a store that is down (BlobStoreUnavailableError) stops it.
 */
export async function migrateBlobs(
  root: string,
  target: S3BlobStore,
  onProgress: (progress: MigrateBlobsProgress) => void = () => {},
): Promise<MigrateBlobsResult> {
  const blobs = await listFileBlobs(root);
  const result: MigrateBlobsResult = { done: 0, total: blobs.length, copied: 0, present: 0, failed: 0, failures: [] };
  const snapshot = () => ({ done: result.done, total: result.total, copied: result.copied, present: result.present, failed: result.failed });
  onProgress(snapshot());
  for (const blob of blobs) {
    try {
      if ((await target.check(blob.hash)) === 'verified') {
        result.present += 1;
      } else {
        // Absent, or other bytes under the name (a store that lost some): the local copy replaces it.
        await target.putFile(blob.path, blob.hash);
        const after = await target.check(blob.hash);
        if (after !== 'verified') throw new BlobIntegrityError(`read back after the copy: ${after === 'absent' ? 'not there' : 'other bytes'}`);
        result.copied += 1;
      }
    } catch (error) {
      if (!(error instanceof BlobIntegrityError)) throw error;
      result.failed += 1;
      result.failures.push({ hash: blob.hash, reason: error.message });
    }
    result.done += 1;
    onProgress(snapshot());
  }
  return result;
}
