import type { RouteEntry } from '../../platform/http/route-entry.js';
import { accountAdminRoutes } from './account-admin-routes.js';
import { keyRoutes } from './key-routes.js';

/** An account's own keys (customer scope); the admin API's accounts, keys and audit log. */
export const accountsRouteEntries: readonly RouteEntry[] = [
  {
    scope: 'customer',
    register: async (app, { database, clock }) => {
      await app.register(keyRoutes, { db: database.db, clock });
    },
  },
  {
    scope: 'admin',
    register: async (app, { database, clock }) => {
      await app.register(accountAdminRoutes, { db: database.db, clock });
    },
  },
];
