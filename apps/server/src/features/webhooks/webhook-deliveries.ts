import { randomUUID } from 'node:crypto';
import { formatOffsetTimestamp, type WebhookDelivery, type WebhookDeliveryAttempt, type WebhookDeliveryState, type WebhookEventKind } from '@vigil/core';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { chunkRows } from '../../platform/db/chunk-rows.js';
import { lockForUpdate, skipLockedClause, takeTurnsOn } from '../../platform/db/dialect.js';
import type { Database, OutboxKind, WebhookDeliveriesTable, WebhooksTable } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { enqueueOutboxEvent, type OutboxEnvelopeRow } from '../../platform/outbox.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { nextRetryDelayMs } from '@vigil/webhooks';
import { ownWebhook } from './webhook-endpoints.js';

type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** Kinds every account may receive and read (audience null); the others go to one account only. */
export const NETWORK_WIDE_KINDS: readonly OutboxKind[] = ['verdict.changed', 'attestation.created', 'round.closed'];

/** An endpoint whose every attempt failed for this long is disabled (reason `failing`). */
export const WEBHOOK_FAILING_DISABLE_MS = 5 * 24 * 3600 * 1000;

/** Events fanned out per transaction. */
export const FAN_OUT_BATCH = 500;

function deliveryBody(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.delivery_id,
    webhook: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type,
    state: row.state,
    attempts: Number(row.attempts),
    next_attempt_at: row.state === 'pending' && row.next_attempt_at !== null ? formatOffsetTimestamp(Number(row.next_attempt_at)) : null,
    last_attempt_at: row.last_attempt_at === null ? null : formatOffsetTimestamp(Number(row.last_attempt_at)),
    created_at: formatOffsetTimestamp(Number(row.created_at)),
  };
}

function subscribes(endpoint: Selectable<WebhooksTable>, event: { kind: OutboxKind; account_id: string | null; created_at: number }): boolean {
  if (Number(endpoint.created_at) > event.created_at) return false;
  if (event.account_id === null ? !NETWORK_WIDE_KINDS.includes(event.kind) : endpoint.account_id !== event.account_id) return false;
  return (JSON.parse(endpoint.events) as string[]).includes(event.kind);
}

/**
 * Fans out events not yet handed to delivery: one delivery per endpoint that is not disabled
 * (active or paused), subscribed to the kind, in the event's audience and created no later than
 * the event; the events are marked fanned out and given their feed positions, all in one
 * transaction (a crash leaves both or neither). Fan-outs take turns, so feed positions follow
 * commit order and a reader of the feed never skips an event that commits later.
 */
export async function fanOutEvents(db: Kysely<Database>, now: number, batch = FAN_OUT_BATCH): Promise<number> {
  return inTransaction(db, async (trx) => {
    await takeTurnsOn(trx, 'webhook-fan-out');
    const events = (
      await sql<{ seq: number; id: string; kind: OutboxKind; account_id: string | null; created_at: number }>`select o.seq, o.id, o.kind, o.account_id, o.created_at
        from outbox_events o where o.delivered_at is null order by o.seq limit ${batch} ${skipLockedClause(trx, 'o')}`.execute(trx)
    ).rows.map((e) => ({ ...e, seq: Number(e.seq), created_at: Number(e.created_at) }));
    if (events.length === 0) return 0;
    const latest = Math.max(...events.map((e) => e.created_at));
    const endpoints = await trx.selectFrom('webhooks').selectAll().where('disabled_at', 'is', null).where('created_at', '<=', latest).execute();
    const deliveries: Insertable<WebhookDeliveriesTable>[] = [];
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (!subscribes(endpoint, event)) continue;
        deliveries.push({
          delivery_id: randomUUID(),
          webhook_id: endpoint.webhook_id,
          event_id: event.id,
          event_seq: event.seq,
          event_type: event.kind,
          state: 'pending',
          next_attempt_at: now,
          lease_owner: null,
          lease_expires_at: null,
          last_attempt_at: null,
          created_at: now,
          updated_at: now,
        });
      }
    }
    for (const chunk of chunkRows(deliveries, 12)) await trx.insertInto('webhook_deliveries').values(chunk).execute();
    const top = await trx.selectFrom('outbox_events').select((eb) => eb.fn.max('feed_position').as('p')).executeTakeFirst();
    let position = Number(top?.p ?? 0);
    // One statement per chunk (positions follow seq order within the batch), not one per event.
    for (const chunk of chunkRows(events, 3)) {
      const positions = sql.join(
        chunk.map((e) => sql`when ${e.seq} then cast(${(position += 1)} as bigint)`),
        sql` `,
      );
      await trx
        .updateTable('outbox_events')
        .set({ delivered_at: now, feed_position: sql<number>`case seq ${positions} end` })
        .where(
          'seq',
          'in',
          chunk.map((e) => e.seq),
        )
        .execute();
    }
    return events.length;
  });
}

