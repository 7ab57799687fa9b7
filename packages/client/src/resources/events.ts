import { EventFeed } from '@vigil/core';
import type { WebhookEventKind } from '@vigil/core';
import type { Dated } from '../dates.js';
import { Page, PagePromise } from '../pagination.js';
import type { CallOptions, Transport } from '../transport.js';

export type FeedEvent = Dated<typeof EventFeed>['data'][number];

export interface EventListParams {
  /** A `next_cursor` of an earlier answer (absent: from the oldest retained event). */
  after?: string;
  /**
   * `newest`: no events, only a `nextCursor` after the newest one, to start watching now without
   * reading the feed (not with `after`).
   */
  from?: 'newest';
  /** Only these kinds. */
  types?: WebhookEventKind[];
  /** Events per page, 1-100 (server default 50). */
  limit?: number;
}

/**
 * One page of the events feed. Unlike other pages it always has a cursor: `nextCursor` is where
 * the next read starts, also after the last page (poll with it as `after`). `nextPage` is the same
 * cursor, set only when more events were already waiting (`X-Vigil-Next-Page`).
 */
export class EventPage extends Page<FeedEvent> {
  readonly nextCursor: string;

  constructor(items: FeedEvent[], nextPage: string | null, nextCursor: string, fetchPage: (cursor: string) => Promise<Page<FeedEvent>>) {
    super(items, nextPage, fetchPage);
    this.nextCursor = nextCursor;
  }
}

/** `GET /v1/events` (docs/webhooks.md, "The events feed"; scope `webhooks`). */
export class Events {
  constructor(private readonly transport: Transport) {}

  /**
   * The account's events after a cursor, oldest first. Await it for one page (`EventPage`, with
   * `nextCursor`); iterate it with `for await` for every event up to the newest, each next page
   * read with `after` = the previous `next_cursor` while `X-Vigil-Next-Page` says more are waiting.
   */
  list(params: EventListParams = {}, options?: CallOptions): PagePromise<FeedEvent, EventPage> {
    const types = params.types === undefined ? undefined : params.types.join(',');
    // `from` says where the first page starts; later pages continue from their cursor.
    const load = async (after: string | undefined, from: 'newest' | undefined): Promise<EventPage> => {
      const answer = await this.transport.request(
        { method: 'GET', path: '/v1/events', query: { after, from, types, limit: params.limit }, schema: EventFeed, repeatable: 'safe' },
        options,
      );
      return new EventPage(answer.data.data, answer.nextPage, answer.data.next_cursor, (cursor) => load(cursor, undefined));
    };
    return new PagePromise(() => load(params.after, params.from));
  }
}
