import type { RouteEntry, RouteHost } from '../../platform/http/route-entry.js';
import type { SecretBox } from '../../platform/secrets/secret-box.js';
import type { Signal } from '../../platform/signal.js';
import type { ReferenceFetches } from '../artifacts/index.js';
import type { PolicyInputSources } from '../policies/index.js';
import { repositoryAdminRoutes } from './repository-admin-routes.js';
import { repositoryRoutes } from './repository-routes.js';

interface RepositoriesRouteHost extends RouteHost {
  readonly secrets: SecretBox;
  readonly policySources: PolicyInputSources;
  readonly referenceFetches: ReferenceFetches | undefined;
  /** Told when a push is queued, so this process's repository worker starts it at once. */
  readonly signals: { readonly repositoryPushQueued: Signal };
}

/** Repositories, their lockfile verification and the GitHub hook (customer scope); the admin API's repository reads. */
export const repositoriesRouteEntries: readonly RouteEntry<RepositoriesRouteHost>[] = [
  {
    scope: 'customer',
    register: async (app, host) => {
      await app.register(repositoryRoutes, {
        db: host.database.db,
        secrets: host.secrets,
        clock: host.clock,
        policySources: host.policySources,
        ...(host.referenceFetches ? { fetches: host.referenceFetches } : {}),
        onPushQueued: () => host.signals.repositoryPushQueued.notify(),
      });
    },
  },
  {
    scope: 'admin',
    register: async (app, { database }) => {
      await app.register(repositoryAdminRoutes, { db: database.db });
    },
  },
];
