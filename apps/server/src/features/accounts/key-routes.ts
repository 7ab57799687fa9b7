import {
  AccountSelf,
  ApiKey,
  ApiKeyCreated,
  ApiKeyCreateRequest,
  ApiKeyIdParams,
  ApiKeyList,
} from '@vigil/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import './api-key-plugin.js';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import type { AuditActor } from '../../platform/audit-log.js';
import {
  accountBody,
  apiKeyBody,
  createApiKey,
  findKeyForAuth,
  listApiKeys,
  revokeApiKey,
  type KeyPrincipal,
} from './accounts.js';
import '../../platform/http/route-config.js';
import { notFoundWhenInvalid } from '../../platform/http/zod-compilers.js';

export interface KeyRoutesOptions {
  db: Kysely<Database>;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
}

// A key id that is not 8 hex names no key: the same 404 as an unknown one.
notFoundWhenInvalid.add(ApiKeyIdParams, { code: 'key_not_found' });

/** The verified key of a `config.apiKey` route (set by the api-key plugin before any handler runs). */
export function principalOf(request: FastifyRequest): KeyPrincipal {
  if (request.principal === null) throw new Error('api-key route reached without a verified key');
  return request.principal;
}

/** Findings are for paid plans (spec part 5 item 3). */
export function showsFindings(request: FastifyRequest): boolean {
  return principalOf(request).plan === 'paid';
}

export function actorOf(request: FastifyRequest): AuditActor {
  return { name: `key:${principalOf(request).keyId}`, sourceIp: request.ip };
}

/**
 * An account's own keys (docs/accounts.md): who am I, list, create (scopes at most the caller's),
 * revoke (never the key in use; another account's key is `key not found`).
 */
export const keyRoutes: FastifyPluginAsyncZod<KeyRoutesOptions> = async (app, { db, clock }) => {
  app.get(
    '/v1/account',
    { schema: { summary: 'The account and key the presented token belongs to', response: { 200: AccountSelf } }, config: { apiKey: { scope: null } } },
    async (request) => {
      const found = await findKeyForAuth(db, principalOf(request).keyId);
      if (!found) throw new VigilError('invalid_api_key');
      return { account: accountBody(found.account), key: apiKeyBody(found.key) };
    },
  );

  app.get(
    '/v1/keys',
    { schema: { summary: "The account's API keys, newest first (never a secret)", response: { 200: ApiKeyList } }, config: { apiKey: { scope: 'keys' } } },
    async (request) => ({ keys: await listApiKeys(db, principalOf(request).accountId) }),
  );

  app.post(
    '/v1/keys',
    {
      schema: {
        summary: 'Create a key for the account; the token is in this answer only',
        body: ApiKeyCreateRequest,
        response: { 201: ApiKeyCreated },
      },
      // Not idempotent: a replay would have to keep the token, which is never stored (docs/idempotency.md).
      config: { apiKey: { scope: 'keys' } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      // A key cannot mint a stronger one than itself.
      if (request.body.scopes.some((scope) => !principal.scopes.includes(scope))) throw new VigilError('scope_not_grantable');
      const created = await createApiKey(db, {
        accountId: principal.accountId,
        name: request.body.name,
        scopes: request.body.scopes,
        now: clock(),
        actor: actorOf(request),
      });
      // An attempt with this id before it existed is remembered as unknown here: not any more.
      app.apiKeyCache.forget(created.key_id);
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/v1/keys/:key_id',
    {
      schema: { summary: 'Revoke one of the account’s keys (not the one in use)', params: ApiKeyIdParams, response: { 200: ApiKey } },
      config: { apiKey: { scope: 'keys' }, idempotent: true },
    },
    async (request) => {
      const principal = principalOf(request);
      const revoked = await revokeApiKey(db, {
        accountId: principal.accountId,
        keyId: request.params.key_id,
        currentKeyId: principal.keyId,
        now: clock(),
        actor: actorOf(request),
      });
      app.apiKeyCache.forget(revoked.key_id);
      return revoked;
    },
  );
};
