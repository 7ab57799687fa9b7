import type { Redis } from 'ioredis';
import type { BlobStore } from '../../platform/blobs/index.js';
import type { RouteEntry, RouteHost } from '../../platform/http/route-entry.js';
import type { TransparencyLog } from '../log/index.js';
import { customerAttestationRoutes } from './attestations/customer-attestation-routes.js';
import type { SignedAuthSettings } from './auth/signed-auth-settings.js';
import type { CachedMetagraph } from './metagraph/cached-metagraph.js';
import { networkAdminRoutes } from './network-admin-routes.js';
import { createPublicReadService } from './public-reads/public-read-service.js';
import { publicRoutesPlugin } from './public-reads/public-routes.js';
import type { SchedulerSettings } from './rounds/scheduler/settings.js';
import { networkRoutesPlugin } from './signed-routes.js';

interface NetworkRouteHost extends RouteHost {
  readonly config: {
    readonly signedAuth: SignedAuthSettings;
    readonly scheduler: SchedulerSettings;
    readonly bundleLimitBytes: number;
  };
  readonly blobs: BlobStore;
  readonly metagraph: CachedMetagraph;
  /** Signed-request replays and failure counts are shared through it when set. */
  readonly redis: Redis | undefined;
  readonly transparencyLog: Pick<TransparencyLog, 'proofFor'>;
  readonly identity: { readonly publicKeyHex: string };
}

/**
 * The subnet's routes: the public /v1 reads, the customer's attestation reads and verification,
 * the admin API's validators, metagraph and rounds, and the signed miner and validator API.
 */
export const networkRouteEntries: readonly RouteEntry<NetworkRouteHost>[] = [
  {
    scope: 'public',
    register: async (app, host) => {
      await app.register(publicRoutesPlugin, {
        readService: createPublicReadService(host.database.db),
        clock: host.clock,
        serverPublicKeyHex: host.identity.publicKeyHex,
      });
    },
  },
  {
    scope: 'customer',
    register: async (app, host) => {
      await app.register(customerAttestationRoutes, {
        db: host.database.db,
        metagraph: host.metagraph,
        clock: host.clock,
        log: host.transparencyLog,
      });
    },
  },
  {
    scope: 'admin',
    register: async (app, host) => {
      await app.register(networkAdminRoutes, {
        db: host.database.db,
        clock: host.clock,
        metagraph: host.metagraph,
        scheduler: host.config.scheduler,
      });
    },
  },
  {
    scope: 'network',
    register: async (app, host) => {
      await app.register(networkRoutesPlugin, {
        db: host.database.db,
        blobs: host.blobs,
        metagraph: host.metagraph,
        signedAuth: host.config.signedAuth,
        bundleLimitBytes: host.config.bundleLimitBytes,
        redis: host.redis,
        clock: host.clock,
      });
    },
  },
];
