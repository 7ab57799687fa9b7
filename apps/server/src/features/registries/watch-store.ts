import { randomBytes } from 'node:crypto';
import { formatOffsetTimestamp, parseWatchRef, WATCH_SOURCES, watchRefText, type Watch, type WatcherSummary, type WatchSource, type WatchTarget } from '@vigil/core';
import type { Kysely, Selectable } from 'kysely';
import { takeTurnsOn } from '../../platform/db/dialect.js';
import type { Database, WatchedPackagesTable, WatchesTable } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { VigilError } from '../../platform/errors.js';

// Who watches what (docs/watches.md): the customer API, the repository hook and the operator's
// commands write watches here; the watcher (watcher.ts) polls one watched_packages row per name.

export type WatchRow = Selectable<WatchesTable>;
export type WatchedPackageRow = Selectable<WatchedPackagesTable>;

/** The owner of the deployment's own watch list (`vigil-server registries watch …`). */
export const OPERATOR_OWNER = 'operator';

export const packageKey = (target: WatchTarget): string => watchRefText(target);

const newWatchId = () => `wat_${randomBytes(12).toString('hex')}`;

/** The wire form of a watch with its name's poll state. */
export function watchBody(row: WatchRow, poll: WatchedPackageRow | undefined): Watch {
  const seen = poll?.versions_seen == null ? null : (JSON.parse(poll.versions_seen) as string[]).length;
  return {
    id: row.watch_id as Watch['id'],
    package: row.package_key,
    ecosystem: row.ecosystem as Watch['ecosystem'],
    name: row.name,
    source: row.source,
    created_at: formatOffsetTimestamp(Number(row.created_at)),
    poll: {
      last_polled_at: poll?.last_polled_at == null ? null : formatOffsetTimestamp(Number(poll.last_polled_at)),
      next_poll_at: formatOffsetTimestamp(Number(poll?.next_poll_at ?? row.created_at)),
      latest: poll?.latest ?? null,
      versions: seen,
      last_error: poll?.last_error ?? null,
      failures: Number(poll?.failures ?? 0),
    },
  };
}

/** Makes sure the watcher has a row for each name, due at once when new. */
async function ensurePackages(db: Kysely<Database>, targets: readonly WatchTarget[], now: number): Promise<void> {
  if (targets.length === 0) return;
  await db
    .insertInto('watched_packages')
    .values(targets.map((t) => ({ package_key: packageKey(t), ecosystem: t.ecosystem, name: t.name, next_poll_at: now, created_at: now })))
    .onConflict((oc) => oc.column('package_key').doNothing())
    .execute();
}

/** Drops the watcher's row of names nobody watches any more (their poll state would be stale if watched again later). */
async function dropUnwatched(db: Kysely<Database>, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .deleteFrom('watched_packages')
    .where('package_key', 'in', [...keys])
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('watches').select('watch_id').whereRef('watches.package_key', '=', 'watched_packages.package_key'))))
    .execute();
}

export interface AddWatchesResult {
  /** Watches made now. */
  created: WatchRow[];
  /** Targets the owner already watched, as their existing rows. */
  existing: WatchRow[];
  /** Targets left out because the owner's limit was reached. */
  overLimit: WatchTarget[];
}

/**
 * Adds watches for one owner, each name once (already watched names answer their existing row). With
 * `limit`, names that would take the owner past it are left out (`overLimit`); the owner's
 * additions take turns, so two at once cannot both see room for one more.
 */
export async function addWatches(
  db: Kysely<Database>,
  owner: string,
  targets: readonly WatchTarget[],
  options: { source: WatchSource; now: number; limit: number | null },
): Promise<AddWatchesResult> {
  const unique = [...new Map(targets.map((t) => [packageKey(t), t])).values()];
  const result: AddWatchesResult = { created: [], existing: [], overLimit: [] };
  for (let start = 0; start < unique.length; start += 500) {
    const chunk = unique.slice(start, start + 500);
    await inTransaction(db, async (trx) => {
      await takeTurnsOn(trx, `watches-of:${owner}`);
      const found = await trx.selectFrom('watches').selectAll().where('owner', '=', owner).where('package_key', 'in', chunk.map(packageKey)).execute();
      const have = new Map(found.map((row) => [row.package_key, row]));
      result.existing.push(...found);
      let room = Infinity;
      if (options.limit !== null) {
        const { n } = await trx.selectFrom('watches').select((eb) => eb.fn.countAll<number | string>().as('n')).where('owner', '=', owner).executeTakeFirstOrThrow();
        room = Math.max(0, options.limit - Number(n));
      }
      const fresh: WatchRow[] = [];
      for (const target of chunk) {
        if (have.has(packageKey(target))) continue;
        if (fresh.length >= room) {
          result.overLimit.push(target);
          continue;
        }
        fresh.push({ watch_id: newWatchId(), owner, package_key: packageKey(target), ecosystem: target.ecosystem, name: target.name, source: options.source, created_at: options.now });
      }
      if (fresh.length > 0) await trx.insertInto('watches').values(fresh).execute();
      await ensurePackages(trx, chunk.filter((t) => !result.overLimit.includes(t)), options.now);
      result.created.push(...fresh);
    });
  }
  return result;
}

