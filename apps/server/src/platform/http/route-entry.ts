import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Where a feature's routes are served, each scope an encapsulation context of its own:
 * - `public`: the root, no key (the public reads, readiness, the log, the dashboard);
 * - `customer`: behind the API-key check and idempotency (customer-routes.ts);
 * - `admin`: the admin API, inside the customer scope, served only when VIGIL_ADMIN_ALLOWLIST is set
 *   (admin-routes.ts);
 * - `network`: the signed miner and validator API (spec part 4); its entry makes the signed-request
 *   scope itself, since the check is the network feature's own.
 */
export type RouteScope = 'public' | 'customer' | 'admin' | 'network';

/**
 * What every feature's routes may read of the process's runtime. A feature's route entry names the
 * rest it needs (its settings, the blob store, the secret box) in its own `Host`; the runtime has them all.
 */
export interface RouteHost {
  readonly database: { readonly db: Kysely<Database> };
  /** The one clock, epoch ms. */
  readonly clock: () => number;
}

/**
 * A feature's routes in one scope: `register` registers them on that scope's context with what they
 * read of the runtime (an entry a setting turns off registers nothing). Features export a list of
 * these as `routes`; app.ts, customer-routes.ts and admin-routes.ts join the lists.
 */
export interface RouteEntry<Host extends RouteHost = RouteHost> {
  readonly scope: RouteScope;
  // A property, not a method: the host type is then checked contravariantly, as WorkerEntry's is.
  readonly register: (app: FastifyInstance, host: Host) => Promise<void>;
}

/**
 * Registers, in list order, the entries of `lists` that belong to `scope`: the router and
 * /openapi.json keep the order routes were registered in.
 */
export async function registerRoutes<Host extends RouteHost>(
  app: FastifyInstance,
  host: Host,
  scope: RouteScope,
  lists: readonly (readonly RouteEntry<Host>[])[],
): Promise<void> {
  for (const entry of lists.flat()) if (entry.scope === scope) await entry.register(app, host);
}
