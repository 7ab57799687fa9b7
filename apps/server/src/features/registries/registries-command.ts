import { parsePackageRef, type RegistryFetch } from '@vigil/core';
import type { Kysely } from 'kysely';
import { OPERATOR } from '../../platform/audit-log.js';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { fetchBody, fetchSummary, listFetches, retryFetches } from './fetch-admin.js';

export const REGISTRIES_USAGE = 'registries status [--json] | registries retry (<purl> | --failed)';

/** How many fetches of each state `registries status` lists, newest first (the admin API pages through all). */
export const STATUS_LIST_LIMIT = 20;

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
export async function runRegistriesCommand(db: Kysely<Database>, args: readonly string[], now: number): Promise<string[]> {
  const [action, ...rest] = args;
  if (action === 'status' && (rest.length === 0 || (rest.length === 1 && rest[0] === '--json'))) {
    const summary = await fetchSummary(db, now);
    const lists = Object.fromEntries(
      await Promise.all(LISTED.map(async (state) => [state, (await listFetches(db, { filters: { state }, after: null, size: STATUS_LIST_LIMIT })).rows.map(fetchBody)] as const)),
    ) as Record<(typeof LISTED)[number], RegistryFetch[]>;
    if (rest[0] === '--json') return [JSON.stringify({ ...summary, ...lists }, null, 2)];
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
    return lines;
  }
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
