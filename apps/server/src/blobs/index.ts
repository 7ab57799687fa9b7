export { BlobStoreError, BlobTooLargeError, createFileBlobStore } from './blob-store.js';
export type { BlobStore, PutStreamOptions, PutStreamResult } from './blob-store.js';
