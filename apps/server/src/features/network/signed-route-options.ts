import type { Kysely } from 'kysely';
import type { ValidatorRegistrationMode } from './auth/signed-auth-settings.js';
import type { BlobStore } from '../../platform/blobs/index.js';
import type { Database } from '../../platform/db/schema.js';
import type { CachedMetagraph } from './metagraph/index.js';

/**
 * What the signed miner and validator routes work with. Its own module so that network.ts (which
 * registers the route plugins) and the route plugins (which take these options) do not import
 * each other.
 */
export interface NetworkRouteOptions {
  db: Kysely<Database>;
  blobs: BlobStore;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
  /** VIGIL_BUNDLE_LIMIT_BYTES: the largest agent bundle a miner may upload. */
  bundleLimitBytes: number;
  /** Permit checks, and the snapshot attestation permits are verified against. */
  metagraph: Pick<CachedMetagraph, 'check' | 'current'>;
  /** VIGIL_VALIDATOR_REGISTRATION: whether a first registration needs an operator's approval. */
  validatorRegistration?: ValidatorRegistrationMode;
}
