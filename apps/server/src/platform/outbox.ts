import { randomUUID } from 'node:crypto';
import { formatOffsetTimestamp, WEBHOOK_EVENT_VERSION, type WebhookEvent } from '@vigil/core';
import type { Kysely } from 'kysely';
import { takeTurnsOn } from './db/dialect.js';
import type { Database, OutboxEventsTable, OutboxKind } from './db/schema.js';

export type OutboxEventKind = Exclude<OutboxEventsTable['kind'], 'webhook.test'>;

/** Who an event is for and what it is about (docs/webhooks.md, "Audiences" and "The event envelope"). */
export interface OutboxAudience {
  /** `artifact:<bundle_hash>`, `attestation:<canonical_hash>`, `repository:<id>`, `round:<id>`, `webhook:<id>`. */
  resource: string;
  /** The one account that may receive the event; null for a network-wide event (every account). */
  accountId: string | null;
}

/**
 * Appends an event to the transactional outbox. Call it with the transaction that makes the state
 * change, so the event exists if and only if the change committed. The id is the event id that
 * deliveries carry (and receivers deduplicate on). The event takes the next number of its resource:
 * enqueues on one resource take turns until their transactions end, so numbers follow commit order
 * and never collide (the unique index on (resource, sequence) backs this).
 */
export async function enqueueOutboxEvent(
  trx: Kysely<Database>,
  kind: OutboxKind,
  payload: Record<string, unknown>,
  now: number,
  audience: OutboxAudience,
): Promise<string> {
  const id = randomUUID();
  await takeTurnsOn(trx, `outbox:${audience.resource}`);
  const last = await trx
    .selectFrom('outbox_events')
    .select((eb) => eb.fn.max('sequence').as('n'))
    .where('resource', '=', audience.resource)
    .executeTakeFirst();
  await trx
    .insertInto('outbox_events')
    .values({
      id,
      kind,
      payload: JSON.stringify(payload),
      created_at: now,
      delivered_at: null,
      last_error: null,
      account_id: audience.accountId,
      resource: audience.resource,
      sequence: Number(last?.n ?? 0) + 1,
      feed_position: null,
    })
    .execute();
  return id;
}

/** The outbox columns an event body is made from. */
export interface OutboxEnvelopeRow {
  id: string;
  kind: OutboxKind;
  payload: string;
  created_at: number | string;
  resource: string;
  sequence: number | string;
}

/**
 * The one place an event body is built: what every delivery POSTs and every `GET /v1/events` item
 * is. Deterministic, so every attempt of a delivery sends the same bytes.
 */
export function webhookEventOf(row: OutboxEnvelopeRow): WebhookEvent {
  return {
    id: row.id,
    type: row.kind,
    version: WEBHOOK_EVENT_VERSION,
    created_at: formatOffsetTimestamp(Number(row.created_at)),
    resource: row.resource,
    sequence: Number(row.sequence),
    data: JSON.parse(row.payload) as never,
  } as WebhookEvent;
}

export interface OutboxEventRow {
  id: string;
  kind: OutboxKind;
  payload: Record<string, unknown>;
  created_at: number;
  account_id: string | null;
  resource: string;
  sequence: number;
}

/** Events not yet fanned out into deliveries, oldest first. */
export async function pendingOutboxEvents(db: Kysely<Database>, limit: number): Promise<OutboxEventRow[]> {
  const rows = await db
    .selectFrom('outbox_events')
    .select(['id', 'kind', 'payload', 'created_at', 'account_id', 'resource', 'sequence'])
    .where('delivered_at', 'is', null)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at), sequence: Number(r.sequence), payload: JSON.parse(r.payload) as Record<string, unknown> }));
}

export interface OutboxBacklogCounts {
  total: number;
  undeliveredByKind: Partial<Record<OutboxKind, number>>;
  oldestUndeliveredAt: number | null;
}

/** How far fan-out is behind: every event retained, those not yet fanned out per kind, the oldest of them. */
export async function outboxBacklog(db: Kysely<Database>): Promise<OutboxBacklogCounts> {
  const [total, byKind] = await Promise.all([
    db
      .selectFrom('outbox_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
    db
      .selectFrom('outbox_events')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('delivered_at', 'is', null)
      .groupBy('kind')
      .execute(),
  ]);
  const undeliveredByKind: Partial<Record<OutboxKind, number>> = {};
  let oldest: number | null = null;
  for (const row of byKind) {
    undeliveredByKind[row.kind] = Number(row.n);
    const at = Number(row.oldest);
    if (oldest === null || at < oldest) oldest = at;
  }
  return { total: Number(total?.n ?? 0), undeliveredByKind, oldestUndeliveredAt: oldest };
}