/** A delivery a worker holds: what it needs to make one attempt. */
export interface ClaimedDelivery {
  deliveryId: string;
  webhookId: string;
  url: string;
  attempts: number;
  event: OutboxEnvelopeRow | undefined;
}

export interface ClaimOptions {
  now: number;
  /** Who holds the claims (a worker's id). */
  owner: string;
  /** How long a claim holds; past it another worker may take the delivery (the holder died). */
  leaseMs: number;
  /** At most this many deliveries in all. */
  limit: number;
  /** At most this many in flight to one endpoint, counting other workers' live claims. */
  perEndpoint: number;
  /** At most this many in flight to one account's endpoints together, counting other workers' live claims. */
  perAccount: number;
  /** Whether to first make run-out claims due again (default true; a worker does it on its polls). */
  reclaimExpired?: boolean;
}

/**
 * Claims due deliveries of active endpoints, each endpoint's in event order, at most `perEndpoint`
 * in flight per endpoint and `perAccount` per account across every worker. Endpoints already at
 * either cap are left out of the candidates, so they never use up `limit` and push other accounts'
 * endpoints out of the claim. The endpoint rows are taken FOR UPDATE SKIP LOCKED on PostgreSQL (two
 * workers never count and claim one endpoint at once), and each account's count is taken in turns
 * (accounts in one fixed order, so two claims never wait on each other in a circle); SQLite's single
 * writer gives the same. A `delivering` delivery whose lease ran out is due again (its worker died).
 */
