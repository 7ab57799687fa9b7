// @vigil/client: the Vigil SDK (docs/client.md).
export { Vigil } from './vigil.js';
export type { VigilOptions, CallOptions, PageOptions, Repeatable } from './transport.js';
export { Page, PagePromise } from './pagination.js';
export type { Dated } from './dates.js';
export type { ArtifactUpload, UploadBody } from './resources/artifacts.js';
export type { AttestationListParams, OfflineVerifier, SnapshotSource } from './resources/attestations.js';
export type { SearchParams, SearchResultItem } from './resources/search.js';
export type { SbomVerificationDocument, SbomVerifyOptions } from './resources/sboms.js';
export { EventPage } from './resources/events.js';
export { Log } from './resources/log.js';
export type { EventListParams, FeedEvent } from './resources/events.js';
export type { RegistryFetchListParams } from './resources/admin.js';
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
export { verifyAttestation, createAttestationVerifier, verifyAttestationDsse } from '@vigil/crypto';
export type { AttestationVerification, AttestationChecks, AttestationVerifier, AttestationDsseVerification } from '@vigil/crypto';
// The signed client of miners and validators: Vigil's public reads plus `miners.*` and `validators.*`.
export { SignedVigilClient } from './signed-client.js';
export { Miners } from './resources/miners.js';
export { Validators } from './resources/validators.js';
export type { SignedVigilClientOptions, SignedRequestOptions } from './signed-client.js';
export { keypairFromSeed, parseKeypairFile } from './keypair.js';
export type { VigilKeypair } from './keypair.js';
export { KeypairError } from './keypair-error.js';
