import type { WebhookEvent } from '@vigil/core';
import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, OutboxKind } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { webhookEventOf } from '../../platform/outbox.js';
import type { SecretBox } from '../../platform/secrets/secret-box.js';
import { NETWORK_WIDE_KINDS } from './webhook-deliveries.js';

/**
 * Where a reader of the feed stands: after feed position `p`, read at (or fanned out at) time `t`.
 * `t` is what retention is judged on: a cursor older than the retention period may have missed
 * pruned events, so it is refused rather than silently skipping them.
 */
interface Cursor {
  p: number;
  t: number;
  /** Where the cursor was read from, to name it in a refusal. */
  path?: string;
}

const PREFIX = 'evc_';
const PURPOSE = 'events-cursor';
/** The tag kept in a cursor: HMAC-SHA-256 cut to 128 bits, ample against forgery. */
const TAG_BYTES = 16;

/** The one wording of every refused cursor (the query schema's, for one that is not even `evc_…`). */
export const INVALID_EVENT_CURSOR = 'expected a next_cursor value of a previous answer';

/** A path-and-message pair naming where a refused cursor came from (`query.after` or the header). */
function invalidCursor(path: string): VigilError {
  return new VigilError('validation_error', { issues: [{ path, message: INVALID_EVENT_CURSOR }] });
}

/**
 * `evc_` + base64url(tag ‖ JSON [p, t]), the tag an HMAC under a key derived from the server key
 * (platform/secrets/secret-box.ts): a client cannot make a cursor up, move its position or renew its time
 * (which would slip past the retention check), only hand back one this deployment gave out.
 */
export function encodeEventCursor(secrets: Pick<SecretBox, 'authenticate'>, cursor: Cursor): string {
  const payload = Buffer.from(JSON.stringify([cursor.p, cursor.t]), 'utf8');
  const tag = secrets.authenticate(PURPOSE, payload).subarray(0, TAG_BYTES);
  return `${PREFIX}${Buffer.concat([tag, payload]).toString('base64url')}`;
}

export function decodeEventCursor(secrets: Pick<SecretBox, 'authenticate'>, text: string, path = 'query.after'): Cursor {
  if (!text.startsWith(PREFIX) || !/^[A-Za-z0-9_-]+$/.test(text.slice(PREFIX.length))) throw invalidCursor(path);
  const bytes = Buffer.from(text.slice(PREFIX.length), 'base64url');
  if (bytes.byteLength <= TAG_BYTES) throw invalidCursor(path);
  const payload = bytes.subarray(TAG_BYTES);
  const expected = secrets.authenticate(PURPOSE, payload).subarray(0, TAG_BYTES);
  if (!timingSafeEqual(expected, bytes.subarray(0, TAG_BYTES))) throw invalidCursor(path);
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    throw invalidCursor(path);
  }
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) throw invalidCursor(path);
  return { p: value[0] as number, t: value[1] as number, path };
}

export interface EventFeedPage {
  events: WebhookEvent[];
  nextCursor: string;
  hasMore: boolean;
}

/**
 * `GET /v1/events`: the account's events (its own and the network-wide kinds; never test events)
 * after the cursor, in feed order (the order they were fanned out, which follows commit order),
 * at most `limit`, optionally of some kinds only. A cursor past the newest position ever given out
 * (this deployment's database restored to an older copy, say) is refused like a made-up one, not
 * read as "nothing new yet": the events it would wait for already have lower positions.
 */
export async function readEventFeed(
  db: Kysely<Database>,
  secrets: Pick<SecretBox, 'authenticate'>,
  accountId: string,
  query: { after: Cursor | null; types: readonly OutboxKind[] | undefined; limit: number; now: number; retentionMs: number },
): Promise<EventFeedPage> {
  if (query.after !== null && query.after.t < query.now - query.retentionMs) throw new VigilError('events_cursor_expired');
  if (query.after !== null && query.after.p > 0) {
    // Retention always keeps the newest positioned event (pruneEvents), so this is the top ever given out.
    const top = await db.selectFrom('outbox_events').select((eb) => eb.fn.max('feed_position').as('p')).executeTakeFirst();
    if (query.after.p > Number(top?.p ?? 0)) throw invalidCursor(query.after.path ?? 'query.after');
  }
  const after = query.after === null ? null : { p: query.after.p, t: query.after.t };
  if (query.types !== undefined && query.types.length === 0) return { events: [], nextCursor: encodeEventCursor(secrets, after ?? { p: 0, t: query.now }), hasMore: false };
  const rows = await db
    .selectFrom('outbox_events')
    .select(['id', 'kind', 'payload', 'created_at', 'resource', 'sequence', 'feed_position', 'delivered_at'])
    .where('feed_position', '>', after?.p ?? 0)
    .where('kind', '!=', 'webhook.test')
    .where((eb) => eb.or([eb('account_id', '=', accountId), eb.and([eb('account_id', 'is', null), eb('kind', 'in', [...NETWORK_WIDE_KINDS])])]))
    .$call((q) => (query.types === undefined ? q : q.where('kind', 'in', [...query.types])))
    .orderBy('feed_position')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  // An empty page renews the cursor's time: nothing after its position existed when it was read.
  const nextCursor = last === undefined ? { p: after?.p ?? 0, t: query.now } : { p: Number(last.feed_position), t: Number(last.delivered_at) };
  return { events: page.map(webhookEventOf), nextCursor: encodeEventCursor(secrets, nextCursor), hasMore: rows.length > query.limit };
}

/**
 * `GET /v1/events?from=newest`: a cursor after the newest event ever handed out (its time now), so a
 * reader starts watching without paging through the retained feed first.
 */
export async function newestEventCursor(db: Kysely<Database>, secrets: Pick<SecretBox, 'authenticate'>, now: number): Promise<string> {
  const top = await db.selectFrom('outbox_events').select((eb) => eb.fn.max('feed_position').as('p')).executeTakeFirst();
  return encodeEventCursor(secrets, { p: Number(top?.p ?? 0), t: now });
}
