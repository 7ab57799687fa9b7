import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import {
  createDatabaseReplayStore,
  createMemorySignatureFailureStore,
  createRedisReplayStore,
  createRedisSignatureFailureStore,
  signedAuthPlugin,
  type SignedAuthSettings,
} from '../../auth/index.js';
import type { BlobStore } from '../../blobs/index.js';
import type { Database } from '../../db/schema.js';
import type { CachedMetagraph } from '../../metagraph/index.js';
import { findValidator } from '../../services/validators.js';
import { minerRoutesPlugin } from './miners.js';
import { validatorRoutesPlugin } from './validators.js';

/** What the signed miner and validator routes work with. */
export interface NetworkRouteOptions {
  db: Kysely<Database>;
  blobs: BlobStore;
  now: () => Date;
  /** VIGIL_BUNDLE_LIMIT_BYTES: the largest agent bundle a miner may upload. */
  bundleLimitBytes: number;
  /** Permit checks, and the snapshot attestation permits are verified against. */
  metagraph: Pick<CachedMetagraph, 'check' | 'current'>;
}

export interface NetworkOptions extends Omit<NetworkRouteOptions, 'now'> {
  signedAuth: SignedAuthSettings;
  redis?: Redis | undefined;
}

/**
 * The non-public, signed endpoints of spec part 4 (miners and validators), in one encapsulated
 * scope: the signed-request check and its raw-body JSON parser apply here and nowhere else.
 */
export const networkRoutesPlugin: FastifyPluginAsync<NetworkOptions & { now: () => Date }> = async (app, options) => {
  const { signedAuth, redis, ...routeOptions } = options;
  // Bodies here are JSON only: the signature covers the raw bytes, which only the signed-auth JSON
  // parser keeps. Any other content type is 415 rather than a body the signature did not cover.
  app.removeAllContentTypeParsers();
  await app.register(signedAuthPlugin, {
    metagraph: routeOptions.metagraph,
    findValidator: (hotkey: string) => findValidator(routeOptions.db, hotkey),
    replayStore: redis ? createRedisReplayStore(redis) : createDatabaseReplayStore(routeOptions.db),
    failureStore: redis ? createRedisSignatureFailureStore(redis) : createMemorySignatureFailureStore(),
    freshnessSeconds: signedAuth.freshnessSeconds,
    failureLimitPerMinute: signedAuth.failureLimitPerMinute,
    now: () => routeOptions.now().getTime(),
  });
  // Route plugins of the network, each in its own file (routes/miners.ts, routes/validators.ts):
  await app.register(minerRoutesPlugin, routeOptions);
  await app.register(validatorRoutesPlugin, routeOptions);
};
