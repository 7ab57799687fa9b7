import type { RouteEntry, RouteHost } from '../../platform/http/route-entry.js';
import type { ReferenceFetches } from '../artifacts/index.js';
import type { PolicyInputSources } from '../policies/index.js';
import { sbomRoutes } from './sbom-routes.js';

interface SbomsRouteHost extends RouteHost {
  readonly policySources: PolicyInputSources;
  readonly referenceFetches: ReferenceFetches | undefined;
}

/** SBOM verification (customer scope, docs/sbom.md). */
export const sbomsRouteEntries: readonly RouteEntry<SbomsRouteHost>[] = [
  {
    scope: 'customer',
    register: async (app, host) => {
      await app.register(sbomRoutes, {
        db: host.database.db,
        clock: host.clock,
        policySources: host.policySources,
        ...(host.referenceFetches ? { fetches: host.referenceFetches } : {}),
      });
    },
  },
];
