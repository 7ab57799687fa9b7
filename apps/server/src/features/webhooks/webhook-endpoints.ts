import { randomBytes, randomInt } from 'node:crypto';
import {
  formatOffsetTimestamp,
  type Webhook,
  type WebhookCreateRequest,
  type WebhookEventKind,
  type WebhookUpdateRequest,
} from '@vigil/core';
import type { Kysely, Selectable } from 'kysely';
import { lockForUpdate, takeTurnsOn } from '../../platform/db/dialect.js';
import type { Database, WebhooksTable, WebhookSecretsTable } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { recordAudit, type AuditActor } from '../../platform/audit-log.js';
import { inTransaction } from '../../platform/db/transaction.js';
import type { SecretBox } from '../../platform/secrets/secret-box.js';
import { AddressRefusedError, bareHost, checkedAddresses, type HostResolver } from './dispatch/address-policy.js';
import { DEFAULT_WEBHOOK_MAX_ENDPOINTS } from './webhook-settings.js';

export type WebhookRow = Selectable<WebhooksTable>;
type SecretRow = Selectable<WebhookSecretsTable>;

/** What the URL checks allow (VIGIL_WEBHOOK_ALLOW_HTTP, VIGIL_WEBHOOK_ALLOW_PRIVATE) and how names resolve. */
export interface WebhookUrlPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
  resolver: HostResolver;
}

