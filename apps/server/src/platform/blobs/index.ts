export { BlobStoreError, BlobTooLargeError, createFileBlobStore } from './blob-store.js';
export type { BlobStore, PutStreamOptions, PutStreamResult } from './blob-store.js';
export { STAGING_ORPHAN_AGE_MS, sweepStagingFiles } from './sweep-staging.js';
