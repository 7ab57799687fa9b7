import type { BlobStore } from '../../platform/blobs/index.js';
import type { RouteEntry, RouteHost } from '../../platform/http/route-entry.js';
import type { TransparencyLog } from '../log/index.js';
import { artifactRoutes } from './artifact-routes.js';
import type { ReferenceFetches } from './references/reference-fetches.js';

interface ArtifactsRouteHost extends RouteHost {
  readonly config: { readonly artifactLimitBytes: number };
  readonly blobs: BlobStore;
  readonly referenceFetches: ReferenceFetches | undefined;
  readonly transparencyLog: Pick<TransparencyLog, 'proofFor'>;
  /** The server identity's seed signs verification summaries (`GET /v1/artifacts/{id}/vsa`). */
  readonly identity: { readonly secretKey: Uint8Array };
}

/** Customer uploads and reads, reference verification (customer scope, docs/artifacts.md). */
export const artifactsRouteEntries: readonly RouteEntry<ArtifactsRouteHost>[] = [
  {
    scope: 'customer',
    register: async (app, host) => {
      await app.register(artifactRoutes, {
        db: host.database.db,
        blobs: host.blobs,
        clock: host.clock,
        artifactLimitBytes: host.config.artifactLimitBytes,
        ...(host.referenceFetches ? { fetches: host.referenceFetches } : {}),
        log: host.transparencyLog,
        serverKey: host.identity.secretKey,
      });
    },
  },
];
