import type { Dated } from '@vigil/client';
import { ACCOUNT_KINDS, API_KEY_SCOPES, PLANS, REGISTRY_FETCH_ECOSYSTEMS, REGISTRY_FETCH_STATES, VALIDATOR_ADMIN_ACTIONS, type AccountKind, type AdminValidator, type ApiKeyScope, type MetagraphSnapshot, type Plan } from '@vigil/core';
import { Option, type Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { choiceArg, packageRefArg, readJson } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { short, when } from '../output.js';
import { pageOptions, readPages, sdkPageOptions, type PageFlags } from '../pages.js';
import { scopesArg } from './scopes.js';

type Validator = Dated<typeof AdminValidator>;
type Field = [string, string | number | boolean | null | undefined];

const AUTH_NOTE = `
The admin API answers only a key with the admin scope (--token, VIGIL_API_TOKEN or a profile),
sent from an address in the server's VIGIL_ADMIN_ALLOWLIST (else 403); a server without
VIGIL_ADMIN_ALLOWLIST answers 404 not found. See docs/accounts.md, "Admin API".`;

function accountFields(a: { id: string; name: string; kind: string; plan: string; trusted: boolean; created_at: Date }): Field[] {
  return [
    ['account', a.id],
    ['name', a.name],
    ['kind', a.kind],
    ['plan', a.plan],
    ['trusted', a.trusted ? 'yes' : 'no'],
    ['created', when(a.created_at)],
  ];
}

function validatorFields(v: Validator): Field[] {
  return [
    ['hotkey', v.hotkey],
    ['uid', v.uid],
    ['status', v.status],
    ['allowed ips', v.allowed_ips.join(', ')],
    ['registered', when(v.registered_at)],
    ['last seen', when(v.last_seen_at)],
  ];
}

/** `vigil admin …`: the admin API (`/v1/admin/*`, docs/accounts.md "Admin API") through the SDK's `vigil.admin`. */
export function registerAdmin(program: Command, kit: Kit): void {
  const admin = examples(
    program
      .command('admin')
      .description('the admin API: accounts and their keys, the audit log, validators, the metagraph, rounds, backlogs (a key with the admin scope)')
      .addHelpText('after', AUTH_NOTE),
    ['vigil --profile ops admin accounts list', 'VIGIL_API_TOKEN=vgl_… vigil admin audit-log --page-size 20', 'vigil admin rounds'],
  );
  registerAccounts(admin, kit);
  registerKeys(admin, kit);
  registerValidators(admin, kit);
  registerRounds(admin, kit);
  registerReads(admin, kit);
  registerRegistries(admin, kit);
}

function registerAccounts(admin: Command, kit: Kit): void {
  const accounts = admin.command('accounts').description('every account: list, create, get, change its plan or trust');
  examples(
    accounts
      .command('list')
      .description('every account, oldest first (GET /v1/admin/accounts)')
      .action(
        action(kit, async (ctx) => {
          const list = await (await ctx.customer()).admin.accounts.list();
          ctx.emit(() => ctx.out.table(['account', 'name', 'kind', 'plan', 'trusted', 'created'], list.map((a) => [a.id, a.name, a.kind, a.plan, a.trusted ? 'yes' : 'no', when(a.created_at)])));
        }),
      ),
    ['vigil admin accounts list', 'vigil admin accounts list --json | jq -r \'.accounts[] | select(.plan == "paid") | .name\''],
  );
  examples(
    accounts
      .command('create <name>')
      .description('a new account (POST /v1/admin/accounts); <name>: 2-64 lowercase letters, digits or inner hyphens')
      .addOption(new Option('--kind <kind>', `${ACCOUNT_KINDS.join(' or ')} (server default organization)`).argParser(choiceArg('--kind', ACCOUNT_KINDS)))
      .addOption(new Option('--plan <plan>', `${PLANS.join(' or ')} (server default free)`).argParser(choiceArg('--plan', PLANS)))
      .action(
        action(kit, async (ctx, name: string, opts: { kind?: AccountKind; plan?: Plan }) => {
          const a = await (await ctx.customer()).admin.accounts.create({ name, ...(opts.kind ? { kind: opts.kind } : {}), ...(opts.plan ? { plan: opts.plan } : {}) });
          ctx.emit(() => ctx.out.fields(accountFields(a)));
        }),
      ),
    ['vigil admin accounts create acme --plan paid', 'vigil admin accounts create alice --kind personal'],
  );
  examples(
    accounts
      .command('get <account_id>')
      .description('one account (GET /v1/admin/accounts/{account_id})')
      .action(
        action(kit, async (ctx, accountId: string) => {
          const a = await (await ctx.customer()).admin.accounts.get(accountId);
          ctx.emit(() => ctx.out.fields(accountFields(a)));
        }),
      ),
    ['vigil admin accounts get acc_0123456789abcdef'],
  );
  examples(
    accounts
      .command('update <account_id>')
      .description("changes an account's plan, whether its package references are trusted, or both (POST /v1/admin/accounts/{account_id})")
      .addOption(new Option('--plan <plan>', PLANS.join(' or ')).argParser(choiceArg('--plan', PLANS)))
      .option('--trusted', "trust the account's package references (they count for every account)")
      .option('--untrusted', 'stop trusting them')
      .action(
        action(kit, async (ctx, accountId: string, opts: { plan?: Plan; trusted?: boolean; untrusted?: boolean }) => {
          if (opts.trusted && opts.untrusted) throw new UsageError('--trusted and --untrusted: give one of them');
          const changes = { ...(opts.plan ? { plan: opts.plan } : {}), ...(opts.trusted ? { trusted: true } : opts.untrusted ? { trusted: false } : {}) };
          if (Object.keys(changes).length === 0) throw new UsageError('nothing to update: give --plan, --trusted or --untrusted');
          const a = await (await ctx.customer()).admin.accounts.update(accountId, changes);
          ctx.emit(() => ctx.out.fields(accountFields(a)));
        }),
      ),
    ['vigil admin accounts update acc_0123456789abcdef --plan paid', 'vigil admin accounts update acc_0123456789abcdef --trusted'],
  );
}

function registerKeys(admin: Command, kit: Kit): void {
  const keys = admin.command('keys').description("any account's API keys: list, issue, revoke");
  examples(
    keys
      .command('list <account_id>')
      .description("an account's keys, newest first, revoked ones included (GET /v1/admin/accounts/{account_id}/keys)")
      .action(
        action(kit, async (ctx, accountId: string) => {
          const list = await (await ctx.customer()).admin.accounts.keys.list(accountId);
          ctx.emit(() => ctx.out.table(['key', 'name', 'scopes', 'status', 'created', 'last used', 'uses'], list.map((k) => [k.key_id, k.name, k.scopes.join(','), k.status, when(k.created_at), when(k.last_used_at), k.use_count])));
        }),
      ),
    ['vigil admin keys list acc_0123456789abcdef'],
  );
  examples(
    keys
      .command('create <account_id>')
      .description('a new key for an account, any scopes; its token is shown once, in this answer (POST /v1/admin/accounts/{account_id}/keys)')
      .requiredOption('--name <name>', 'a name for the key (1-100 characters)')
      .requiredOption('--scopes <list>', `comma-separated scopes: ${API_KEY_SCOPES.join(', ')}`, scopesArg)
      .action(
        action(kit, async (ctx, accountId: string, opts: { name: string; scopes: ApiKeyScope[] }) => {
          const key = await (await ctx.customer()).admin.accounts.keys.create(accountId, { name: opts.name, scopes: opts.scopes });
          ctx.emit(() => {
            ctx.out.line(key.token);
            ctx.out.note(`Created key ${key.key_id} (${key.name}; ${key.scopes.join(', ')}) for account ${key.account_id}. The token above is shown only once: store it now.`);
          });
        }),
      ),
    ['vigil admin keys create acc_0123456789abcdef --name ci --scopes read,verify,repositories'],
  );
  examples(
    keys
      .command('revoke <key_id>')
      .description("revokes any account's key, not the one in use (DELETE /v1/admin/keys/{key_id})")
      .action(
        action(kit, async (ctx, keyId: string) => {
          const key = await (await ctx.customer()).admin.keys.revoke(keyId);
          ctx.emit(() => ctx.out.line(`Revoked key ${key.key_id} (${key.name}) of account ${key.account_id} at ${when(key.revoked_at)}.`));
        }),
      ),
    ['vigil admin keys revoke 0123abcd'],
  );
}

function registerValidators(admin: Command, kit: Kit): void {
  const validators = examples(admin.command('validators').description('validator records: list, approve, suspend, revoke, restore, allowlist'), [
    'vigil admin validators',
    'vigil admin validators approve 5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX',
  ]);
  examples(
    validators
      .command('list', { isDefault: true })
      .description('every validator record, oldest registration first (GET /v1/admin/validators)')
      .action(
        action(kit, async (ctx) => {
          const list = await (await ctx.customer()).admin.validators.list();
          ctx.emit(() => ctx.out.table(['hotkey', 'uid', 'status', 'allowed ips', 'registered', 'last seen'], list.map((v) => [short(v.hotkey), v.uid, v.status, v.allowed_ips.join(','), when(v.registered_at), when(v.last_seen_at)])));
        }),
      ),
    ['vigil admin validators list', 'vigil admin validators --json | jq -r \'.validators[] | select(.status == "pending") | .hotkey\''],
  );
  const RULES: Record<(typeof VALIDATOR_ADMIN_ACTIONS)[number], string> = {
    approve: 'pending -> active',
    suspend: 'pending or active -> suspended',
    revoke: 'pending, active or suspended -> revoked',
    restore: 'suspended or revoked -> active',
  };
  for (const name of VALIDATOR_ADMIN_ACTIONS) {
    examples(
      validators
        .command(`${name} <hotkey>`)
        .description(`${RULES[name]} (POST /v1/admin/validators/{hotkey}/${name})`)
        .action(
          action(kit, async (ctx, hotkey: string) => {
            const v = await (await ctx.customer()).admin.validators[name](hotkey);
            ctx.emit(() => ctx.out.fields(validatorFields(v)));
          }),
        ),
      [`vigil admin validators ${name} 5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX`],
    );
  }
  examples(
    validators
      .command('allowlist <hotkey> <ip...>')
      .description("replaces a validator's IP allowlist with the addresses given, 1-32 (POST /v1/admin/validators/{hotkey}/allowlist)")
      .action(
        action(kit, async (ctx, hotkey: string, ips: string[]) => {
          const v = await (await ctx.customer()).admin.validators.setAllowlist(hotkey, ips);
          ctx.emit(() => ctx.out.fields(validatorFields(v)));
        }),
      ),
    ['vigil admin validators allowlist 5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX 203.0.113.7 2001:db8::7'],
  );
}

function registerRounds(admin: Command, kit: Kit): void {
  const rounds = examples(admin.command('rounds').description("the scheduler's view of the rounds, and closing one now"), ['vigil admin rounds', 'vigil admin rounds close 5f2c9a1e0b7d4c3a --force']);
  examples(
    rounds
      .command('schedule', { isDefault: true })
      .description("every track's latest round, its deadlines and the next opening (GET /v1/admin/rounds)")
      .action(
        action(kit, async (ctx) => {
          const s = await (await ctx.customer()).admin.rounds.schedule();
          ctx.emit(() => {
            ctx.out.fields([
              ['server time', when(s.server_time)],
              ['settings', `submission ${s.settings.submission_s} s, evaluation ${s.settings.evaluation_s} s, gap ${s.settings.gap_s} s, every ${s.settings.interval_s} s, ${s.settings.policy_version}`],
            ]);
            ctx.out.table(
              ['track', 'round', '#', 'status', 'phase', 'submission closes', 'closes', 'overdue', 'next opens'],
              s.tracks.map((t) => [
                t.track,
                t.current?.round_id ?? '-',
                t.current?.round_number,
                t.current?.status,
                t.current?.phase,
                when(t.current?.submission_closes_at),
                when(t.current?.closes_at),
                t.current ? (t.current.overdue ? ctx.out.c.red('yes') : 'no') : '',
                when(t.next_round_opens_at),
              ]),
            );
          });
        }),
      ),
    ['vigil admin rounds', 'vigil admin rounds schedule --json | jq ".tracks[] | select(.current.overdue)"'],
  );
  examples(
    rounds
      .command('close <round_id>')
      .description('closes a round in evaluation now: scores it and publishes its verdicts (POST /v1/admin/rounds/{round_id}/close)')
      .option('--force', 'close it before its closes_at')
      .action(
        action(kit, async (ctx, roundId: string, opts: { force?: boolean }) => {
          const r = await (await ctx.customer()).admin.rounds.close(roundId, opts.force ? { force: true } : {});
          ctx.emit(() =>
            ctx.out.fields([
              ['round', `${r.round_id} (${r.track} #${r.round_number})`],
              ['status', `${r.status}, ${r.phase}${r.forced ? ' (forced)' : ''}`],
              ['closed', when(r.closed_at)],
              ['next opens', when(r.next_round_opens_at)],
              ['scored', r.scored],
              ['winners', r.winners.length === 0 ? '-' : r.winners.join(', ')],
              ['verdict changes', r.verdict_changes],
            ]),
          );
        }),
      ),
    ['vigil admin rounds close 5f0c9a1e --force'],
  );
}

function registerReads(admin: Command, kit: Kit): void {
  examples(
    pageOptions(admin.command('audit-log').description('administrative actions, newest first (GET /v1/admin/audit-log, paginated)')).action(
      action(kit, async (ctx, flags: PageFlags) => {
        const { items, raw } = await readPages(ctx, (await ctx.customer()).admin.auditLog.list(sdkPageOptions(flags)), 'entries', flags);
        ctx.emit(() => ctx.out.table(['at', 'actor', 'source ip', 'action', 'target', 'detail'], items.map((e) => [when(e.at), e.actor, e.source_ip, e.action, short(e.target, 24), short(JSON.stringify(e.detail), 80)])), raw);
      }),
    ),
    ['vigil admin audit-log', 'vigil admin audit-log --all --json | jq -r \'.entries[] | select(.action == "key.revoke") | .target\''],
  );
  examples(
    pageOptions(
      admin.command('package-requests').description('packages verifications asked for that Vigil holds no bytes for, most requested first (GET /v1/admin/package-requests, paginated)'),
    ).action(
      action(kit, async (ctx, flags: PageFlags) => {
        const { items, raw } = await readPages(ctx, (await ctx.customer()).admin.packageRequests.list(sdkPageOptions(flags)), 'package_requests', flags);
        ctx.emit(() => ctx.out.table(['purl', 'requests', 'first requested', 'last requested'], items.map((p) => [p.purl, p.requests, when(p.first_requested_at), when(p.last_requested_at)])), raw);
      }),
    ),
    ['vigil admin package-requests --page-size 20'],
  );
  const metagraph = admin.command('metagraph').description('the metagraph snapshot permit checks read');
  examples(
    metagraph
      .command('upload <file>')
      .description('replaces the snapshot file the server reads permits from with a snapshot file, "-" for standard input (POST /v1/admin/metagraph)')
      .action(
        action(kit, async (ctx, file: string) => {
          // Sent as read: the server checks the snapshot and names each bad field in its 422.
          const snapshot = (await readJson(ctx.io, file, 'file')) as MetagraphSnapshot;
          const m = await (await ctx.customer()).admin.metagraph.upload(snapshot);
          ctx.emit(() => ctx.out.line(`Uploaded the metagraph of netuid ${m.netuid} at block ${m.block}: ${m.neurons} neurons, ${m.validator_permits} validator permits.`));
        }),
      ),
    ['vigil admin metagraph upload metagraph.json'],
  );
  examples(
    admin
      .command('outbox')
      .description('webhook events not yet fanned out, and the delivery backlog (GET /v1/admin/outbox)')
      .action(
        action(kit, async (ctx) => {
          const o = await (await ctx.customer()).admin.outbox.get();
          ctx.emit(() =>
            ctx.out.fields([
              ['events retained', o.total],
              ['undelivered', `${o.undelivered}${o.undelivered === 0 ? '' : ` (${Object.entries(o.undelivered_by_kind).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')})`}`],
              ['oldest undelivered', when(o.oldest_undelivered_at)],
              ['deliveries', `${o.deliveries.pending} pending, ${o.deliveries.delivering} delivering, ${o.deliveries.failed} failed`],
              ['oldest pending', when(o.deliveries.oldest_pending_at)],
            ]),
          );
        }),
      ),
    ['vigil admin outbox', 'vigil admin outbox --json | jq .undelivered'],
  );
  examples(
    admin
      .command('advisories')
      .description('what the OSV advisory import has stored, and its last run (GET /v1/admin/advisories)')
      .action(
        action(kit, async (ctx) => {
          const a = await (await ctx.customer()).admin.advisories.status();
          const last = a.last_import;
          ctx.emit(() =>
            ctx.out.fields([
              ['advisories', `${a.advisories} (${a.withdrawn} withdrawn)`],
              ['packages', `npm ${a.packages.npm}, pypi ${a.packages.pypi}`],
              ['last import', last === null ? 'never' : `${last.source}, ${when(last.started_at)} to ${when(last.finished_at)}`],
              ['counts', last === null ? null : Object.entries(last.counts).map(([k, n]) => `${k.replace(/_/g, ' ')} ${n}`).join(', ')],
            ]),
          );
        }),
      ),
    ['vigil admin advisories'],
  );
}

/** Whole seconds from `from` to `to`, at least 0. */
function secondsBehind(from: Date, to: Date): number {
  return Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000));
}

function registerRegistries(admin: Command, kit: Kit): void {
  const registries = admin.command('registries').description("the server's registry fetch queue (its state, retrying failed fetches) and its release watcher");
  examples(
    pageOptions(
      registries
        .command('fetches')
        .description('counts by state, how far behind the workers are, and fetches newest first (GET /v1/admin/registries/fetches, paginated)')
        .addOption(new Option('--state <state>', `only fetches in this state: ${REGISTRY_FETCH_STATES.join(', ')}`).argParser(choiceArg('--state', REGISTRY_FETCH_STATES)))
        .addOption(new Option('--ecosystem <ecosystem>', `only this ecosystem: ${REGISTRY_FETCH_ECOSYSTEMS.join(' or ')}`).argParser(choiceArg('--ecosystem', REGISTRY_FETCH_ECOSYSTEMS))),
    ).action(
      action(kit, async (ctx, flags: PageFlags & { state?: (typeof REGISTRY_FETCH_STATES)[number]; ecosystem?: (typeof REGISTRY_FETCH_ECOSYSTEMS)[number] }) => {
        const filters = { ...(flags.state ? { state: flags.state } : {}), ...(flags.ecosystem ? { ecosystem: flags.ecosystem } : {}) };
        const sdk = await ctx.customer();
        // The summary rides on every page of the list: the first page's, as the server counted it.
        const { items, raw } = await readPages(ctx, sdk.admin.registries.fetches.list(filters, sdkPageOptions(flags)), 'fetches', flags);
        const summary = raw as { server_time: string; counts: Record<string, number>; due: number; oldest_due_at: string | null };
        ctx.emit(() => {
          const now = new Date(summary.server_time);
          const c = summary.counts;
          ctx.out.fields([
            ['server time', when(now)],
            ['fetches', `${c.queued ?? 0} queued, ${c.running ?? 0} running, ${c.stored ?? 0} stored, ${c.failed ?? 0} failed`],
            ['due now', summary.oldest_due_at === null ? '0 (the workers are keeping up)' : `${summary.due}, the oldest since ${when(new Date(summary.oldest_due_at))} (${secondsBehind(new Date(summary.oldest_due_at), now)} s behind)`],
          ]);
          ctx.out.table(
            ['purl', 'state', 'attempts', 'next attempt', 'artifact', 'last error', 'updated'],
            items.map((f) => [f.purl, f.state, f.attempts, when(f.next_attempt_at), f.artifact_id ?? '-', short(f.last_error ?? '-', 60), when(f.updated_at)]),
          );
        }, raw);
      }),
    ),
    ['vigil admin registries fetches', 'vigil admin registries fetches --state failed --all --json | jq -r ".fetches[].purl"'],
  );
  examples(
    registries
      .command('retry [purl]')
      .description('puts a failed (or backing-off) fetch, or with --failed every failed fetch, back to be fetched now, attempts reset (POST /v1/admin/registries/fetches/retry)')
      .option('--failed', 'every failed fetch instead of one purl')
      .action(
        action(kit, async (ctx, purl: string | undefined, opts: { failed?: boolean }) => {
          if ((purl === undefined) === (opts.failed !== true)) throw new UsageError('registries retry: expected a purl or --failed, not both');
          const target = purl === undefined ? { state: 'failed' as const } : { purl: packageRefArg('purl', purl) };
          const r = await (await ctx.customer()).admin.registries.fetches.retry(target);
          ctx.emit(() => {
            ctx.out.line(`Retried ${r.retried} fetch(es): queued to be fetched now, attempts reset.`);
            for (const p of r.purls) ctx.out.line(`  ${p}`);
          });
        }),
      ),
    ['vigil admin registries retry npm:left-pad@1.3.0', 'vigil admin registries retry --failed'],
  );
  examples(
    registries
      .command('watcher')
      .description('the release watcher: names watched, watches by source, names due now and how far behind, names failing (GET /v1/admin/registries/watcher)')
      .action(
        action(kit, async (ctx) => {
          const w = await (await ctx.customer()).admin.registries.watcher();
          ctx.emit(() =>
            ctx.out.fields([
              ['server time', when(w.server_time)],
              ['names watched', `${w.names} (watches: ${w.watches.operator} by the operator, ${w.watches.api} by accounts, ${w.watches.repository} from repositories)`],
              ['due now', w.oldest_due_at === null ? '0 (the watcher is keeping up)' : `${w.due}, the oldest since ${when(w.oldest_due_at)} (${secondsBehind(w.oldest_due_at, w.server_time)} s behind)`],
              ['failing', w.failing],
            ]),
          );
        }),
      ),
    ['vigil admin registries watcher', 'vigil admin registries watcher --json | jq .due'],
  );
}
