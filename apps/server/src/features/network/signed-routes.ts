import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import {
  createDatabaseReplayStore,
  createMemorySignatureFailureStore,
  createRedisReplayStore,
  createRedisSignatureFailureStore,
  signedAuthPlugin,
  type SignedAuthSettings,
} from './auth/index.js';
import { findValidator } from './validators/validators.js';
import { minerRoutesPlugin } from './miners/miner-routes.js';
import type { NetworkRouteOptions } from './signed-route-options.js';
import { validatorRoutesPlugin } from './validators/validator-routes.js';

export type { NetworkRouteOptions };

export interface NetworkOptions extends NetworkRouteOptions {
  signedAuth: SignedAuthSettings;
  redis?: Redis | undefined;
}

/**
 * The non-public, signed endpoints of spec part 4 (miners and validators), in one encapsulated
 * scope: the signed-request check and its raw-body JSON parser apply here and nowhere else.
 */
export const networkRoutesPlugin: FastifyPluginAsync<NetworkOptions> = async (app, options) => {
  const { signedAuth, redis, ...routeOptions } = options;
  // Bodies here are JSON only: the signature covers the raw bytes, which only the signed-auth JSON
  // parser keeps. Any other content type is 415 rather than a body the signature did not cover.
  app.removeAllContentTypeParsers();
  await app.register(signedAuthPlugin, {
    audience: app.serverIdentity.publicKeyHex,
    metagraph: routeOptions.metagraph,
    findValidator: (hotkey: string) => findValidator(routeOptions.db, hotkey),
    replayStore: redis ? createRedisReplayStore(redis) : createDatabaseReplayStore(routeOptions.db),
    failureStore: redis ? createRedisSignatureFailureStore(redis) : createMemorySignatureFailureStore(),
    freshnessSeconds: signedAuth.freshnessSeconds,
    failureLimitPerMinute: signedAuth.failureLimitPerMinute,
    now: routeOptions.clock,
  });
  // Route plugins of the network, each in its own file (routes/miners.ts, routes/validators.ts):
  await app.register(minerRoutesPlugin, routeOptions);
  await app.register(validatorRoutesPlugin, { ...routeOptions, validatorRegistration: signedAuth.validatorRegistration });
};
