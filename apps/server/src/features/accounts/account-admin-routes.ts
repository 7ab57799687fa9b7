import {
  Account,
  AccountCreateRequest,
  AccountIdParams,
  AccountList,
  AccountUpdateRequest,
  ApiKey,
  ApiKeyCreated,
  ApiKeyCreateRequest,
  ApiKeyIdParams,
  ApiKeyList,
  AuditLogPage,
  formatOffsetTimestamp,
} from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readAuditLogPage } from '../../platform/audit-log.js';
import { readPage, sendPageHeaders } from '../../platform/http/pagination.js';
import '../../platform/http/route-config.js';
import { notFoundWhenInvalid } from '../../platform/http/zod-compilers.js';
import { accountBody, createAccount, createApiKey, listAccounts, listApiKeys, requireAccount, revokeApiKey, updateAccount } from './accounts.js';
import { ADMIN, ADMIN_CHANGE } from './admin-route-config.js';
import './api-key-plugin.js';
import { actorOf, principalOf, type KeyRoutesOptions } from './key-routes.js';

notFoundWhenInvalid.add(AccountIdParams, { code: 'account_not_found' });

/** The admin API's accounts, their plans and keys, and the audit log (docs/accounts.md, "Admin API"). */
export const accountAdminRoutes: FastifyPluginAsyncZod<KeyRoutesOptions> = async (app, { db, clock }) => {
  app.get(
    '/v1/admin/accounts',
    { schema: { summary: 'Every account, oldest first', response: { 200: AccountList } }, config: ADMIN },
    async () => ({ accounts: (await listAccounts(db)).map(accountBody) }),
  );

  app.post(
    '/v1/admin/accounts',
    { schema: { summary: 'Create an organization or a personal account', body: AccountCreateRequest, response: { 201: Account } }, config: ADMIN_CHANGE },
    async (request, reply) => {
      const row = await createAccount(db, { ...request.body, now: clock(), actor: actorOf(request) });
      return reply.code(201).send(accountBody(row));
    },
  );

  app.get(
    '/v1/admin/accounts/:account_id',
    { schema: { summary: 'One account', params: AccountIdParams, response: { 200: Account } }, config: ADMIN },
    async (request) => accountBody(await requireAccount(db, request.params.account_id)),
  );

  app.post(
    '/v1/admin/accounts/:account_id',
    { schema: { summary: "Change an account's plan or whether its package references are trusted", params: AccountIdParams, body: AccountUpdateRequest, response: { 200: Account } }, config: ADMIN_CHANGE },
    async (request) => {
      const row = await updateAccount(db, { accountId: request.params.account_id, ...request.body, now: clock(), actor: actorOf(request) });
      // Keys of the account carry the plan and the trust in this instance's key cache.
      app.apiKeyCache.forget();
      return accountBody(row);
    },
  );

  app.get(
    '/v1/admin/accounts/:account_id/keys',
    { schema: { summary: "An account's keys, newest first", params: AccountIdParams, response: { 200: ApiKeyList } }, config: ADMIN },
    async (request) => {
      await requireAccount(db, request.params.account_id);
      return { keys: await listApiKeys(db, request.params.account_id) };
    },
  );

  app.post(
    '/v1/admin/accounts/:account_id/keys',
    {
      schema: { summary: 'Issue a key for an account (any scopes); the token is in this answer only', params: AccountIdParams, body: ApiKeyCreateRequest, response: { 201: ApiKeyCreated } },
      // Not idempotent: a replay would have to keep the token, which is never stored (docs/idempotency.md).
      config: ADMIN,
    },
    async (request, reply) => {
      const created = await createApiKey(db, {
        accountId: request.params.account_id,
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
    '/v1/admin/keys/:key_id',
    { schema: { summary: "Revoke any account's key (not the one in use)", params: ApiKeyIdParams, response: { 200: ApiKey } }, config: ADMIN_CHANGE },
    async (request) => {
      const revoked = await revokeApiKey(db, {
        accountId: null,
        keyId: request.params.key_id,
        currentKeyId: principalOf(request).keyId,
        now: clock(),
        actor: actorOf(request),
      });
      app.apiKeyCache.forget(revoked.key_id);
      return revoked;
    },
  );

  app.get(
    '/v1/admin/audit-log',
    { schema: { summary: 'Administrative actions, newest first (pagination headers)', response: { 200: AuditLogPage } }, config: ADMIN },
    async (request, reply) => {
      const page = readPage(request);
      const rows = await readAuditLogPage(db, page);
      sendPageHeaders(reply, page, rows.length > page.size);
      return {
        entries: rows.slice(0, page.size).map((row) => ({
          id: row.entry_id,
          at: formatOffsetTimestamp(Number(row.at)),
          actor: row.actor,
          source_ip: row.source_ip,
          action: row.action,
          target: row.target,
          detail: JSON.parse(row.detail) as Record<string, unknown>,
        })),
      };
    },
  );
};
