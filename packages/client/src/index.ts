export { VigilClient } from './client.js';
export type { VigilClientOptions, RequestOptions } from './client.js';
export { SignedVigilClient } from './signed-client.js';
export type { SignedVigilClientOptions, SignedRequestOptions } from './signed-client.js';
export { keypairFromSeed, parseKeypairFile } from './keypair.js';
export type { VigilKeypair } from './keypair.js';
export { KeypairError } from './keypair-error.js';
export { VigilApiError, VigilResponseError } from './errors.js';
