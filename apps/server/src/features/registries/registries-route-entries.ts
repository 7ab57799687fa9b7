import type { RouteEntry, RouteHost } from '../../platform/http/route-entry.js';
import type { RegistryFetchSettings } from './fetch-settings.js';
import { registryAdminRoutes } from './registry-admin-routes.js';
import { watchRoutes } from './watch-routes.js';

interface RegistriesRouteHost extends RouteHost {
  readonly config: { readonly registries: Pick<RegistryFetchSettings, 'enabled' | 'watch'> };
}

/** An account's watches (customer scope, docs/watches.md); the admin API's fetch queue and watches. */
export const registriesRouteEntries: readonly RouteEntry<RegistriesRouteHost>[] = [
  {
    scope: 'customer',
    register: async (app, { database, clock, config }) => {
      await app.register(watchRoutes, {
        db: database.db,
        clock,
        enabled: config.registries.enabled,
        maxPerAccount: config.registries.watch.maxPerAccount,
      });
    },
  },
  {
    scope: 'admin',
    register: async (app, { database, clock }) => {
      await app.register(registryAdminRoutes, { db: database.db, clock });
    },
  },
];
