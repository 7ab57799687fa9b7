import { BlockList, isIP } from 'node:net';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { apiKeyPlugin, idempotencyPlugin, routes as accountsRoutes } from './features/accounts/index.js';
import { routes as artifactsRoutes } from './features/artifacts/index.js';
import { routes as firewallRoutes } from './features/firewall/index.js';
import { routes as networkRoutes } from './features/network/index.js';
import { routes as policiesRoutes } from './features/policies/index.js';
import { routes as registriesRoutes } from './features/registries/index.js';
import { routes as repositoriesRoutes } from './features/repositories/index.js';
import { routes as sbomsRoutes } from './features/sboms/index.js';
import { routes as searchRoutes } from './features/search/index.js';
import { routes as webhooksRoutes } from './features/webhooks/index.js';
import { VigilError } from './platform/errors.js';
import { registerRoutes, type RouteEntry } from './platform/http/route-entry.js';
import './platform/http/route-config.js';
import { adminRoutes } from './admin-routes.js';
import type { Runtime } from './runtime.js';

/**
 * Every feature's customer routes, in registration order (the order the router and /openapi.json
 * keep): an account's keys, attestations, search, artifacts, policies, repositories, SBOMs,
 * webhooks, watches, firewall decisions.
 */
const CUSTOMER_ROUTES: readonly (readonly RouteEntry<Runtime>[])[] = [
  accountsRoutes,
  networkRoutes,
  searchRoutes,
  artifactsRoutes,
  policiesRoutes,
  repositoriesRoutes,
  sbomsRoutes,
  webhooksRoutes,
  registriesRoutes,
  firewallRoutes,
];

/** `::ffff:10.0.0.1` (an IPv4 client of a dual-stack listener) is 10.0.0.1 for the allowlist. */
function plainAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped?.[1] ?? ip;
}

export function createAllowlist(entries: readonly string[]): (ip: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (ip) => {
    const address = plainAddress(ip);
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * The customer API (docs/accounts.md): API-key authentication, idempotency, each feature's customer
 * routes and, when VIGIL_ADMIN_ALLOWLIST is set, the admin API. Encapsulated: its hooks run on these
 * routes only.
 */
export const customerRoutesPlugin: FastifyPluginAsync<{ runtime: Runtime }> = async (app, { runtime }) => {
  const { config, clock, secrets } = runtime;
  const db = runtime.database.db;
  const adminAllowed = createAllowlist(config.adminAllowlist);
  // Before the key check (registered first): an address outside the allowlist learns nothing about keys.
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.config.admin === true && !adminAllowed(request.ip)) throw new VigilError('admin_ip_not_allowed');
  });
  await app.register(apiKeyPlugin, { db, now: clock });
  // After the key check (the key's account scopes Idempotency-Key); every route with
  // `config.idempotent` registered in this context, now or by a later plugin, honours the header.
  await app.register(idempotencyPlugin, { db, now: clock, handlerTimeoutMs: config.handlerTimeoutMs, secrets });
  await registerRoutes(app, runtime, 'customer', CUSTOMER_ROUTES);
  if (config.adminAllowlist.length > 0) await app.register(adminRoutes, { runtime });
};
