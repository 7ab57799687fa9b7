import type { RouteEntry } from '../../platform/http/route-entry.js';
import { firewallRoutes } from './firewall-routes.js';

/** The firewall's decision counts per account (customer scope, docs/firewall.md). */
export const firewallRouteEntries: readonly RouteEntry[] = [
  {
    scope: 'customer',
    register: async (app, { database, clock }) => {
      await app.register(firewallRoutes, { db: database.db, clock });
    },
  },
];