export interface WebhookWriter {
  accountId: string;
  actor: AuditActor;
  now: number;
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `whsec_` + 40 base62 characters (~238 bits), each drawn uniformly. */
export function newWebhookSecret(): string {
  let text = 'whsec_';
  for (let i = 0; i < 40; i++) text += BASE62[randomInt(BASE62.length)];
  return text;
}

function newWebhookId(): string {
  return `wh_${randomBytes(12).toString('hex')}`;
}

function newSecretId(): string {
  return `whs_${randomBytes(12).toString('hex')}`;
}

/** The sealed value opens only for its own row: copied to another endpoint or secret it does not. */
export function secretContext(webhookId: string, secretId: string): string {
  return `webhook-secret:${webhookId}:${secretId}`;
}

/**
 * The URL rules of docs/webhooks.md, on the URL as the WHATWG URL parser reads it (as the sender
 * does): `https://` (or `http://` when allowed), no credentials, no fragment, not port 0, and a host
 * that is not, and does not resolve to, a non-public address (unless allowed). Returns the URL to
 * store: its normalised form (`href`), so the record never holds a spelling another parser could
 * read differently (`https://a\@b/` is host `a`, path `/@b/`). A name that does not resolve now is
 * accepted: every delivery checks again when it connects.
 */
export async function checkedWebhookUrl(text: string, policy: WebhookUrlPolicy, field = 'url'): Promise<string> {
  const url = new URL(text);
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) {
    throw new VigilError('webhook_url_refused', `${field}: must be an https:// URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new VigilError('webhook_url_refused', `${field}: must not carry credentials (user:password@)`);
  }
  // `#` ends the URL in its normalised form (a `#` elsewhere is percent-encoded), so this also
  // catches an empty fragment, which `hash` shows as ''.
  if (url.href.includes('#')) throw new VigilError('webhook_url_refused', `${field}: must not carry a fragment (#…)`);
  if (url.port === '0') throw new VigilError('webhook_url_refused', `${field}: must not use port 0`);
  if (!policy.allowPrivate) {
    try {
      await checkedAddresses(bareHost(url.hostname), policy.resolver);
    } catch (error) {
      if (error instanceof AddressRefusedError) throw new VigilError('webhook_url_refused', `${field}: ${error.message}`);
      // Anything else is the resolver failing (no such name, no DNS here): accepted, since every
      // delivery checks the addresses again when it connects.
    }
  }
  return url.href;
}

/** The record as the API shows it; `previousExpiresAt` from the endpoint's secrets. */
export function webhookBody(row: WebhookRow, previousExpiresAt: number | null): Webhook {
  return {
    id: row.webhook_id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventKind[],
    active: Number(row.active) === 1 && row.disabled_at === null,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at === null ? null : formatOffsetTimestamp(Number(row.disabled_at)),
    secret_rotation: previousExpiresAt === null ? null : { previous_secret_expires_at: formatOffsetTimestamp(previousExpiresAt) },
    created_at: formatOffsetTimestamp(Number(row.created_at)),
    updated_at: formatOffsetTimestamp(Number(row.updated_at)),
  };
}

/** The secrets that may still sign at `now`: not revoked, not past their overlap. */
function liveSecrets(rows: readonly SecretRow[], now: number): SecretRow[] {
  return rows.filter((s) => s.revoked_at === null && (s.expires_at === null || Number(s.expires_at) > now));
}

async function previousExpiry(db: Kysely<Database>, webhookId: string, now: number): Promise<number | null> {
  const rows = await db.selectFrom('webhook_secrets').selectAll().where('webhook_id', '=', webhookId).execute();
  const previous = liveSecrets(rows, now).find((s) => s.expires_at !== null);
  return previous === undefined ? null : Number(previous.expires_at);
}

/**
 * The secret a delivery attempt at `now` signs with: during a rotation overlap the previous one
 * (receivers still configured with it keep verifying), else the current one.
 */
export async function signingSecret(db: Kysely<Database>, secrets: SecretBox, webhookId: string, now: number): Promise<string> {
  const rows = await db.selectFrom('webhook_secrets').selectAll().where('webhook_id', '=', webhookId).orderBy('created_at').execute();
  const live = liveSecrets(rows, now);
  const chosen = live.find((s) => s.expires_at !== null) ?? live.find((s) => s.expires_at === null);
  if (chosen === undefined) throw new Error(`webhook ${webhookId} has no live signing secret`);
  return secrets.open(chosen.sealed, secretContext(webhookId, chosen.secret_id));
}

/** An account's endpoint; another account's or an unknown one is `webhook not found`. */
export async function ownWebhook(db: Kysely<Database>, accountId: string, webhookId: string, options: { lock?: boolean } = {}): Promise<WebhookRow> {
  const row = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .where('account_id', '=', accountId)
    .$call(options.lock ? lockForUpdate(db) : (q) => q)
    .executeTakeFirst();
  if (row === undefined) throw new VigilError('webhook_not_found');
  return row;
}

async function insertSecret(db: Kysely<Database>, box: SecretBox, webhookId: string, now: number): Promise<string> {
  const secret = newWebhookSecret();
  const secretId = newSecretId();
  await db
    .insertInto('webhook_secrets')
    .values({ secret_id: secretId, webhook_id: webhookId, sealed: box.seal(secret, secretContext(webhookId, secretId)), created_at: now, expires_at: null, revoked_at: null })
    .execute();
  return secret;
}

/**
 * `POST /v1/webhooks`: the endpoint and its first secret, shown this once. An account that already
 * has `maxEndpoints` endpoints (VIGIL_WEBHOOK_MAX_ENDPOINTS; paused and disabled ones count) gets
 * `webhook_limit_reached`.
 */
export async function createWebhook(
  db: Kysely<Database>,
  box: SecretBox,
  policy: WebhookUrlPolicy,
  body: WebhookCreateRequest,
  writer: WebhookWriter,
  maxEndpoints = DEFAULT_WEBHOOK_MAX_ENDPOINTS,
): Promise<Webhook & { secret: string }> {
  const url = await checkedWebhookUrl(body.url, policy);
  return inTransaction(db, async (trx) => {
    // Creations for one account take turns, so two at once cannot both see room for one more.
    await takeTurnsOn(trx, `webhooks-of:${writer.accountId}`);
    const { n } = await trx
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', writer.accountId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= maxEndpoints) throw new VigilError('webhook_limit_reached');
    const row: WebhookRow = {
      webhook_id: newWebhookId(),
      account_id: writer.accountId,
      url,
      events: JSON.stringify(body.events),
      active: 1,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      created_at: writer.now,
      updated_at: writer.now,
    };
    await trx.insertInto('webhooks').values(row).execute();
    const secret = await insertSecret(trx, box, row.webhook_id, writer.now);
    await recordAudit(trx, writer.actor, { action: 'webhook.create', target: row.webhook_id, detail: { url, events: body.events }, at: writer.now });
    return { ...webhookBody(row, null), secret };
  });
}

export async function listWebhooks(db: Kysely<Database>, accountId: string, page: { offset: number; limit: number }, now: number): Promise<Webhook[]> {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('webhook_id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return Promise.all(rows.map(async (row) => webhookBody(row, await previousExpiry(db, row.webhook_id, now))));
}

export async function getWebhook(db: Kysely<Database>, accountId: string, webhookId: string, now: number): Promise<Webhook> {
  const row = await ownWebhook(db, accountId, webhookId);
  return webhookBody(row, await previousExpiry(db, webhookId, now));
}

/**
 * `PATCH` (or `POST`) `/v1/webhooks/{id}`: url, events, active. `active: false` pauses (deliveries
 * are still created, none is sent); `active: true` resumes, and re-enables an endpoint Vigil
 * disabled, clearing the reason and the failure clock.
 */
export async function updateWebhook(
  db: Kysely<Database>,
  policy: WebhookUrlPolicy,
  webhookId: string,
  body: WebhookUpdateRequest,
  writer: WebhookWriter,
): Promise<Webhook> {
  const url = body.url === undefined ? undefined : await checkedWebhookUrl(body.url, policy);
  return inTransaction(db, async (trx) => {
    const row = await ownWebhook(trx, writer.accountId, webhookId, { lock: true });
    const next: WebhookRow = { ...row, updated_at: writer.now };
    if (url !== undefined) next.url = url;
    if (body.events !== undefined) next.events = JSON.stringify(body.events);
    if (body.active === true) Object.assign(next, { active: 1, disabled_reason: null, disabled_at: null, failing_since: null });
    if (body.active === false) next.active = 0;
    await trx
      .updateTable('webhooks')
      .set({ url: next.url, events: next.events, active: next.active, disabled_reason: next.disabled_reason, disabled_at: next.disabled_at, failing_since: next.failing_since, updated_at: next.updated_at })
      .where('webhook_id', '=', webhookId)
      .execute();
    await recordAudit(trx, writer.actor, { action: 'webhook.update', target: webhookId, detail: { ...body, ...(url === undefined ? {} : { url }) }, at: writer.now });
    return webhookBody(next, await previousExpiry(trx, webhookId, writer.now));
  });
}

/** `DELETE /v1/webhooks/{id}`: the endpoint, its secrets and every delivery (pending ones are dropped). */
export async function deleteWebhook(db: Kysely<Database>, webhookId: string, writer: WebhookWriter): Promise<void> {
  await inTransaction(db, async (trx) => {
    await ownWebhook(trx, writer.accountId, webhookId, { lock: true });
    await trx
      .deleteFrom('webhook_delivery_attempts')
      .where('delivery_id', 'in', (eb) => eb.selectFrom('webhook_deliveries').select('delivery_id').where('webhook_id', '=', webhookId))
      .execute();
    await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', webhookId).execute();
    await trx.deleteFrom('webhook_secrets').where('webhook_id', '=', webhookId).execute();
    await trx.deleteFrom('webhooks').where('webhook_id', '=', webhookId).execute();
    await recordAudit(trx, writer.actor, { action: 'webhook.delete', target: webhookId, detail: {}, at: writer.now });
  });
}

/**
 * `POST /v1/webhooks/{id}/rotate-secret`: a new secret, shown this once. For `overlapSeconds` the
 * previous secret still signs (receivers switch in their own time); 0 switches at once. A rotation
 * during an overlap ends the earlier overlap: at most one previous secret is live.
 */
export async function rotateWebhookSecret(
  db: Kysely<Database>,
  box: SecretBox,
  webhookId: string,
  overlapSeconds: number,
  writer: WebhookWriter,
): Promise<Webhook & { secret: string }> {
  return inTransaction(db, async (trx) => {
    const row = await ownWebhook(trx, writer.accountId, webhookId, { lock: true });
    await trx
      .updateTable('webhook_secrets')
      .set({ revoked_at: writer.now })
      .where('webhook_id', '=', webhookId)
      .where('revoked_at', 'is', null)
      .where('expires_at', 'is not', null)
      .execute();
    await trx
      .updateTable('webhook_secrets')
      .set(overlapSeconds === 0 ? { revoked_at: writer.now } : { expires_at: writer.now + overlapSeconds * 1000 })
      .where('webhook_id', '=', webhookId)
      .where('revoked_at', 'is', null)
      .where('expires_at', 'is', null)
      .execute();
    const secret = await insertSecret(trx, box, webhookId, writer.now);
    await trx.updateTable('webhooks').set({ updated_at: writer.now }).where('webhook_id', '=', webhookId).execute();
    await recordAudit(trx, writer.actor, { action: 'webhook.rotate_secret', target: webhookId, detail: { overlap_seconds: overlapSeconds }, at: writer.now });
    return { ...webhookBody({ ...row, updated_at: writer.now }, overlapSeconds === 0 ? null : writer.now + overlapSeconds * 1000), secret };
  });
}

/** `POST /v1/webhooks/{id}/revoke-previous-secret`: ends a rotation overlap now (no-op without one). */
export async function revokePreviousWebhookSecret(db: Kysely<Database>, webhookId: string, writer: WebhookWriter): Promise<Webhook> {
  return inTransaction(db, async (trx) => {
    const row = await ownWebhook(trx, writer.accountId, webhookId, { lock: true });
    const revoked = await trx
      .updateTable('webhook_secrets')
      .set({ revoked_at: writer.now })
      .where('webhook_id', '=', webhookId)
      .where('revoked_at', 'is', null)
      .where('expires_at', 'is not', null)
      .executeTakeFirst();
    await recordAudit(trx, writer.actor, { action: 'webhook.revoke_previous_secret', target: webhookId, detail: {}, at: writer.now });
    // Ending an overlap changes the endpoint (which secrets sign), as rotating does; a call with no
    // overlap to end changes nothing and leaves `updated_at` alone.
    if (Number(revoked.numUpdatedRows) === 0) return webhookBody(row, null);
    await trx.updateTable('webhooks').set({ updated_at: writer.now }).where('webhook_id', '=', webhookId).execute();
    return webhookBody({ ...row, updated_at: writer.now }, null);
  });
}
