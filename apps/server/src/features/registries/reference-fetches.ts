import { formatOffsetTimestamp, parsePackageRef, type ReferenceFetch } from '@vigil/core';
import { isNpmName, isPypiName } from '@vigil/registries';
import type { Kysely } from 'kysely';
import type { PendingReference, ReferenceFetches } from '../artifacts/index.js';
import type { Database, TrackName } from '../../platform/db/schema.js';
import { expectedVerdictAt, type RoundTimings } from './expected-verdict.js';
import { fetchRows, queueFetches, type FetchRow } from './fetch-queue.js';

export interface CreateReferenceFetchesOptions {
  db: Kysely<Database>;
  /** The round timetable (VIGIL_ROUND_*), for `expected_by`. */
  timings: RoundTimings;
  now: () => number;
  /** Told when fetches were queued, so this process's worker starts them at once. */
  onQueued?: () => void;
}

/**
 * The registry ecosystem a pending reference is fetched from, or undefined when Vigil does not fetch
 * it (docs/registries.md, "What queues a fetch"): an npm or PyPI reference with a version, a name the
 * registry could hold, no subpath, and no qualifier but PyPI's `file_name`. Anything else a caller
 * adds to a purl (made-up qualifiers, a subpath, an encoded slash in a name) would otherwise make
 * a fetch, and a trusted claim, per spelling of the same release.
 */
export function fetchableEcosystem(purl: string): 'npm' | 'pypi' | undefined {
  let ref;
  try {
    ref = parsePackageRef(purl);
  } catch {
    return undefined;
  }
  if (ref.version === null || purl.includes('#')) return undefined;
  const qualifiers = Object.keys(ref.qualifiers);
  if (ref.type === 'npm') {
    // The scope is the purl's namespace: a name segment holding `@` or `/` itself was encoded into one.
    if (ref.name.includes('/') || ref.name.includes('@')) return undefined;
    const name = ref.namespace === null ? ref.name : `${ref.namespace}/${ref.name}`;
    return qualifiers.length === 0 && isNpmName(name) ? 'npm' : undefined;
  }
  if (ref.type === 'pypi') {
    return ref.namespace === null && isPypiName(ref.name) && qualifiers.every((q) => q === 'file_name') ? 'pypi' : undefined;
  }
  return undefined;
}

/**
 * On-demand fetching as verification sees it (features/artifacts ReferenceFetches): queues a fetch
 * for every pending npm or PyPI reference with a version that no counted claim names and that was
 * never queued, and answers where each pending reference's fetch stands.
 */
export function createReferenceFetches(options: CreateReferenceFetchesOptions): ReferenceFetches {
  const { db } = options;

  async function expectedBy(rows: FetchRow[], now: number): Promise<Map<string, number>> {
    const stored = rows.filter((row) => row.state === 'stored' && row.track !== null && row.artifact_id !== null);
    const byPurl = new Map<string, number>();
    if (stored.length === 0) return byPurl;
    const tracks = [...new Set(stored.map((row) => row.track as TrackName))];
    const latest = new Map(
      await Promise.all(
        tracks.map(async (track) => [track, await db.selectFrom('rounds').selectAll().where('track', '=', track).orderBy('round_number', 'desc').limit(1).executeTakeFirst()] as const),
      ),
    );
    const openRounds = [...latest.values()].flatMap((round) => (round !== undefined && round.status === 'open' && round.phase === 'evaluation' ? [round.round_id] : []));
    const withTasks = new Set<number>();
    if (openRounds.length > 0) {
      const tasks = await db
        .selectFrom('tasks')
        .select('artifact_id')
        .distinct()
        .where('round_id', 'in', openRounds)
        .where('artifact_id', 'in', stored.map((row) => Number(row.artifact_id)))
        .execute();
      for (const task of tasks) withTasks.add(Number(task.artifact_id));
    }
    for (const row of stored) {
      const round = latest.get(row.track as TrackName);
      byPurl.set(row.purl, expectedVerdictAt(round, { hasTask: withTasks.has(Number(row.artifact_id)), now, timings: options.timings }));
    }
    return byPurl;
  }

  return {
    async consult(pending: readonly PendingReference[]): Promise<Map<string, ReferenceFetch>> {
      const now = options.now();
      const purls = pending.map((p) => p.purl);
      let rows = await fetchRows(db, purls);
      const unseen = pending.flatMap((p) => {
        if (p.queued || rows.has(p.purl)) return [];
        const ecosystem = fetchableEcosystem(p.purl);
        return ecosystem === undefined ? [] : [{ purl: p.purl, ecosystem }];
      });
      if (unseen.length > 0) {
        await queueFetches(db, unseen, now);
        options.onQueued?.();
        rows = await fetchRows(db, purls);
      }
      const expected = await expectedBy([...rows.values()], now);
      const answers = new Map<string, ReferenceFetch>();
      for (const row of rows.values()) {
        if (row.state === 'stored') {
          const at = expected.get(row.purl);
          answers.set(row.purl, { state: 'queued_for_evaluation', reason: null, expected_by: at === undefined ? null : formatOffsetTimestamp(at) });
        } else if (row.state === 'failed') {
          answers.set(row.purl, { state: 'failed', reason: row.last_error, expected_by: null });
        } else {
          answers.set(row.purl, { state: 'fetching', reason: row.last_error, expected_by: null });
        }
      }
      return answers;
    },
  };
}
