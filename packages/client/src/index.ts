// @vigil/client: the Vigil SDK (docs/client.md).
export { Vigil } from './vigil.js';
export type { VigilOptions, CallOptions, PageOptions } from './transport.js';
export { Page, PagePromise } from './pagination.js';
export type { Dated } from './dates.js';
export type { ArtifactUpload, UploadBody } from './resources/artifacts.js';
export type { AttestationListParams, OfflineVerifier, SnapshotSource } from './resources/attestations.js';
export type { SearchParams, SearchResultItem } from './resources/search.js';
export { EventPage } from './resources/events.js';
export type { EventListParams, FeedEvent } from './resources/events.js';
export {
  VigilError,
  VigilApiError,
  VigilAuthenticationError,
  VigilPermissionError,
  VigilNotFoundError,
  VigilValidationError,
  VigilConflictError,
  VigilRateLimitError,
  VigilServerError,
  VigilTimeoutError,
  VigilConnectionError,
  VigilResponseError,
} from './errors.js';
// Offline attestation verification needs no server (docs/attestations.md).
export { verifyAttestation, createAttestationVerifier } from '@vigil/crypto';
export type { AttestationVerification, AttestationChecks, AttestationVerifier } from '@vigil/crypto';
// The public-read client of earlier versions (raw timestamp strings) and the signed client.
export { VigilClient } from './client.js';
export type { VigilClientOptions, RequestOptions } from './client.js';
export { SignedVigilClient } from './signed-client.js';
export type { SignedVigilClientOptions, SignedRequestOptions } from './signed-client.js';
export { keypairFromSeed, parseKeypairFile } from './keypair.js';
export type { VigilKeypair } from './keypair.js';
export { KeypairError } from './keypair-error.js';
