import { WEBHOOK_DELIVERY_STATES, WEBHOOK_EVENT_KINDS, type WebhookDeliveryState, type WebhookEventKind } from '@vigil/core';
import { Option, type Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { choiceArg, intArg } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { when } from '../output.js';
import { pageOptions, readPages, sdkPageOptions, type PageFlags } from '../pages.js';
import { kindsArg } from './kinds.js';
import { registerListen } from './listen.js';

function sinceArg(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new UsageError(`--since: expected a timestamp with offset, e.g. 2026-11-21T10:00:00+00:00, got ${JSON.stringify(value)}`);
  }
  return value.replace(/Z$/, '+00:00');
}

interface WebhookLike {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  secret_rotation: { previous_secret_expires_at: Date } | null;
  created_at: Date;
  updated_at: Date;
}

function status(w: WebhookLike): string {
  return w.active ? 'active' : w.disabled_reason === null ? 'paused' : `disabled (${w.disabled_reason})`;
}

function webhookFields(w: WebhookLike): [string, string | number | boolean | null | undefined][] {
  return [
    ['webhook', w.id],
    ['url', w.url],
    ['events', w.events.join(', ')],
    ['status', status(w)],
    ['disabled at', w.disabled_at === null ? null : when(w.disabled_at)],
    ['previous secret until', w.secret_rotation === null ? null : when(w.secret_rotation.previous_secret_expires_at)],
    ['created', when(w.created_at)],
    ['updated', when(w.updated_at)],
  ];
}

