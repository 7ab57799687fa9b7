export { BlobIntegrityError, BlobStoreError, BlobStoreUnavailableError, BlobTooLargeError, createFileBlobStore } from './blob-store.js';
export type { BlobStore, PutStreamOptions, PutStreamResult } from './blob-store.js';
export { BLOB_STORE_VARIABLES, blobStoreSettingsFromEnv, type BlobStoreSettings, type S3Settings } from './blob-store-settings.js';
// The S3 store itself (s3-blob-store.ts) is imported on demand by createBlobStore and `blobs
// migrate`, never from here: it loads the AWS SDK.
export { createBlobStore } from './create-blob-store.js';
export { STAGING_ORPHAN_AGE_MS, sweepStagingFiles } from './sweep-staging.js';
