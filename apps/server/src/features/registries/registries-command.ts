import { readFile } from 'node:fs/promises';
import { parsePackageRef, parseWatchRef, type RegistryFetch, type WatchTarget } from '@vigil/core';
import type { Kysely } from 'kysely';
import { OPERATOR } from '../../platform/audit-log.js';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { fetchBody, fetchSummary, listFetches, retryFetches } from './fetch-admin.js';
import { addWatches, listWatches, OPERATOR_OWNER, watcherSummary } from './watch-store.js';

export const REGISTRIES_USAGE = 'registries status [--json] | registries retry (<purl> | --failed) | registries watch add <package…> | registries watch seed <file> | registries watch list';

/** The most names one `watch seed` file may hold. */
export const MAX_SEED_NAMES = 1_000_000;

/** How many fetches of each state `registries status` lists, newest first (the admin API pages through all). */
export const STATUS_LIST_LIMIT = 20;

export interface RegistriesCommandOptions {
  /** VIGIL_REGISTRY_FETCH: off, no watcher runs, so `watch add|seed` refuse (true by default). */
  watching?: boolean;
}

export class RegistriesCommandError extends Error {
  override name = 'RegistriesCommandError';
  /** True when the arguments themselves are wrong (print the usage, exit 2), not the queue's state. */
  constructor(message: string, readonly usage = false) {
    super(message);
  }
}

const LISTED = ['running', 'queued', 'failed'] as const;

function fetchLine(fetch: RegistryFetch): string {
  const when = fetch.state === 'running' ? `lease until ${fetch.next_attempt_at}` : fetch.state === 'queued' ? `next attempt ${fetch.next_attempt_at}` : null;
  return ['  ' + fetch.purl, `attempts ${fetch.attempts}`, when, fetch.last_error].filter((part) => part !== null).join('  ');
}

/** Whole seconds from `from` to `to` (offset timestamps), at least 0. */
function secondsBetween(from: string, to: string): number {
  return Math.max(0, Math.floor((Date.parse(to) - Date.parse(from)) / 1000));
}

/**
 * `vigil-server registries …` (docs/registries.md, "Operating the fetch queue"): the queue's state
 * (`status`, as text or `--json`) and `retry`, with the rules and audit entry of the admin API
 * (`POST /v1/admin/registries/fetches/retry`), as `operator`. Returns the lines to print.
 */
export async function runRegistriesCommand(db: Kysely<Database>, args: readonly string[], now: number, options: RegistriesCommandOptions = {}): Promise<string[]> {
  const [action, ...rest] = args;
  if (action === 'status' && (rest.length === 0 || (rest.length === 1 && rest[0] === '--json'))) {
    const [summary, watcher] = await Promise.all([fetchSummary(db, now), watcherSummary(db, now)]);
    const lists = Object.fromEntries(
      await Promise.all(LISTED.map(async (state) => [state, (await listFetches(db, { filters: { state }, after: null, size: STATUS_LIST_LIMIT })).rows.map(fetchBody)] as const)),
    ) as Record<(typeof LISTED)[number], RegistryFetch[]>;
    if (rest[0] === '--json') return [JSON.stringify({ ...summary, ...lists, watcher }, null, 2)];
    const { counts } = summary;
    const lines = [
      `registry fetches at ${summary.server_time}: ${counts.queued} queued, ${counts.running} running, ${counts.stored} stored, ${counts.failed} failed`,
      summary.oldest_due_at === null
        ? 'due now: 0 (the workers are keeping up)'
        : `due now: ${summary.due}, the oldest due since ${summary.oldest_due_at} (${secondsBetween(summary.oldest_due_at, summary.server_time)} s behind)`,
    ];
    for (const state of LISTED) {
      if (counts[state] === 0) continue;
      lines.push(`${state} (${counts[state]}):`, ...lists[state].map(fetchLine));
      const more = counts[state] - lists[state].length;
      if (more > 0) lines.push(`  … and ${more} more (GET /v1/admin/registries/fetches?state=${state})`);
    }
    lines.push(...watcherLines(watcher));
    return lines;
  }
  if (action === 'watch') return runWatchCommand(db, rest, now, options.watching ?? true);
  if (action !== 'retry' || rest.length !== 1) throw new RegistriesCommandError(`expected ${REGISTRIES_USAGE}`, true);
  const arg = rest[0]!;
  if (arg === '--failed') {
    const purls = await retryFetches(db, { state: 'failed' }, { now, actor: OPERATOR });
    return [`retried ${purls.length} failed fetch(es): queued to be fetched now, attempts reset`, ...purls.map((purl) => `  ${purl}`)];
  }
  let purl: string;
  try {
    purl = parsePackageRef(arg).purl;
  } catch (error) {
    throw new RegistriesCommandError(`retry: ${(error as Error).message.replace(/^input: /, 'purl: ')}`, true);
  }
  try {
    await retryFetches(db, { purl }, { now, actor: OPERATOR });
  } catch (error) {
    if (error instanceof VigilError && error.code === 'registry_fetch_not_found') throw new RegistriesCommandError(`retry: no registry fetch of ${purl}`);
    if (error instanceof VigilError && error.code === 'registry_fetch_not_retryable') throw new RegistriesCommandError(`retry: ${error.detail}`);
    throw error;
  }
  return [`retried ${purl}: queued to be fetched now, attempts reset`];
}