export async function claimDeliveries(db: Kysely<Database>, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  if (options.limit <= 0) return [];
  return inTransaction(db, async (trx) => {
    const { now } = options;
    // Claims whose worker died (lease run out) are due again at once. Few rows: an index probe.
    if (options.reclaimExpired !== false) {
      await trx
        .updateTable('webhook_deliveries')
        .set({ state: 'pending', next_attempt_at: now, lease_owner: null, lease_expires_at: null, updated_at: now })
        .where('state', '=', 'delivering')
        .where('lease_expires_at', '<=', now)
        .execute();
    }
    // Endpoints with a due delivery and a free slot (their own and their account's), the one whose
    // oldest waiting event is oldest first. The due subqueries walk the (webhook_id, state,
    // event_seq) index and stop early; the busy ones read only `delivering` rows (at most the
    // workers' concurrency in all) through the (state, next_attempt_at) index.
    const endpoints = (
      await sql<{ webhook_id: string; url: string; account_id: string }>`select w.webhook_id, w.url, w.account_id from webhooks w
        where w.active = 1 and w.disabled_at is null
          and exists (select 1 from webhook_deliveries d where d.webhook_id = w.webhook_id and d.state = 'pending' and d.next_attempt_at <= ${now})
          and w.webhook_id not in (select b.webhook_id from webhook_deliveries b where b.state = 'delivering'
            group by b.webhook_id having count(*) >= ${options.perEndpoint})
          and w.account_id not in (select bw.account_id from webhook_deliveries b join webhooks bw on bw.webhook_id = b.webhook_id
            where b.state = 'delivering' group by bw.account_id having count(*) >= ${options.perAccount})
        order by (select min(d.event_seq) from webhook_deliveries d where d.webhook_id = w.webhook_id and d.state = 'pending')
        limit ${options.limit} ${skipLockedClause(trx, 'w')}`.execute(trx)
    ).rows;
    if (endpoints.length === 0) return [];
    const accounts = [...new Set(endpoints.map((e) => e.account_id))].sort();
    for (const account of accounts) await takeTurnsOn(trx, `webhook-account:${account}`);
    const accountBusy = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.webhook_id', 'd.webhook_id')
      .select((eb) => ['w.account_id', eb.fn.countAll<number>().as('n')])
      .where('d.state', '=', 'delivering')
      .where('w.account_id', 'in', accounts)
      .groupBy('w.account_id')
      .execute();
    const accountLeft = new Map(accounts.map((a) => [a, options.perAccount]));
    for (const row of accountBusy) accountLeft.set(row.account_id, options.perAccount - Number(row.n));
    const claimed: ClaimedDelivery[] = [];
    let left = options.limit;
    for (const endpoint of endpoints) {
      if (left <= 0) break;
      const busy = await trx
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('webhook_id', '=', endpoint.webhook_id)
        .where('state', '=', 'delivering')
        .executeTakeFirst();
      const forAccount = accountLeft.get(endpoint.account_id) ?? 0;
      const slots = Math.min(left, forAccount, options.perEndpoint - Number(busy?.n ?? 0));
      if (slots <= 0) continue;
      const rows = await trx
        .selectFrom('webhook_deliveries as d')
        .leftJoin('outbox_events as o', 'o.id', 'd.event_id')
        .select(['d.delivery_id', 'd.attempts', 'd.event_id', 'o.id', 'o.kind', 'o.payload', 'o.created_at', 'o.resource', 'o.sequence'])
        .where('d.webhook_id', '=', endpoint.webhook_id)
        .where('d.state', '=', 'pending')
        .where('d.next_attempt_at', '<=', now)
        .orderBy('d.event_seq')
        .orderBy('d.delivery_id')
        .limit(slots)
        .execute();
      if (rows.length === 0) continue;
      await trx
        .updateTable('webhook_deliveries')
        .set({ state: 'delivering', lease_owner: options.owner, lease_expires_at: now + options.leaseMs, updated_at: now })
        .where(
          'delivery_id',
          'in',
          rows.map((r) => r.delivery_id),
        )
        .execute();
      for (const r of rows) {
        const event =
          r.id === null || r.kind === null || r.payload === null || r.created_at === null || r.resource === null || r.sequence === null
            ? undefined
            : { id: r.id, kind: r.kind, payload: r.payload, created_at: r.created_at, resource: r.resource, sequence: r.sequence };
        claimed.push({ deliveryId: r.delivery_id, webhookId: endpoint.webhook_id, url: endpoint.url, attempts: Number(r.attempts), event });
      }
      left -= rows.length;
      accountLeft.set(endpoint.account_id, forAccount - rows.length);
    }
    return claimed;
  });
}

export interface AttemptResult {
  status: number | null;
  error: string | null;
  excerpt: string | null;
  latencyMs: number;
}

/** Takes an endpoint out of delivery and tells its account with a `webhook.disabled` event. */
async function disableWebhook(trx: Kysely<Database>, endpoint: Selectable<WebhooksTable>, reason: 'gone' | 'failing', now: number): Promise<void> {
  await trx.updateTable('webhooks').set({ active: 0, disabled_reason: reason, disabled_at: now, updated_at: now }).where('webhook_id', '=', endpoint.webhook_id).execute();
  await enqueueOutboxEvent(
    trx,
    'webhook.disabled',
    { webhook: endpoint.webhook_id, url: endpoint.url, reason, disabled_at: formatOffsetTimestamp(now) },
    now,
    { resource: `webhook:${endpoint.webhook_id}`, accountId: endpoint.account_id },
  );
}

