import {
  Account,
  AccountCreateRequest,
  AccountIdParams,
  AccountList,
  AccountUpdateRequest,
  AdminAdvisoryStatus,
  ApiKey,
  ApiKeyCreated,
  ApiKeyCreateRequest,
  ApiKeyIdParams,
  ApiKeyList,
  AuditLogPage,
  AdminRoundCloseRequest,
  AdminRoundClosed,
  AdminRoundParams,
  AdminRoundSchedule,
  AdminValidator,
  AdminValidatorList,
  MetagraphSnapshot,
  MetagraphUploaded,
  OutboxBacklog,
  PackageRequestList,
  VALIDATOR_ADMIN_ACTIONS,
  ValidatorAllowlistRequest,
  ValidatorHotkeyParams,
  WEBHOOK_EVENT_KINDS,
  formatOffsetTimestamp,
} from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CachedMetagraph } from '../../metagraph/cached-metagraph.js';
import { readAuditLogPage } from '../../repositories/audit-log.js';
import { outboxBacklog } from '../../repositories/outbox.js';
import { deliveryBacklog } from '../../services/webhook-deliveries.js';
import { advisoryStatus } from '../../services/advisory-status.js';
import { listOpenPackageRequests } from '../../services/repository-verification.js';
import type { SchedulerSettings } from '../../scheduler/settings.js';
import { uploadMetagraphSnapshot } from '../../services/metagraph-admin.js';
import { closeRoundNow, readRoundSchedule } from '../../services/rounds-admin.js';
import { applyValidatorAction, listValidators, setValidatorAllowlist, type ValidatorRecord } from '../../services/validators.js';
import {
  accountBody,
  createAccount,
  createApiKey,
  listAccounts,
  listApiKeys,
  requireAccount,
  revokeApiKey,
  updateAccount,
} from '../../services/accounts.js';
import { readPage, sendPageHeaders } from '../pagination.js';
import '../route-config.js';
import { notFoundWhenInvalid } from '../zod-compilers.js';
import { actorOf, principalOf, type KeyRoutesOptions } from './keys.js';

notFoundWhenInvalid.add(AccountIdParams, { code: 'account_not_found' });
notFoundWhenInvalid.add(ValidatorHotkeyParams, { code: 'unknown_validator' });
notFoundWhenInvalid.add(AdminRoundParams, { code: 'round_not_found' });

const ADMIN = { apiKey: { scope: 'admin' }, admin: true } as const;
/** An admin route that changes something: it also honours Idempotency-Key (docs/idempotency.md). */
const ADMIN_CHANGE = { ...ADMIN, idempotent: true } as const;

export interface AdminRoutesOptions extends KeyRoutesOptions {
  /** The metagraph permit checks use; without it `POST /v1/admin/metagraph` is not served. */
  metagraph?: CachedMetagraph;
  /** The round timings the scheduler runs with: the schedule view and a forced close use them. */
  scheduler: SchedulerSettings;
}

function validatorBody(record: ValidatorRecord): AdminValidator {
  return {
    hotkey: record.hotkey,
    uid: record.uid,
    status: record.status,
    allowed_ips: record.allowedIps,
    registered_at: formatOffsetTimestamp(Number(record.registeredAt)),
    last_seen_at: record.lastSeenAt === null ? null : formatOffsetTimestamp(Number(record.lastSeenAt)),
  };
}

