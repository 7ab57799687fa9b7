import type { Page, PagePromise } from '@vigil/client';
import { Option, type Command } from 'commander';
import type { Context } from './context.js';
import { intArg } from './context.js';

export interface PageFlags {
  pageSize?: number;
  page?: string;
  all?: boolean;
}

/** `--page-size`, `--page` and `--all` on a command over a paginated endpoint. */
export function pageOptions(command: Command): Command {
  return command
    .addOption(new Option('--page-size <n>', 'items per page, 1-100 (server default 50)').argParser(intArg('--page-size', 1, 100)))
    .option('--page <token>', 'the page to read: the token a previous run printed (X-Vigil-Page)')
    .option('--all', 'follow X-Vigil-Next-Page to the last page');
}

export function sdkPageOptions(flags: PageFlags): { pageSize?: number; page?: string } {
  return { ...(flags.pageSize === undefined ? {} : { pageSize: flags.pageSize }), ...(flags.page === undefined ? {} : { page: flags.page }) };
}

/**
 * Reads one page (or every page with `--all`). `raw` is the JSON the server sent, the lists of every
 * page read joined under `key`, for `--json`; a next page is named on stderr so stdout stays parseable.
 */
export async function readPages<T>(ctx: Context, pages: PagePromise<T>, key: string, flags: PageFlags): Promise<{ items: T[]; raw: unknown; next: string | number | null }> {
  let page: Page<T> = await pages;
  const items = [...page.items];
  const first = ctx.recorder.last as Record<string, unknown>;
  const rawItems = [...((first?.[key] as unknown[] | undefined) ?? [])];
  while (flags.all && page.nextPage !== null) {
    const next = await page.getNextPage();
    if (!next) break;
    page = next;
    items.push(...page.items);
    rawItems.push(...(((ctx.recorder.last as Record<string, unknown>)?.[key] as unknown[] | undefined) ?? []));
  }
  if (page.nextPage !== null) ctx.out.note(`More: run again with --page ${page.nextPage} (or --all).`);
  return { items, raw: { ...first, [key]: rawItems }, next: page.nextPage };
}
