import type { RouteEntry } from '../../platform/http/route-entry.js';
import { searchRoutes } from './search-routes.js';

/** `/v1/search` (customer scope, docs/search.md). */
export const searchRouteEntries: readonly RouteEntry[] = [
  {
    scope: 'customer',
    register: async (app, { database }) => {
      await app.register(searchRoutes, { db: database.db });
    },
  },
];
