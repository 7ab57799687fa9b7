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

export interface OutboxBacklogCounts {
  total: number;
  undeliveredByKind: Partial<Record<OutboxEventKind, number>>;
  oldestUndeliveredAt: number | null;
}

/** How far deliveries are behind: every event ever enqueued, undelivered ones per kind, the oldest of them. */
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
  const undeliveredByKind: Partial<Record<OutboxEventKind, number>> = {};
  let oldest: number | null = null;
  for (const row of byKind) {
    undeliveredByKind[row.kind] = Number(row.n);
    const at = Number(row.oldest);
    if (oldest === null || at < oldest) oldest = at;
  }
  return { total: Number(total?.n ?? 0), undeliveredByKind, oldestUndeliveredAt: oldest };
}