/**
 * `/v1/admin/*` (docs/accounts.md, "Admin API"): accounts, their plans and keys, and the audit log.
 * Served only when VIGIL_ADMIN_ALLOWLIST is set; every request must come from an allowlisted address
 * (checked first) with a key holding the `admin` scope. Every change is written to the audit log in
 * the transaction that makes it.
 */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, { db, now, metagraph, scheduler }) => {
  app.get(
    '/v1/admin/accounts',
    { schema: { summary: 'Every account, oldest first', response: { 200: AccountList } }, config: ADMIN },
    async () => ({ accounts: (await listAccounts(db)).map(accountBody) }),
  );

  app.post(
    '/v1/admin/accounts',
    { schema: { summary: 'Create an organization or a personal account', body: AccountCreateRequest, response: { 201: Account } }, config: ADMIN_CHANGE },
    async (request, reply) => {
      const row = await createAccount(db, { ...request.body, now: now().getTime(), actor: actorOf(request) });
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
      const row = await updateAccount(db, { accountId: request.params.account_id, ...request.body, now: now().getTime(), actor: actorOf(request) });
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
        now: now().getTime(),
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
        now: now().getTime(),
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

  app.get(
    '/v1/admin/validators',
    { schema: { summary: 'Every validator record, oldest registration first', response: { 200: AdminValidatorList } }, config: ADMIN },
    async () => ({ validators: (await listValidators(db)).map(validatorBody) }),
  );

  for (const action of VALIDATOR_ADMIN_ACTIONS) {
    app.post(
      `/v1/admin/validators/:hotkey/${action}`,
      {
        schema: { summary: `${action[0]!.toUpperCase()}${action.slice(1)} a validator (the rules of vigil-server validators ${action})`, params: ValidatorHotkeyParams, response: { 200: AdminValidator } },
        config: ADMIN_CHANGE,
      },
      async (request) => {
        const { record } = await applyValidatorAction(db, { hotkey: request.params.hotkey, action, now: now().getTime(), actor: actorOf(request) });
        return validatorBody(record);
      },
    );
  }

  app.post(
    '/v1/admin/validators/:hotkey/allowlist',
    {
      schema: { summary: "Replace a validator's IP allowlist", params: ValidatorHotkeyParams, body: ValidatorAllowlistRequest, response: { 200: AdminValidator } },
      config: ADMIN_CHANGE,
    },
    async (request) =>
      validatorBody(
        await setValidatorAllowlist(db, { hotkey: request.params.hotkey, allowedIps: request.body.allowed_ips, now: now().getTime(), actor: actorOf(request) }),
      ),
  );

  if (metagraph !== undefined) {
    app.post(
      '/v1/admin/metagraph',
      {
        schema: { summary: 'Replace the metagraph snapshot file permit checks read', body: MetagraphSnapshot, response: { 200: MetagraphUploaded } },
        config: ADMIN_CHANGE,
      },
      async (request) => uploadMetagraphSnapshot(db, metagraph, { snapshot: request.body, now: now().getTime(), actor: actorOf(request) }),
    );
  }

  app.get(
    '/v1/admin/rounds',
    { schema: { summary: "Every track's latest round, its deadlines and the next opening", response: { 200: AdminRoundSchedule } }, config: ADMIN },
    async () => readRoundSchedule(db, { now: now().getTime(), settings: scheduler }),
  );

  app.post(
    '/v1/admin/rounds/:round_id/close',
    {
      schema: {
        summary: 'Close a round in evaluation now (scores and publishes it), under the scheduler lock',
        params: AdminRoundParams,
        body: AdminRoundCloseRequest,
        response: { 200: AdminRoundClosed },
      },
      config: ADMIN_CHANGE,
    },
    async (request) =>
      closeRoundNow(db, {
        roundId: request.params.round_id,
        force: request.body.force,
        now: now().getTime(),
        settings: scheduler,
        actor: actorOf(request),
      }),
  );

  app.get(
    '/v1/admin/package-requests',
    {
      schema: { summary: 'Packages verifications asked for that Vigil holds no bytes for, most requested first (pagination headers)', response: { 200: PackageRequestList } },
      config: ADMIN,
    },
    async (request, reply) => {
      const page = readPage(request);
      const rows = await listOpenPackageRequests(db, { offset: (page.page - 1) * page.size, limit: page.size + 1 });
      sendPageHeaders(reply, page, rows.length > page.size);
      return {
        package_requests: rows.slice(0, page.size).map((row) => ({
          purl: row.purl,
          ecosystem: row.ecosystem,
          name: row.name,
          version: row.version,
          requests: row.request_count,
          first_requested_at: formatOffsetTimestamp(row.first_requested_at),
          last_requested_at: formatOffsetTimestamp(row.last_requested_at),
        })),
      };
    },
  );

  app.get(
    '/v1/admin/advisories',
    { schema: { summary: 'What the OSV advisory import has stored, and the last import', response: { 200: AdminAdvisoryStatus } }, config: ADMIN },
    async () => {
      const status = await advisoryStatus(db);
      const last = status.last_import;
      return {
        ...status,
        last_import:
          last === null ? null : { ...last, started_at: formatOffsetTimestamp(last.started_at), finished_at: formatOffsetTimestamp(last.finished_at) },
      };
    },
  );

  app.get(
    '/v1/admin/outbox',
    { schema: { summary: 'Webhook events not yet fanned out, and the delivery backlog', response: { 200: OutboxBacklog } }, config: ADMIN },
    async () => {
      const [backlog, deliveries] = await Promise.all([outboxBacklog(db), deliveryBacklog(db)]);
      const byKind = Object.fromEntries(WEBHOOK_EVENT_KINDS.map((kind) => [kind, backlog.undeliveredByKind[kind] ?? 0])) as OutboxBacklog['undelivered_by_kind'];
      return {
        total: backlog.total,
        undelivered: Object.values(byKind).reduce((sum, n) => sum + n, 0),
        undelivered_by_kind: byKind,
        oldest_undelivered_at: backlog.oldestUndeliveredAt === null ? null : formatOffsetTimestamp(backlog.oldestUndeliveredAt),
        deliveries: {
          ...deliveries.byState,
          oldest_pending_at: deliveries.oldestPendingAt === null ? null : formatOffsetTimestamp(deliveries.oldestPendingAt),
        },
      };
    },
  );
};
