import { BlockList, isIP } from 'node:net';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { apiKeyPlugin } from './features/accounts/index.js';
import type { BlobStore } from './platform/blobs/index.js';
import type { Database } from './platform/db/schema.js';
import { VigilError } from './platform/errors.js';
import type { CachedMetagraph } from './features/network/index.js';
import type { SchedulerSettings } from './features/network/index.js';
import type { SecretBox } from './platform/secrets/secret-box.js';
import { idempotencyPlugin } from './features/accounts/index.js';
import './platform/http/route-config.js';
import { adminRoutes } from './admin-routes.js';
import { customerAttestationRoutes } from './features/network/index.js';
import { searchRoutes } from './features/search/index.js';
import { artifactRoutes } from './features/artifacts/index.js';
import { keyRoutes } from './features/accounts/index.js';
import { repositoryRoutes } from './features/repositories/index.js';
import { sbomRoutes } from './features/sboms/index.js';
import { policyRoutes } from './features/policies/index.js';
import { webhookRoutes } from './features/webhooks/index.js';
import { watchRoutes } from './features/registries/index.js';
import { firewallRoutes } from './features/firewall/index.js';
import type { WebhookSettings } from './features/webhooks/index.js';
import type { HostResolver } from './features/webhooks/index.js';
import type { PolicyInputSources } from './features/policies/index.js';
import type { ReferenceFetches } from './features/artifacts/index.js';
import type { TransparencyLog } from './features/log/index.js';

export interface CustomerOptions {
  db: Kysely<Database>;
  /**
   * The metagraph permit checks use: `POST /v1/attestations/verify` checks against it and the admin
   * API uploads snapshots into it (file sources only).
   */
  metagraph: CachedMetagraph;
  /** Where uploaded artifacts go (docs/artifacts.md). */
  blobs: BlobStore;
  /** Told when a repository push is queued, so the process's repository worker starts it at once. */
  onRepositoryPushQueued: () => void;
  /** What policy evaluation reads beyond verdicts (advisories, artifact facts) (docs/policies.md). */
  policySources: PolicyInputSources;
  /** How webhook endpoint host names resolve for the URL check (tests hand in their own). */
  webhookResolver?: HostResolver;
  /** On-demand registry fetching of unseen npm and PyPI references (features/registries); absent, nothing is fetched. */
  referenceFetches?: ReferenceFetches;
}

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
 * The customer API (docs/accounts.md): API-key authentication, an account's own keys and, when
 * VIGIL_ADMIN_ALLOWLIST is set, the admin API. Encapsulated: its hooks run on these routes only.
 */
export const customerRoutesPlugin: FastifyPluginAsync<
  CustomerOptions & {
    now: () => Date;
    adminAllowlist: readonly string[];
    scheduler: SchedulerSettings;
    handlerTimeoutMs: number;
    artifactLimitBytes: number;
    /** Seals webhook secrets (and the stored answers that show them) with the server key. */
    secrets: SecretBox;
    webhooks: WebhookSettings;
    /** The transparency log `?proof=true` reads proofs from. */
    log: TransparencyLog;
    /** The server identity's seed, for the verification summaries it signs (GET /v1/artifacts/{id}/vsa). */
    serverKey: Uint8Array;
    /** Following releases (docs/watches.md): whether registry fetching is on, and the per-account limit. */
    watches: { enabled: boolean; maxPerAccount: number };
  }
> = async (app, { db, blobs, policySources, now, adminAllowlist, metagraph, scheduler, handlerTimeoutMs, artifactLimitBytes, secrets, onRepositoryPushQueued, webhooks, webhookResolver, referenceFetches, log, serverKey, watches }) => {
  const fetches = referenceFetches ? { fetches: referenceFetches } : {};
  const adminAllowed = createAllowlist(adminAllowlist);
  // Before the key check (registered first): an address outside the allowlist learns nothing about keys.
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.config.admin === true && !adminAllowed(request.ip)) throw new VigilError('admin_ip_not_allowed');
  });
  await app.register(apiKeyPlugin, { db, now: () => now().getTime() });
  // After the key check (the key's account scopes Idempotency-Key); every route with
  // `config.idempotent` registered in this context, now or by a later plugin, honours the header.
  await app.register(idempotencyPlugin, { db, now: () => now().getTime(), handlerTimeoutMs, secrets });
  await app.register(keyRoutes, { db, now });
  await app.register(customerAttestationRoutes, { db, metagraph, now, log });
  await app.register(searchRoutes, { db });
  await app.register(artifactRoutes, { db, blobs, now, artifactLimitBytes, ...fetches, log, serverKey });
  await app.register(policyRoutes, { db, now, sources: policySources, ...fetches });
  await app.register(repositoryRoutes, { db, secrets, now, policySources, ...fetches, onPushQueued: onRepositoryPushQueued });
  await app.register(sbomRoutes, { db, now, policySources, ...fetches });
  await app.register(webhookRoutes, { db, secrets, now, settings: webhooks, ...(webhookResolver ? { resolver: webhookResolver } : {}) });
  await app.register(watchRoutes, { db, now, ...watches });
  await app.register(firewallRoutes, { db, now });
  if (adminAllowlist.length > 0) await app.register(adminRoutes, { db, now, metagraph, scheduler });
};