/**
 * Records one attempt and moves the delivery on: 2xx succeeded; 410 Gone failed and the endpoint
 * disabled (`gone`); any other failure retried on the schedule, or failed when no attempt is left
 * (or the attempt was a manual redelivery). A delivery with a successful attempt before stays
 * `succeeded` whatever a later (redelivered) attempt does. An endpoint failing with no success for 5 days is
 * disabled (`failing`). When the claim was lost meanwhile (its lease ran out and another worker
 * took the delivery), the attempt is recorded and the delivery left to its new holder.
 */
export async function recordAttempt(
  db: Kysely<Database>,
  claim: { deliveryId: string; owner: string },
  result: AttemptResult,
  options: { now: number; random?: () => number },
): Promise<WebhookDeliveryState | 'lost'> {
  const { now } = options;
  return inTransaction(db, async (trx) => {
    const row = await trx.selectFrom('webhook_deliveries').selectAll().where('delivery_id', '=', claim.deliveryId).$call(lockForUpdate(trx)).executeTakeFirst();
    if (row === undefined) return 'lost';
    const attempt = Number(row.attempts) + 1;
    const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
    await trx
      .insertInto('webhook_delivery_attempts')
      .values({
        delivery_id: row.delivery_id,
        attempt,
        attempted_at: now - result.latencyMs,
        response_status: result.status,
        error: result.error,
        latency_ms: result.latencyMs,
        response_excerpt: result.excerpt,
        succeeded: succeeded ? 1 : 0,
      })
      .execute();
    if (row.state !== 'delivering' || row.lease_owner !== claim.owner) {
      await trx.updateTable('webhook_deliveries').set({ attempts: attempt, last_attempt_at: now, updated_at: now }).where('delivery_id', '=', row.delivery_id).execute();
      return 'lost';
    }
    let state: WebhookDeliveryState;
    let nextAttemptAt: number | null = null;
    // A delivery that once succeeded keeps saying so: a failed extra attempt (a redelivery) is in
    // its attempts list, not a step back to `failed` that would hide the success.
    const succeededBefore =
      !succeeded &&
      (await trx
        .selectFrom('webhook_delivery_attempts')
        .select('attempt')
        .where('delivery_id', '=', row.delivery_id)
        .where('succeeded', '=', 1)
        .limit(1)
        .executeTakeFirst()) !== undefined;
    if (succeeded) {
      state = 'succeeded';
      // Touches (and locks) the endpoint row only when it was failing: a healthy endpoint's row stays
      // free for the claims of other attempts (which skip locked endpoints).
      await trx.updateTable('webhooks').set({ failing_since: null }).where('webhook_id', '=', row.webhook_id).where('failing_since', 'is not', null).execute();
    } else {
      const endpoint = await trx.selectFrom('webhooks').selectAll().where('webhook_id', '=', row.webhook_id).$call(lockForUpdate(trx)).executeTakeFirst();
      const delay = Number(row.auto_retry) === 1 && result.status !== 410 ? nextRetryDelayMs(attempt, options.random) : null;
      state = succeededBefore ? 'succeeded' : delay === null ? 'failed' : 'pending';
      nextAttemptAt = delay === null || succeededBefore ? null : now + delay;
      if (endpoint !== undefined && endpoint.disabled_at === null) {
        const failingSince = endpoint.failing_since === null ? now : Number(endpoint.failing_since);
        if (endpoint.failing_since === null) await trx.updateTable('webhooks').set({ failing_since: now }).where('webhook_id', '=', endpoint.webhook_id).execute();
        if (result.status === 410) await disableWebhook(trx, endpoint, 'gone', now);
        else if (now - failingSince >= WEBHOOK_FAILING_DISABLE_MS) await disableWebhook(trx, endpoint, 'failing', now);
      }
    }
    await trx
      .updateTable('webhook_deliveries')
      .set({ state, attempts: attempt, next_attempt_at: nextAttemptAt, lease_owner: null, lease_expires_at: null, last_attempt_at: now, updated_at: now })
      .where('delivery_id', '=', row.delivery_id)
      .execute();
    return state;
  });
}

