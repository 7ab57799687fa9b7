import type { FastifyPluginAsync } from 'fastify';
import { routes as accountsRoutes } from './features/accounts/index.js';
import { routes as networkRoutes } from './features/network/index.js';
import { routes as policiesRoutes } from './features/policies/index.js';
import { routes as registriesRoutes } from './features/registries/index.js';
import { routes as repositoriesRoutes } from './features/repositories/index.js';
import { routes as webhooksRoutes } from './features/webhooks/index.js';
import { registerRoutes, type RouteEntry } from './platform/http/route-entry.js';
import type { Runtime } from './runtime.js';

/**
 * Every feature's admin routes, in registration order (the order the router and /openapi.json
 * keep): accounts, keys and the audit log; validators, the metagraph and rounds; repositories;
 * policies; webhook deliveries; registry fetches and watches.
 */
const ADMIN_ROUTES: readonly (readonly RouteEntry<Runtime>[])[] = [accountsRoutes, networkRoutes, repositoriesRoutes, policiesRoutes, webhooksRoutes, registriesRoutes];

/**
 * `/v1/admin/*` (docs/accounts.md, "Admin API"): each feature's admin routes. Served only when
 * VIGIL_ADMIN_ALLOWLIST is set; every request must come from an allowlisted address (checked first)
 * with a key holding the `admin` scope. Every change is written to the audit log in the transaction
 * that makes it.
 */
export const adminRoutes: FastifyPluginAsync<{ runtime: Runtime }> = async (app, { runtime }) => {
  await registerRoutes(app, runtime, 'admin', ADMIN_ROUTES);
};
