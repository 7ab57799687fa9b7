import { parseWatchRef, watchRefText, WatchRefError } from '@vigil/core';
import type { Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { UsageError } from '../exit-codes.js';
import { short, when } from '../output.js';
import { pageOptions, readPages, sdkPageOptions, type PageFlags } from '../pages.js';

interface WatchLike {
  id: string;
  package: string;
  source: string;
  created_at: Date;
  poll: { last_polled_at: Date | null; next_poll_at: Date; latest: string | null; versions: number | null; last_error: string | null; failures: number };
}

/** Where the watcher stands on a name, in a few words. */
function pollState(w: WatchLike): string {
  if (w.poll.last_error !== null) return `failing (${w.poll.failures}): ${short(w.poll.last_error, 60)}`;
  if (w.poll.last_polled_at === null) return 'not polled yet';
  return `latest ${w.poll.latest ?? '-'}, ${w.poll.versions ?? 0} version(s)`;
}

/** `npm:left-pad` as the server writes it, or a usage error naming the fault. */
function watchArg(value: string): string {
  try {
    return watchRefText(parseWatchRef(value));
  } catch (error) {
    if (error instanceof WatchRefError) throw new UsageError(error.message);
    throw error;
  }
}

/** The account's watch list (docs/watches.md; scope verify, paid plan). */
export function registerWatches(program: Command, kit: Kit): void {
  const watch = program.command('watch').alias('watches').description("the account's watch list: package names whose new releases Vigil fetches and judges as soon as they are published");
  examples(
    watch
      .command('add <package...>')
      .description('watch package names: npm:<name>, npm:@scope/name, pypi:<name>, or a purl without version (POST /v1/watches, once per name)')
      .action(
        action(kit, async (ctx, packages: string[]) => {
          const names = packages.map(watchArg);
          const vigil = await ctx.customer();
          const added: WatchLike[] = [];
          const show = () => ctx.emit(() => ctx.out.table(['watch', 'package', 'source', 'created'], added.map((w) => [w.id, w.package, w.source, when(w.created_at)])), { data: added });
          for (const name of names) {
            try {
              added.push(await vigil.watches.create({ package: name }));
            } catch (error) {
              // The names before it stay watched: show them before the failure, so the user knows which.
              if (added.length > 0) show();
              throw error;
            }
          }
          show();
        }),
      ),
    ['vigil watch add npm:left-pad npm:@types/node pypi:requests'],
  );
  examples(
    pageOptions(watch.command('list').description("the account's watches, oldest first, with where the watcher stands on each name (GET /v1/watches)")).action(
      action(kit, async (ctx, flags: PageFlags) => {
        const { items, raw } = await readPages(ctx, (await ctx.customer()).watches.list(sdkPageOptions(flags)), 'data', flags);
        ctx.emit(
          () => ctx.out.table(['watch', 'package', 'source', 'state', 'last poll', 'next poll'], items.map((w) => [w.id, w.package, w.source, pollState(w), when(w.poll.last_polled_at), when(w.poll.next_poll_at)])),
          raw,
        );
      }),
    ),
    ['vigil watch list', 'vigil watch list --all --json | jq -r ".data[].package"'],
  );
  examples(
    watch
      .command('rm <watch>')
      .alias('remove')
      .description('stop watching, by watch id (wat_…) or by package name, looked up in the list (DELETE /v1/watches/{id})')
      .action(
        action(kit, async (ctx, target: string) => {
          const vigil = await ctx.customer();
          let id = target;
          if (!/^wat_/.test(target)) {
            const name = watchArg(target);
            let found: string | undefined;
            for await (const w of vigil.watches.list({ pageSize: 100 })) {
              if (w.package === name) {
                found = w.id;
                break;
              }
            }
            if (found === undefined) throw new UsageError(`${name}: not on this account's watch list (vigil watch list)`);
            id = found;
          }
          await vigil.watches.delete(id);
          // 204: the server sends no body, so --json prints nothing.
          if (!ctx.json) ctx.out.line(`Stopped watching (${id}).`);
        }),
      ),
    ['vigil watch rm npm:left-pad', 'vigil watch rm wat_4f3c2a1b0e9d8c7b6a594837'],
  );
}
