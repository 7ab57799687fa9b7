import type { WebhookEvent, WebhookEventKind } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { VigilError } from '../errors.js';
import { webhookEventOf } from '../repositories/outbox.js';
import { NETWORK_WIDE_KINDS } from './webhook-deliveries.js';

/**
 * Where a reader of the feed stands: after feed position `p`, read at (or fanned out at) time `t`.
 * `t` is what retention is judged on: a cursor older than the retention period may have missed
 * pruned events, so it is refused rather than silently skipping them.
 */
interface Cursor {
  p: number;
  t: number;
}

const PREFIX = 'evc_';

export function encodeEventCursor(cursor: Cursor): string {
  return `${PREFIX}${Buffer.from(JSON.stringify([cursor.p, cursor.t]), 'utf8').toString('base64url')}`;
}

function invalidCursor(path: string): VigilError {
  return new VigilError('validation_error', { issues: [{ path, message: 'expected the next_cursor value of a previous answer' }] });
}

export function decodeEventCursor(text: string, path = 'query.after'): Cursor {
  if (!text.startsWith(PREFIX)) throw invalidCursor(path);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor(path);
  }
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) throw invalidCursor(path);
  return { p: value[0] as number, t: value[1] as number };
}

export interface EventFeedPage {
  events: WebhookEvent[];
  nextCursor: string;
  hasMore: boolean;
}

/**
 * `GET /v1/events`: the account's events (its own and the network-wide kinds; never test events)
 * after the cursor, in feed order (the order they were fanned out, which follows commit order),
 * at most `limit`, optionally of some kinds only.
 */
export async function readEventFeed(
  db: Kysely<Database>,
  accountId: string,
  query: { after: Cursor | null; types: readonly WebhookEventKind[] | undefined; limit: number; now: number; retentionMs: number },
): Promise<EventFeedPage> {
  if (query.after !== null && query.after.t < query.now - query.retentionMs) throw new VigilError('events_cursor_expired');
  if (query.types !== undefined && query.types.length === 0) return { events: [], nextCursor: encodeEventCursor(query.after ?? { p: 0, t: query.now }), hasMore: false };
  const rows = await db
    .selectFrom('outbox_events')
    .select(['id', 'kind', 'payload', 'created_at', 'resource', 'sequence', 'feed_position', 'delivered_at'])
    .where('feed_position', '>', query.after?.p ?? 0)
    .where('kind', '!=', 'webhook.test')
    .where((eb) => eb.or([eb('account_id', '=', accountId), eb.and([eb('account_id', 'is', null), eb('kind', 'in', [...NETWORK_WIDE_KINDS])])]))
    .$call((q) => (query.types === undefined ? q : q.where('kind', 'in', [...query.types])))
    .orderBy('feed_position')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  // An empty page renews the cursor's time: nothing after its position existed when it was read.
  const nextCursor = last === undefined ? { p: query.after?.p ?? 0, t: query.now } : { p: Number(last.feed_position), t: Number(last.delivered_at) };
  return { events: page.map(webhookEventOf), nextCursor: encodeEventCursor(nextCursor), hasMore: rows.length > query.limit };
}