/** The poll state of these names, by package key. */
export async function pollStates(db: Kysely<Database>, keys: readonly string[]): Promise<Map<string, WatchedPackageRow>> {
  if (keys.length === 0) return new Map();
  const rows = await db.selectFrom('watched_packages').selectAll().where('package_key', 'in', [...new Set(keys)]).execute();
  return new Map(rows.map((row) => [row.package_key, row]));
}

/** `POST /v1/watches`: 201 with a new watch, or 200 with the one the account already has. */
export async function createWatch(db: Kysely<Database>, accountId: string, target: WatchTarget, options: { now: number; limit: number }): Promise<{ watch: Watch; created: boolean }> {
  const result = await addWatches(db, accountId, [target], { source: 'api', now: options.now, limit: options.limit });
  if (result.overLimit.length > 0) throw new VigilError('watch_limit_reached');
  const row = result.created[0] ?? result.existing[0]!;
  const poll = await pollStates(db, [row.package_key]);
  return { watch: watchBody(row, poll.get(row.package_key)), created: result.created.length > 0 };
}

/** One page of an owner's watches, oldest first (then by id). */
export async function listWatches(db: Kysely<Database>, owner: string, page: { offset: number; limit: number }): Promise<Watch[]> {
  const rows = await db.selectFrom('watches').selectAll().where('owner', '=', owner).orderBy('created_at').orderBy('watch_id').offset(page.offset).limit(page.limit).execute();
  const polls = await pollStates(db, rows.map((row) => row.package_key));
  return rows.map((row) => watchBody(row, polls.get(row.package_key)));
}

/** `DELETE /v1/watches/{id}`: the account's own watch only (another account's is `watch_not_found`). */
export async function deleteWatch(db: Kysely<Database>, accountId: string, watchId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await trx.deleteFrom('watches').where('watch_id', '=', watchId).where('owner', '=', accountId).returning('package_key').executeTakeFirst();
    if (row === undefined) throw new VigilError('watch_not_found');
    await dropUnwatched(trx, [row.package_key]);
  });
}

/** The watcher as the operator sees it: names, watches by source, what is due and how far behind. */
export async function watcherSummary(db: Kysely<Database>, now: number): Promise<WatcherSummary> {
  const [names, bySource, due, failing] = await Promise.all([
    db.selectFrom('watched_packages').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('watches')
      .select(['source', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('source')
      .execute(),
    db
      .selectFrom('watched_packages')
      .select([(eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.min('next_poll_at').as('oldest')])
      .where('next_poll_at', '<=', now)
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
      .executeTakeFirstOrThrow(),
    db.selectFrom('watched_packages').select((eb) => eb.fn.countAll<number | string>().as('n')).where('failures', '>', 0).executeTakeFirstOrThrow(),
  ]);
  const watches = Object.fromEntries(WATCH_SOURCES.map((s) => [s, 0])) as Record<WatchSource, number>;
  for (const row of bySource) watches[row.source] = Number(row.n);
  return {
    server_time: formatOffsetTimestamp(now),
    names: Number(names.n),
    watches,
    due: Number(due.n),
    oldest_due_at: due.oldest === null || due.oldest === undefined ? null : formatOffsetTimestamp(Number(due.oldest)),
    failing: Number(failing.n),
  };
}

/**
 * A verified repository push's dependencies, watched for its account (source `repository`): npm and
 * PyPI names only, direct dependencies first, then the others, each by name; names the account
 * already watches are kept as they are. Bounded by the account's limit: names beyond it are left
 * out (returned as `overLimit`), never an error, so a push never fails for it.
 */
export async function watchRepositoryDependencies(
  db: Kysely<Database>,
  accountId: string,
  dependencies: readonly { ecosystem: string; name: string; direct: boolean | null }[],
  options: { now: number; limit: number },
): Promise<AddWatchesResult> {
  const ordered = [...dependencies].sort((a, b) => Number(b.direct === true) - Number(a.direct === true) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const targets: WatchTarget[] = [];
  for (const dep of ordered) {
    if (dep.ecosystem !== 'npm' && dep.ecosystem !== 'pypi') continue;
    try {
      targets.push(parseWatchRef(`${dep.ecosystem}:${dep.name}`));
    } catch {
      // A name the registry could not hold (a lockfile entry of another kind): nothing to poll.
    }
  }
  return addWatches(db, accountId, targets, { source: 'repository', now: options.now, limit: options.limit });
}