/** The account's webhook endpoints and their deliveries (docs/webhooks.md; scope webhooks). */
export function registerWebhooks(program: Command, kit: Kit): void {
  const webhooks = program.command('webhooks').alias('webhook').description("the account's webhook endpoints: create, list, update, test, deliveries, secrets");
  examples(
    webhooks
      .command('create <url>')
      .description('a new endpoint at <url> (https://), where deliveries are POSTed; prints its signing secret, shown this once (POST /v1/webhooks)')
      .requiredOption('--events <kinds>', `comma-separated: ${WEBHOOK_EVENT_KINDS.join(', ')}`, kindsArg('--events'))
      .action(
        action(kit, async (ctx, url: string, opts: { events: WebhookEventKind[] }) => {
          const w = await (await ctx.customer()).webhooks.create({ url, events: opts.events });
          ctx.emit(() => {
            ctx.out.fields([...webhookFields(w).slice(0, 4), ['secret', w.secret]]);
            ctx.out.note('The secret is shown this once: store it where your receiver reads it.');
          });
        }),
      ),
    ['vigil webhooks create https://hooks.example/vigil --events verdict.changed,round.closed'],
  );
  examples(
    pageOptions(webhooks.command('list').description("the account's endpoints, oldest first (GET /v1/webhooks)")).action(
      action(kit, async (ctx, flags: PageFlags) => {
        const { items, raw } = await readPages(ctx, (await ctx.customer()).webhooks.list(sdkPageOptions(flags)), 'data', flags);
        ctx.emit(() => ctx.out.table(['webhook', 'url', 'events', 'status', 'created'], items.map((w) => [w.id, w.url, w.events.join(','), status(w), when(w.created_at)])), raw);
      }),
    ),
    ['vigil webhooks list', 'vigil webhooks list --all --json | jq -r ".data[].url"'],
  );
  examples(
    webhooks
      .command('get <webhook_id>')
      .description('one endpoint (GET /v1/webhooks/{id})')
      .action(
        action(kit, async (ctx, id: string) => {
          const w = await (await ctx.customer()).webhooks.get(id);
          ctx.emit(() => ctx.out.fields(webhookFields(w)));
        }),
      ),
    ['vigil webhooks get wh_4f3c2a1b0e9d8c7b6a594837'],
  );
  examples(
    webhooks
      .command('update <webhook_id>')
      .description('changes the URL, the events, or pauses/resumes (POST /v1/webhooks/{id}); --resume also re-enables an endpoint Vigil disabled')
      // Not --url: that is the global alias of --base-url.
      .option('--endpoint <url>', 'a new URL')
      .option('--events <kinds>', 'the new list of kinds (replaces the old)', kindsArg('--events'))
      .option('--pause', 'stop sending (deliveries wait)')
      .option('--resume', 'send again (and re-enable a disabled endpoint)')
      .action(
        action(kit, async (ctx, id: string, opts: { endpoint?: string; events?: WebhookEventKind[]; pause?: boolean; resume?: boolean }) => {
          if (opts.pause && opts.resume) throw new UsageError('--pause and --resume: give one of them');
          const changes = {
            ...(opts.endpoint === undefined ? {} : { url: opts.endpoint }),
            ...(opts.events === undefined ? {} : { events: opts.events }),
            ...(opts.pause ? { active: false } : opts.resume ? { active: true } : {}),
          };
          if (Object.keys(changes).length === 0) throw new UsageError('nothing to update: give --endpoint, --events, --pause or --resume');
          const w = await (await ctx.customer()).webhooks.update(id, changes);
          ctx.emit(() => ctx.out.fields(webhookFields(w)));
        }),
      ),
    ['vigil webhooks update wh_4f3c2a1b0e9d8c7b6a594837 --events verdict.changed', 'vigil webhooks update wh_4f3c2a1b0e9d8c7b6a594837 --pause'],
  );
  examples(
    webhooks
      .command('delete <webhook_id>')
      .description('removes the endpoint, its secrets and its deliveries (DELETE /v1/webhooks/{id})')
      .action(
        action(kit, async (ctx, id: string) => {
          await (await ctx.customer()).webhooks.delete(id);
          // 204: the server sends no body, so --json prints nothing.
          if (!ctx.json) ctx.out.line(`Deleted webhook ${id}.`);
        }),
      ),
    ['vigil webhooks delete wh_4f3c2a1b0e9d8c7b6a594837'],
  );
  examples(
    webhooks
      .command('rotate <webhook_id>')
      .description('a new signing secret, shown this once (POST /v1/webhooks/{id}/rotate-secret); --revoke-previous ends an overlap now')
      .addOption(new Option('--overlap <seconds>', 'how long the previous secret still signs, 0-604800 (server default 86400)').argParser(intArg('--overlap', 0, 604800)))
      .option('--revoke-previous', 'no new secret: end the current overlap now (POST /v1/webhooks/{id}/revoke-previous-secret)')
      .action(
        action(kit, async (ctx, id: string, opts: { overlap?: number; revokePrevious?: boolean }) => {
          const vigil = await ctx.customer();
          if (opts.revokePrevious) {
            if (opts.overlap !== undefined) throw new UsageError('--overlap and --revoke-previous: give one of them');
            const w = await vigil.webhooks.revokePreviousSecret(id);
            ctx.emit(() => ctx.out.line(`Revoked the previous secret of webhook ${w.id}: only the current secret signs.`));
            return;
          }
          const w = await vigil.webhooks.rotateSecret(id, opts.overlap === undefined ? {} : { overlap_seconds: opts.overlap });
          ctx.emit(() => {
            ctx.out.fields([
              ['webhook', w.id],
              ['secret', w.secret],
              ['previous secret until', w.secret_rotation === null ? 'revoked now' : when(w.secret_rotation.previous_secret_expires_at)],
            ]);
            ctx.out.note('The new secret is shown this once.');
          });
        }),
      ),
    ['vigil webhooks rotate wh_4f3c2a1b0e9d8c7b6a594837 --overlap 3600', 'vigil webhooks rotate wh_4f3c2a1b0e9d8c7b6a594837 --revoke-previous'],
  );
  examples(
    webhooks
      .command('test <webhook_id>')
      .description('sends a webhook.test event to this endpoint (POST /v1/webhooks/{id}/test)')
      .action(
        action(kit, async (ctx, id: string) => {
          const d = await (await ctx.customer()).webhooks.test(id);
          ctx.emit(() => ctx.out.line(`Queued test delivery ${d.id} to webhook ${d.webhook} (${d.state}); see: vigil webhooks deliveries ${d.webhook} ${d.id}`));
        }),
      ),
    ['vigil webhooks test wh_4f3c2a1b0e9d8c7b6a594837'],
  );
  examples(
    pageOptions(
      webhooks
        .command('deliveries <webhook_id> [delivery_id]')
        .description("an endpoint's deliveries, newest first (GET /v1/webhooks/{id}/deliveries), or one with its attempts")
        .addOption(new Option('--state <state>', WEBHOOK_DELIVERY_STATES.join(', ')).argParser(choiceArg('--state', WEBHOOK_DELIVERY_STATES))),
    ).action(
      action(kit, async (ctx, id: string, deliveryId: string | undefined, flags: PageFlags & { state?: WebhookDeliveryState }) => {
        const vigil = await ctx.customer();
        if (deliveryId !== undefined) {
          const d = await vigil.webhooks.deliveries.get(id, deliveryId);
          ctx.emit(() => {
            ctx.out.fields([
              ['delivery', d.id],
              ['webhook', d.webhook],
              ['event', `${d.event_type} (${d.event_id})`],
              ['state', d.state],
              ['attempts', d.attempts],
              ['next attempt', d.next_attempt_at === null ? null : when(d.next_attempt_at)],
              ['created', when(d.created_at)],
            ]);
            ctx.out.table(
              ['attempt', 'at', 'status', 'latency ms', 'error', 'response'],
              d.attempts_list.map((a) => [a.attempt, when(a.attempted_at), a.response_status, a.latency_ms, a.error, a.response_excerpt?.slice(0, 60)]),
            );
          });
          return;
        }
        const pages = vigil.webhooks.deliveries.list(id, flags.state === undefined ? {} : { state: flags.state }, sdkPageOptions(flags));
        const { items, raw } = await readPages(ctx, pages, 'data', flags);
        ctx.emit(
          () => ctx.out.table(['delivery', 'event', 'state', 'attempts', 'last attempt', 'created'], items.map((d) => [d.id, d.event_type, d.state, d.attempts, when(d.last_attempt_at), when(d.created_at)])),
          raw,
        );
      }),
    ),
    ['vigil webhooks deliveries wh_4f3c2a1b0e9d8c7b6a594837 --state failed', 'vigil webhooks deliveries wh_4f3c2a1b0e9d8c7b6a594837 0b8c6a1e-4f2d-4c3b-9a7e-5d1f2e3c4b5a'],
  );
  examples(
    webhooks
      .command('redeliver <webhook_id> <delivery_id>')
      .description('sends a delivery again, same delivery id and body (POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver)')
      .action(
        action(kit, async (ctx, id: string, deliveryId: string) => {
          const d = await (await ctx.customer()).webhooks.redeliver(id, deliveryId);
          ctx.emit(() => ctx.out.line(`Redelivering ${d.id} (${d.event_type}) to webhook ${d.webhook}: ${d.state}.`));
        }),
      ),
    ['vigil webhooks redeliver wh_4f3c2a1b0e9d8c7b6a594837 0b8c6a1e-4f2d-4c3b-9a7e-5d1f2e3c4b5a'],
  );
  examples(
    webhooks
      .command('recover <webhook_id>')
      .description('one more attempt for every failed delivery created since a time (POST /v1/webhooks/{id}/recover)')
      .requiredOption('--since <timestamp>', 'a timestamp with offset, e.g. 2026-11-21T10:00:00+00:00', sinceArg)
      .action(
        action(kit, async (ctx, id: string, opts: { since: string }) => {
          const r = await (await ctx.customer()).webhooks.recover(id, { since: opts.since });
          ctx.emit(() => ctx.out.line(`Requeued ${r.requeued} failed ${r.requeued === 1 ? 'delivery' : 'deliveries'} of webhook ${id}.`));
        }),
      ),
    ['vigil webhooks recover wh_4f3c2a1b0e9d8c7b6a594837 --since 2026-11-21T00:00:00+00:00'],
  );
  registerListen(webhooks, kit);
}
