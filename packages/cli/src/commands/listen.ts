import { randomBytes, randomUUID } from 'node:crypto';
import type { EventPage } from '@vigil/client';
import type { WebhookEventKind } from '@vigil/core';
import { signWebhookPayload } from '@vigil/webhooks';
import { Option, type Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import type { Context } from '../context.js';
import { intArg } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { newestCursor } from './events.js';
import { kindsArg } from './kinds.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A secret of the server's form (`whsec_` + 40 letters and digits), so a receiver configured for Vigil takes it as is. */
function sessionSecret(): string {
  // 248 = 4 × 62: bytes at or above it are dropped so every character is equally likely.
  const chars: string[] = [];
  while (chars.length < 40) for (const byte of randomBytes(64)) if (byte < 248 && chars.length < 40) chars.push(ALPHANUMERIC[byte % 62]!);
  return `whsec_${chars.join('')}`;
}

function forwardUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--forward-to: expected an http:// or https:// URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--forward-to: expected an http:// or https:// URL, got ${JSON.stringify(value)}`);
  return url.href;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The raw events of the page the recorder saw last: forwarded byte for byte as the server wrote them. */
function rawEvents(ctx: Context): { type: string; id: string }[] {
  return ((ctx.recorder.last as { data?: { type: string; id: string }[] } | undefined)?.data ?? []);
}

/** `vigil webhooks listen`: the events feed relayed to a local receiver, signed as Vigil signs deliveries. */
export function registerListen(webhooks: Command, kit: Kit): void {
  examples(
    webhooks
      .command('listen')
      .description('polls the events feed from now and POSTs each new event to --forward-to, signed with a session secret it prints (for developing a receiver)')
      .requiredOption('--forward-to <url>', 'the receiver (http:// or https://, e.g. http://localhost:3000/webhooks)', forwardUrl)
      .option('--types <kinds>', 'only these kinds, comma-separated', kindsArg('--types'))
      .addOption(new Option('--interval <seconds>', 'seconds between polls when caught up, 1-3600').argParser(intArg('--interval', 1, 3600)).default(2))
      .action(
        action(kit, async (ctx, opts: { forwardTo: string; types?: WebhookEventKind[]; interval: number }) => {
          const types = opts.types;
          const vigil = await ctx.customer();
          const secret = sessionSecret();
          const read = async (after: string): Promise<EventPage> =>
            await vigil.events.list({ after, ...(types === undefined ? {} : { types }), limit: 100 });
          // From now: skip what the feed already holds.
          let cursor = await newestCursor(ctx, vigil, types);
          let page: EventPage;
          ctx.out.line(`Session secret: ${secret}`);
          ctx.out.line(`Forwarding new events to ${opts.forwardTo} (Ctrl-C to stop).`);
          for (;;) {
            page = await read(cursor);
            for (const event of rawEvents(ctx)) {
              const body = JSON.stringify(event);
              const timestamp = Math.floor(Date.now() / 1000);
              const headers = {
                'content-type': 'application/json',
                'user-agent': 'Vigil-Webhooks/1 (vigil webhooks listen)',
                'x-vigil-event': event.type,
                'x-vigil-delivery': randomUUID(),
                'x-vigil-timestamp': String(timestamp),
                'x-vigil-signature': signWebhookPayload(secret, timestamp, body),
              };
              const outcome = await fetch(opts.forwardTo, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(15_000) }).then(
                async (response) => {
                  await response.body?.cancel();
                  return String(response.status);
                },
                (error: unknown) => `failed: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
              );
              ctx.out.line(`${event.type}  ${event.id}  -> ${outcome}`);
            }
            cursor = page.nextCursor;
            if (!page.hasNextPage()) await sleep(opts.interval * 1000);
          }
        }),
      ),
    ['vigil webhooks listen --forward-to http://localhost:3000/webhooks', 'vigil webhooks listen --forward-to http://localhost:3000/webhooks --types verdict.changed'],
  );
}
