import type { Dated } from '@vigil/client';
import { REPOSITORY_PROVIDERS, type Repository, type RepositoryProvider } from '@vigil/core';
import { Option, type Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { choiceArg, type Context } from '../context.js';
import { when } from '../output.js';
import { pageOptions, readPages, sdkPageOptions, type PageFlags } from '../pages.js';
import { printVerification } from './verify.js';

function repositoryFields(ctx: Context, r: Dated<typeof Repository>): [string, string | number | null][] {
  const push = r.last_push;
  return [
    ['repository', r.id],
    ['url', r.url],
    ['provider', r.provider],
    ['policy', r.policy ?? 'the account default'],
    ['verdict', r.verdict === null ? 'not verified yet' : ctx.out.verdict(r.verdict)],
    ['last verified', when(r.last_verified_at)],
    ['last push', push === null ? null : `${push.commit ?? push.delivery} (${push.state}${push.last_error ? `: ${push.last_error}` : ''})`],
    ['created', when(r.created_at)],
  ];
}

/** Repositories registered for continuous verification (docs/repositories.md; scope repositories). */
export function registerRepositories(program: Command, kit: Kit): void {
  const repositories = program
    .command('repositories')
    .alias('repository')
    .description('repositories verified on every push: register, list, read, the last verification, delete (paid plan)');
  examples(
    repositories
      .command('create <url>')
      .description("registers a repository (https URL) for continuous verification; prints the push webhook's settings and secret, shown this once (POST /v1/repositories)")
      .addOption(new Option('--provider <provider>', REPOSITORY_PROVIDERS.join(', ')).argParser(choiceArg('--provider', REPOSITORY_PROVIDERS)).default('github'))
      .option('--policy <name>', "the organization's policy applied on every push (default: the account's default)")
      .action(
        action(kit, async (ctx, url: string, opts: { provider: RepositoryProvider; policy?: string }) => {
          const { baseUrl } = await ctx.connect();
          const { data } = await (await ctx.customer()).repositories.create({ url, provider: opts.provider, ...(opts.policy === undefined ? {} : { policy: opts.policy }) });
          ctx.emit(() => {
            ctx.out.fields([
              ...repositoryFields(ctx, data).slice(0, 4),
              ['payload url', `${baseUrl.replace(/\/$/, '')}${data.webhook.path}`],
              ['content type', data.webhook.content_type],
              ['events', data.webhook.events.join(', ')],
              ['secret', data.webhook.secret],
            ]);
            ctx.out.note("Add a webhook with these settings in the repository's settings. The secret is shown this once.");
          });
        }),
      ),
    ['vigil repositories create https://github.com/acme/api --policy prod-only'],
  );
  examples(
    pageOptions(repositories.command('list').description("the account's repositories, oldest first (GET /v1/repositories)")).action(
      action(kit, async (ctx, flags: PageFlags) => {
        const { items, raw } = await readPages(ctx, (await ctx.customer()).repositories.list(sdkPageOptions(flags)), 'repositories', flags);
        ctx.emit(() => ctx.out.table(['repository', 'url', 'policy', 'verdict', 'last verified'], items.map((r) => [r.id, r.url, r.policy, ctx.out.verdict(r.verdict), when(r.last_verified_at)])), raw);
      }),
    ),
    ['vigil repositories list', 'vigil repositories list --all --json | jq -r ".repositories[].url"'],
  );
  examples(
    repositories
      .command('get <repository_id>')
      .description('a repository with its last verification and last push (GET /v1/repositories/{id})')
      .action(
        action(kit, async (ctx, id: string) => {
          const r = await (await ctx.customer()).repositories.get(id);
          ctx.emit(() => ctx.out.fields(repositoryFields(ctx, r)));
        }),
      ),
    ['vigil repositories get repo_0123456789abcdef'],
  );
  examples(
    repositories
      .command('verification <repository_id>')
      .description("the repository's last stored verification: files and dependencies (GET /v1/repositories/{id}/verification)")
      .option('--all-dependencies', 'list allowed dependencies too')
      .action(
        action(kit, async (ctx, id: string, opts: { allDependencies?: boolean }) => {
          const v = await (await ctx.customer()).repositories.verification(id);
          ctx.emit(() => printVerification(ctx, v, opts.allDependencies === true));
        }),
      ),
    ['vigil repositories verification repo_0123456789abcdef', 'vigil repositories verification repo_0123456789abcdef --json | jq .verdict'],
  );
  examples(
    repositories
      .command('delete <repository_id>')
      .description('stops verifying a repository and deletes what Vigil kept for it (DELETE /v1/repositories/{id})')
      .action(
        action(kit, async (ctx, id: string) => {
          const r = await (await ctx.customer()).repositories.delete(id);
          ctx.emit(() => ctx.out.line(`Deleted repository ${r.id} (${r.url}).`));
        }),
      ),
    ['vigil repositories delete repo_0123456789abcdef'],
  );
}
