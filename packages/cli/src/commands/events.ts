import { VigilApiError, type EventPage, type Vigil } from '@vigil/client';
import type { WebhookEventKind } from '@vigil/core';
import { Option, type Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import type { Context } from '../context.js';
import { intArg } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { when } from '../output.js';
import { kindsArg } from './kinds.js';

function printEvents(ctx: Context, page: EventPage): void {
  if (ctx.json) {
    // One event a line (JSON Lines), each exactly as the server sent it, so a pipe can read them as they come.
    const raw = (ctx.recorder.last as { data?: unknown[] } | undefined)?.data ?? [];
    for (const event of raw) ctx.io.stdout(`${JSON.stringify(event)}\n`);
    return;
  }
  for (const e of page.items) ctx.out.line(`${when(e.created_at)}  ${e.type.padEnd(19)}  ${e.resource}  #${e.sequence}  ${e.id}`);
}

/** The largest `limit` of GET /v1/events: a long feed in the fewest requests (300 a minute per address). */
const EVENTS_PAGE_MAX = 100;

/**
 * The cursor after the newest event of the feed: one request (`from=newest`). A server from before
 * `from` ignores it and answers the feed's first page (or refuses it, 422); then the feed is read to
 * its end at the largest page size (100), one request per 100 retained events, printing nothing (a
 * 429 on the way is waited out by the SDK).
 */
export async function newestCursor(ctx: Context, vigil: Vigil, types: WebhookEventKind[] | undefined): Promise<string> {
  const filter = { ...(types === undefined ? {} : { types }), limit: EVENTS_PAGE_MAX };
  let page: EventPage | null = null;
  try {
    page = await vigil.events.list({ from: 'newest', ...filter });
    if (page.items.length === 0 && !page.hasNextPage()) return page.nextCursor;
  } catch (error) {
    if (!(error instanceof VigilApiError) || error.status !== 422) throw error;
  }
  return ctx.withProgress('reading the events feed to its newest event', async (progress) => {
    let skipped = page?.items.length ?? 0;
    while (page === null || page.hasNextPage()) {
      page = await vigil.events.list({ ...(page === null ? {} : { after: page.nextCursor }), ...filter });
      skipped += page.items.length;
      progress.update(`reading the events feed to its newest event: ${skipped} skipped`);
    }
    return page.nextCursor;
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The account's events feed (docs/webhooks.md, "The events feed"; scope webhooks). */
export function registerEvents(program: Command, kit: Kit): void {
  const events = program.command('events').description("the account's events feed (GET /v1/events)");
  examples(
    events
      .command('tail')
      .description('prints the events after a cursor (absent: from the oldest retained; --from-now: after the newest) up to the newest, oldest first; --follow keeps polling for new ones')
      .option('--types <kinds>', 'only these kinds, comma-separated', kindsArg('--types'))
      .option('--after <cursor>', 'start after this cursor (a next_cursor a previous run printed)')
      .option('--from-now', 'start after the newest event (skips what the feed holds)')
      .option('--follow', 'keep polling after the newest event (stop with Ctrl-C)')
      .addOption(new Option('--interval <seconds>', 'with --follow: seconds between polls when caught up, 1-3600').argParser(intArg('--interval', 1, 3600)).default(5))
      .addOption(new Option('--limit <n>', 'events per request, 1-100').argParser(intArg('--limit', 1, EVENTS_PAGE_MAX)).default(EVENTS_PAGE_MAX))
      .action(
        action(kit, async (ctx, opts: { types?: WebhookEventKind[]; after?: string; fromNow?: boolean; follow?: boolean; interval: number; limit: number }) => {
          if (opts.fromNow && opts.after !== undefined) throw new UsageError('--from-now: not with --after (both say where to start)');
          const vigil = await ctx.customer();
          let cursor = opts.fromNow ? await newestCursor(ctx, vigil, opts.types) : opts.after;
          for (;;) {
            const page: EventPage = await vigil.events.list({
              ...(cursor === undefined ? {} : { after: cursor }),
              ...(opts.types === undefined ? {} : { types: opts.types }),
              limit: opts.limit,
            });
            printEvents(ctx, page);
            cursor = page.nextCursor;
            if (page.hasNextPage()) continue;
            if (!opts.follow) break;
            await sleep(opts.interval * 1000);
          }
          ctx.out.note(`Next: --after ${cursor}`);
        }),
      ),
    ['vigil events tail --types verdict.changed', 'vigil events tail --follow --json | jq -c "select(.type == \\"round.closed\\")"', 'vigil events tail --after evc_… --follow', 'vigil events tail --from-now --follow'],
  );
}

