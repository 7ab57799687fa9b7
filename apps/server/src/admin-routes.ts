import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountAdminRoutes, type KeyRoutesOptions } from './features/accounts/index.js';
import { networkAdminRoutes, type NetworkAdminRoutesOptions } from './features/network/index.js';
import { policyAdminRoutes } from './features/policies/index.js';
import { registryAdminRoutes } from './features/registries/index.js';
import { repositoryAdminRoutes } from './features/repositories/index.js';
import { webhookAdminRoutes } from './features/webhooks/index.js';

export interface AdminRoutesOptions extends KeyRoutesOptions {
  metagraph: NetworkAdminRoutesOptions['metagraph'];
  scheduler: NetworkAdminRoutesOptions['scheduler'];
}

/**
 * `/v1/admin/*` (docs/accounts.md, "Admin API"): each feature's admin routes. Served only when
 * VIGIL_ADMIN_ALLOWLIST is set; every request must come from an allowlisted address (checked first)
 * with a key holding the `admin` scope. Every change is written to the audit log in the transaction
 * that makes it.
 */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, { db, now, metagraph, scheduler }) => {
  await app.register(accountAdminRoutes, { db, now });
  await app.register(networkAdminRoutes, { db, now, metagraph, scheduler });
  await app.register(repositoryAdminRoutes, { db });
  await app.register(policyAdminRoutes, { db });
  await app.register(webhookAdminRoutes, { db });
  await app.register(registryAdminRoutes, { db, now });
};