/** Gives back what a stopping worker still holds, due now, so another worker sends it without waiting for the lease. */
export async function releaseClaims(db: Kysely<Database>, owner: string, now: number): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ state: 'pending', next_attempt_at: now, lease_owner: null, lease_expires_at: null, updated_at: now })
    .where('state', '=', 'delivering')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Retention (VIGIL_EVENT_RETENTION_DAYS): finished deliveries (with their attempts) created before
 * the cutoff, then fanned-out events from before it that no delivery still refers to. Events not
 * yet fanned out, those a pending delivery still needs, and the newest event in the feed, are kept.
 */
export async function pruneEvents(db: Kysely<Database>, now: number, retentionMs: number): Promise<{ events: number; deliveries: number }> {
  const cutoff = now - retentionMs;
  return inTransaction(db, async (trx) => {
    const old = (eb: Kysely<Database>) =>
      eb.selectFrom('webhook_deliveries').select('delivery_id').where('state', 'in', ['succeeded', 'failed']).where('created_at', '<', cutoff);
    await trx.deleteFrom('webhook_delivery_attempts').where('delivery_id', 'in', old(trx)).execute();
    const deliveries = await trx.deleteFrom('webhook_deliveries').where('state', 'in', ['succeeded', 'failed']).where('created_at', '<', cutoff).executeTakeFirst();
    const events = await trx
      .deleteFrom('outbox_events')
      .where('delivered_at', 'is not', null)
      .where('delivered_at', '<', cutoff)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries as d').select('d.delivery_id').whereRef('d.event_id', '=', 'outbox_events.id'))))
      // The newest positioned event stays, however old: fan-out numbers on from the top position,
      // which must never go back (a reader's cursor would skip the reused positions), and the
      // feed refuses a cursor past it.
      .where(sql<boolean>`(feed_position is null or feed_position < (select max(top.feed_position) from outbox_events top))`)
      .executeTakeFirst();
    return { events: Number(events.numDeletedRows), deliveries: Number(deliveries.numDeletedRows) };
  });
}

async function ownDelivery(db: Kysely<Database>, webhookId: string, deliveryId: string, options: { lock?: boolean } = {}): Promise<DeliveryRow> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .where('webhook_id', '=', webhookId)
    .$call(options.lock ? lockForUpdate(db) : (q) => q)
    .executeTakeFirst();
  if (row === undefined) throw new VigilError('webhook_delivery_not_found');
  return row;
}

/** `GET /v1/webhooks/{id}/deliveries`: newest first, optionally of one state. */
export async function listDeliveries(
  db: Kysely<Database>,
  accountId: string,
  webhookId: string,
  query: { state?: WebhookDeliveryState | undefined; offset: number; limit: number },
): Promise<WebhookDelivery[]> {
  await ownWebhook(db, accountId, webhookId);
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .$call((q) => (query.state === undefined ? q : q.where('state', '=', query.state)))
    .orderBy('created_at', 'desc')
    .orderBy('event_seq', 'desc')
    .orderBy('delivery_id', 'desc')
    .offset(query.offset)
    .limit(query.limit)
    .execute();
  return rows.map(deliveryBody);
}

