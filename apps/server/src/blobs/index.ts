export { BlobStoreError, createFileBlobStore } from './blob-store.js';
export type { BlobStore } from './blob-store.js';
