import type { RouteEntry, RouteHost } from '../../platform/http/route-entry.js';
import type { ReferenceFetches } from '../artifacts/index.js';
import type { PolicyInputSources } from './input-sources.js';
import { policyAdminRoutes } from './policy-admin-routes.js';
import { policyRoutes } from './policy-routes.js';

interface PoliciesRouteHost extends RouteHost {
  readonly policySources: PolicyInputSources;
  readonly referenceFetches: ReferenceFetches | undefined;
}

/** An account's policies and their evaluation (customer scope); the admin API's policy reads. */
export const policiesRouteEntries: readonly RouteEntry<PoliciesRouteHost>[] = [
  {
    scope: 'customer',
    register: async (app, host) => {
      await app.register(policyRoutes, {
        db: host.database.db,
        clock: host.clock,
        sources: host.policySources,
        ...(host.referenceFetches ? { fetches: host.referenceFetches } : {}),
      });
    },
  },
  {
    scope: 'admin',
    register: async (app, { database }) => {
      await app.register(policyAdminRoutes, { db: database.db });
    },
  },
];
