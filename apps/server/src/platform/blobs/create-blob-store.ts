import { createFileBlobStore, type BlobStore } from './blob-store.js';
import type { BlobStoreSettings } from './blob-store-settings.js';

/**
 * The one blob store of a process, from its settings (VIGIL_BLOB_STORE): built once in the
 * composition root (runtime.ts) and handed to everything that reads or writes blobs. The
 * AWS SDK is loaded only when the store is S3, so commands on the file store start as fast as before.
 */
export async function createBlobStore(settings: BlobStoreSettings): Promise<BlobStore> {
  if (settings.kind === 'file') return createFileBlobStore(settings.root);
  const { createS3BlobStore } = await import('./s3-blob-store.js');
  return createS3BlobStore(settings.s3, settings.localRoot);
}
