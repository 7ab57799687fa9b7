import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, OutboxEventsTable } from '../db/schema.js';

export type OutboxEventKind = OutboxEventsTable['kind'];

/**
 * Appends an event to the transactional outbox. Call it with the transaction that makes the state
 * change, so the event exists if and only if the change committed. The id is the event id that
 * deliveries carry (and receivers deduplicate on).
 */
export async function enqueueOutboxEvent(
  trx: Kysely<Database>,
  kind: OutboxEventKind,
  payload: Record<string, unknown>,
  now: number,
): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto('outbox_events')
    .values({ id, kind, payload: JSON.stringify(payload), created_at: now, delivered_at: null, last_error: null })
    .execute();
  return id;
}

export interface OutboxEventRow {
  id: string;
  kind: OutboxEventKind;
  payload: Record<string, unknown>;
  created_at: number;
}

/** Undelivered events, oldest first. */
export async function pendingOutboxEvents(db: Kysely<Database>, limit: number): Promise<OutboxEventRow[]> {
  const rows = await db
    .selectFrom('outbox_events')
    .select(['id', 'kind', 'payload', 'created_at'])
    .where('delivered_at', 'is', null)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as Record<string, unknown> }));
}
