import { randomBytes } from 'node:crypto';
import type { ApiKeyScope, Plan } from '@vigil/core';
import { parseApiKey, verifyApiKeySecret } from '@vigil/crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { AccountsTable, ApiKeysTable, Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { findKeyForAuth, type KeyPrincipal } from './accounts.js';
import { createKeyUsageRecorder } from './key-usage-recorder.js';

/** What a route asks of the presented key (route `config.apiKey`). */
export interface ApiKeyRule {
  /** The scope the key must hold; `null` accepts any valid key. */
  scope: ApiKeyScope | null;
  /** `paid`: a free account's key is refused with 403 `this endpoint requires a paid plan`. */
  plan?: Plan;
}

export interface ApiKeyPluginOptions {
  db: Kysely<Database>;
  now: () => number;
  /** How long a looked-up key is trusted before it is read again (revocations elsewhere take effect within it). */
  cacheMs?: number;
  /** How often batched key uses are written (last used at, use count). */
  usageFlushMs?: number;
  /** How many unknown key ids are remembered as unknown (the oldest forgotten first). */
  maxUnknownKeyIds?: number;
}

/** Revocation on another instance reaches this one within this time (docs/accounts.md). */
export const API_KEY_CACHE_MS = 5_000;
export const API_KEY_USAGE_FLUSH_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
const UNKNOWN_MAX_ENTRIES = 10_000;

type KeyRecord = { key: ApiKeysTable; account: AccountsTable; scopes: readonly ApiKeyScope[] };

// Exactly one space or tab between the scheme and the token (docs/accounts.md); Node trims the ends.
const BEARER_RE = /^Bearer[ \t](\S+)$/i;

/**
 * Bearer API keys (spec part 5 items 1–6) for routes with `config.apiKey`: the token's form, then
 * the key (unknown, revoked and wrong-secret keys are alike: 401 `invalid or revoked api key`), the
 * scope, the plan. Runs in onRequest, so a refused caller's body is never read (the error handler
 * closes the connection rather than letting Node drain it).
 */
const apiKeys: FastifyPluginAsync<ApiKeyPluginOptions> = async (app, options) => {
  const { db, now } = options;
  const cacheMs = options.cacheMs ?? API_KEY_CACHE_MS;
  const cache = new Map<string, { record: KeyRecord; until: number }>();
  // Key ids the database did not know, until when: a stream of guessed ids costs a map lookup, not
  // a query each. Kept apart from the known keys, so a flood of guesses never evicts a real key.
  const unknown = new Map<string, number>();
  const maxUnknown = options.maxUnknownKeyIds ?? UNKNOWN_MAX_ENTRIES;
  // What an unknown id's secret is compared with: a hash no secret has (random per process), so
  // every refusal hashes and compares exactly as a wrong secret for a real key does.
  const noKeyHash = randomBytes(32).toString('hex');
  const usage = createKeyUsageRecorder(db, {
    flushMs: options.usageFlushMs ?? API_KEY_USAGE_FLUSH_MS,
    onError: (error) => app.log.warn({ err: error }, 'could not record API key use; will retry with the next flush'),
  });

  const lookup = async (keyId: string): Promise<KeyRecord | undefined> => {
    const cached = cache.get(keyId);
    if (cached && cached.until > now()) return cached.record;
    if ((unknown.get(keyId) ?? 0) > now()) return undefined;
    const found = await findKeyForAuth(db, keyId);
    if (!found) {
      cache.delete(keyId);
      unknown.delete(keyId);
      if (unknown.size >= maxUnknown) unknown.delete(unknown.keys().next().value!);
      unknown.set(keyId, now() + cacheMs);
      return undefined;
    }
    unknown.delete(keyId);
    const record = { ...found, scopes: JSON.parse(found.key.scopes) as ApiKeyScope[] };
    if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
    cache.set(keyId, { record, until: now() + cacheMs });
    return record;
  };

  app.decorateRequest('principal', null);
  app.decorate('apiKeyCache', {
    // A key created or revoked, or an account's plan or trust changed, through this instance takes effect here at once.
    forget: (keyId?: string) => {
      if (keyId === undefined) {
        cache.clear();
        unknown.clear();
      } else {
        cache.delete(keyId);
        unknown.delete(keyId);
      }
    },
  });

  app.addHook('onRequest', async (request: FastifyRequest) => {
    const rule = request.routeOptions.config.apiKey;
    if (rule === undefined) return;
    request.principal = await authenticate(request, rule);
  });

  const authenticate = async (request: FastifyRequest, rule: ApiKeyRule): Promise<KeyPrincipal> => {
    const header = request.headers.authorization;
    if (header === undefined || header === '') throw new VigilError('missing_api_key');
    const token = BEARER_RE.exec(header)?.[1];
    if (token === undefined) throw new VigilError('malformed_api_key');
    let parts;
    try {
      parts = parseApiKey(token);
    } catch {
      throw new VigilError('malformed_api_key');
    }
    const record = await lookup(parts.keyId);
    // The secret is checked for an unknown and a revoked key too, so timing does not tell the three refusals apart.
    const secretMatches = verifyApiKeySecret(parts.secret, record?.key.secret_hash ?? noKeyHash);
    if (record === undefined || !secretMatches || record.key.revoked_at !== null) throw new VigilError('invalid_api_key');
    if (rule.scope !== null && !record.scopes.includes(rule.scope)) throw new VigilError('scope_missing', rule.scope);
    if (rule.plan === 'paid' && record.account.plan !== 'paid') throw new VigilError('paid_plan_required');
    usage.record(parts.keyId, now());
    return {
      keyId: parts.keyId,
      accountId: record.account.account_id,
      accountKind: record.account.kind,
      plan: record.account.plan,
      scopes: record.scopes,
      trusted: Number(record.account.trusted) === 1,
    };
  };

  app.addHook('onClose', async () => usage.close());
};

/** Authenticates `config.apiKey` routes; `request.principal` is the key's account, scopes and plan. */
export const apiKeyPlugin = fp(apiKeys, { name: 'vigil-api-keys', fastify: '5.x' });

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs `Authorization: Bearer vgl_…` with this scope (and plan). */
    apiKey?: ApiKeyRule;
  }
  interface FastifyRequest {
    /** Set on `config.apiKey` routes once the key is verified; null elsewhere. */
    principal: KeyPrincipal | null;
  }
  interface FastifyInstance {
    apiKeyCache: { forget(keyId?: string): void };
  }
}