function watcherLines(watcher: Awaited<ReturnType<typeof watcherSummary>>): string[] {
  const { watches } = watcher;
  return [
    `release watcher: ${watcher.names} name(s) watched (${watches.operator} by the operator, ${watches.api} by accounts, ${watches.repository} from repositories), ${watcher.failing} failing`,
    watcher.oldest_due_at === null
      ? 'watcher due now: 0 (keeping up)'
      : `watcher due now: ${watcher.due}, the oldest due since ${watcher.oldest_due_at} (${secondsBetween(watcher.oldest_due_at, watcher.server_time)} s behind)`,
  ];
}

/** Reads operator-given names; every bad one is named (with its line for a file), nothing is added then. */
function readTargets(names: readonly { text: string; where: string }[]): WatchTarget[] {
  const targets: WatchTarget[] = [];
  const bad: string[] = [];
  for (const { text, where } of names) {
    try {
      targets.push(parseWatchRef(text));
    } catch (error) {
      bad.push(`${where}${(error as Error).message}`);
    }
  }
  if (bad.length > 0) throw new RegistriesCommandError(`watch: ${bad.slice(0, 10).join('; ')}${bad.length > 10 ? `; … and ${bad.length - 10} more` : ''}`);
  return targets;
}

/** `registries watch add|seed|list`: the deployment's own watch list (owner `operator`, no limit). */
async function runWatchCommand(db: Kysely<Database>, args: readonly string[], now: number, watching: boolean): Promise<string[]> {
  const [verb, ...rest] = args;
  if (verb === 'list' && rest.length === 0) {
    const lines: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await listWatches(db, OPERATOR_OWNER, { offset, limit: 500 });
      for (const watch of page) {
        const poll = watch.poll;
        const state = poll.last_error !== null ? `failing (${poll.failures}): ${poll.last_error}` : poll.last_polled_at === null ? 'not polled yet' : `latest ${poll.latest ?? '-'}, ${poll.versions} version(s)`;
        lines.push(`${watch.package}  ${state}  next poll ${poll.next_poll_at}`);
      }
      if (page.length < 500) break;
    }
    return [`${lines.length} name(s) on the operator's watch list`, ...lines];
  }
  // As the API's `watching_off`: with fetching off no watcher runs, so a name added would never be polled.
  if (!watching && (verb === 'add' || verb === 'seed')) {
    throw new RegistriesCommandError('watch: registry fetching is off (VIGIL_REGISTRY_FETCH=false): no watcher runs, so nothing is added');
  }
  let targets: WatchTarget[];
  if (verb === 'add' && rest.length > 0) {
    targets = readTargets(rest.map((text) => ({ text, where: '' })));
  } else if (verb === 'seed' && rest.length === 1) {
    let text: string;
    try {
      text = await readFile(rest[0]!, 'utf8');
    } catch (error) {
      throw new RegistriesCommandError(`watch seed: cannot read ${rest[0]}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    // One name a line; blank lines and `#` comments skipped; a bare name is an npm name.
    const names = text.split(/\r?\n/).flatMap((line, i) => {
      const name = line.replace(/#.*$/, '').trim();
      return name === '' ? [] : [{ text: /^(npm|pypi|pkg):/.test(name) ? name : `npm:${name}`, where: `line ${i + 1}: ` }];
    });
    if (names.length > MAX_SEED_NAMES) throw new RegistriesCommandError(`watch seed: ${names.length} names; at most ${MAX_SEED_NAMES} a file`);
    targets = readTargets(names);
  } else {
    throw new RegistriesCommandError(`expected ${REGISTRIES_USAGE}`, true);
  }
  const result = await addWatches(db, OPERATOR_OWNER, targets, { source: 'operator', now, limit: null });
  return [`watching ${result.created.length} more name(s) (${result.existing.length} already on the operator's list); new names are polled at once`];
}