/** `GET /v1/webhooks/{id}/deliveries/{delivery_id}`: the delivery and every attempt, oldest first. */
export async function getDelivery(
  db: Kysely<Database>,
  accountId: string,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDelivery & { attempts_list: WebhookDeliveryAttempt[] }> {
  await ownWebhook(db, accountId, webhookId);
  const row = await ownDelivery(db, webhookId, deliveryId);
  const attempts = await db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('id').execute();
  return {
    ...deliveryBody(row),
    attempts_list: attempts.map((a) => ({
      attempt: Number(a.attempt),
      attempted_at: formatOffsetTimestamp(Number(a.attempted_at)),
      response_status: a.response_status === null ? null : Number(a.response_status),
      error: a.error,
      latency_ms: Number(a.latency_ms),
      response_excerpt: a.response_excerpt,
      succeeded: Number(a.succeeded) === 1,
    })),
  };
}

/**
 * `POST …/deliveries/{delivery_id}/redeliver`: the same delivery (same `X-Vigil-Delivery`, same
 * event) is due now. A finished one (succeeded or failed) gets one more attempt, not retried if it
 * fails; a pending one just stops waiting; one being sent right now is left as it is.
 */
export async function redeliver(db: Kysely<Database>, accountId: string, webhookId: string, deliveryId: string, now: number): Promise<WebhookDelivery> {
  return inTransaction(db, async (trx) => {
    await ownWebhook(trx, accountId, webhookId);
    const row = await ownDelivery(trx, webhookId, deliveryId, { lock: true });
    if (row.state === 'delivering') return deliveryBody(row);
    const next: DeliveryRow = { ...row, state: 'pending', next_attempt_at: now, updated_at: now, auto_retry: row.state === 'pending' ? row.auto_retry : 0 };
    await trx
      .updateTable('webhook_deliveries')
      .set({ state: next.state, next_attempt_at: next.next_attempt_at, updated_at: now, auto_retry: next.auto_retry })
      .where('delivery_id', '=', deliveryId)
      .execute();
    return deliveryBody(next);
  });
}

/** `POST /v1/webhooks/{id}/recover`: every failed delivery created at or after `since` gets one more attempt now. */
export async function recoverDeliveries(db: Kysely<Database>, accountId: string, webhookId: string, since: number, now: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    await ownWebhook(trx, accountId, webhookId, { lock: true });
    const result = await trx
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', next_attempt_at: now, auto_retry: 0, updated_at: now })
      .where('webhook_id', '=', webhookId)
      .where('state', '=', 'failed')
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}

/**
 * `POST /v1/webhooks/{id}/test`: a `webhook.test` event for this endpoint alone (subscribed or
 * not), with its delivery due now. Refused while the endpoint is paused or disabled: nothing would
 * send it. The event is its own resource (`webhook-test:<id>`), so the numbering receivers of
 * `webhook:<id>` events see has no gaps from tests sent to another endpoint.
 */
export async function sendTestEvent(db: Kysely<Database>, accountId: string, webhookId: string, now: number): Promise<WebhookDelivery> {
  return inTransaction(db, async (trx) => {
    const endpoint = await ownWebhook(trx, accountId, webhookId, { lock: true });
    if (Number(endpoint.active) !== 1 || endpoint.disabled_at !== null) throw new VigilError('webhook_not_active');
    const eventId = await enqueueOutboxEvent(
      trx,
      'webhook.test',
      { webhook: webhookId, message: 'This is a test event sent on request from the Vigil API.', requested_at: formatOffsetTimestamp(now) },
      now,
      { resource: `webhook-test:${webhookId}`, accountId },
    );
    const event = await trx.selectFrom('outbox_events').select(['seq']).where('id', '=', eventId).executeTakeFirstOrThrow();
    // Delivered to this endpoint only: never fanned out, never in the feed.
    await trx.updateTable('outbox_events').set({ delivered_at: now }).where('id', '=', eventId).execute();
    const row: DeliveryRow = {
      delivery_id: randomUUID(),
      webhook_id: webhookId,
      event_id: eventId,
      event_seq: Number(event.seq),
      event_type: 'webhook.test',
      state: 'pending',
      attempts: 0,
      auto_retry: 1,
      next_attempt_at: now,
      lease_owner: null,
      lease_expires_at: null,
      last_attempt_at: null,
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto('webhook_deliveries').values(row).execute();
    return deliveryBody(row);
  });
}

export interface DeliveryBacklog {
  byState: Record<'pending' | 'delivering' | 'failed', number>;
  oldestPendingAt: number | null;
}

/** For the admin outbox view: deliveries waiting, in flight and failed (retained), and the oldest waiting. */
export async function deliveryBacklog(db: Kysely<Database>): Promise<DeliveryBacklog> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => ['state', eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('state', 'in', ['pending', 'delivering', 'failed'])
    .groupBy('state')
    .execute();
  const byState = { pending: 0, delivering: 0, failed: 0 };
  let oldestPendingAt: number | null = null;
  for (const row of rows) {
    byState[row.state as keyof typeof byState] = Number(row.n);
    if (row.state === 'pending') oldestPendingAt = Number(row.oldest);
  }
  return { byState, oldestPendingAt };
}

export type { WebhookEventKind };
