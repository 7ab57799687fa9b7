import { randomUUID } from 'node:crypto';
import { parsePackageRef, type WatchEcosystem } from '@vigil/core';
import type { CachedMetadata } from '@vigil/registries';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { pollEvery } from '../../platform/jobs/poll-every.js';
import { createStopSwitch, retryWrite } from '../../platform/jobs/retry-write.js';
import { singleFlightDrain } from '../../platform/jobs/single-flight-drain.js';
import { queueFetches } from './fetch-queue.js';
import type { RegistryConnectors } from './fetch-worker.js';
import type { RegistryFetchSettings } from './fetch-settings.js';
import type { WatchedPackageRow } from './watch-store.js';

/** How long a watcher holds the names it claimed; a watcher that died leaves them to be taken again after this. */
export const WATCH_LEASE_MS = 5 * 60_000;
/**
 * The waits before each retry of a poll's final write (recording the poll, releasing the name) that
 * failed, as a dropped database connection fails it: a few seconds in all, then the lease is left to run out.
 */
export const WATCH_WRITE_RETRY_MS: readonly number[] = [250, 500, 1_000, 2_000];
/** The longest wait between two polls of a name whose polls keep failing. */
export const MAX_WATCH_BACKOFF_MS = 6 * 3_600_000;
/** Each poll time is the interval times a factor drawn uniformly from [1 − JITTER, 1 + JITTER]. */
export const WATCH_JITTER = 0.2;

export interface WatcherLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CreateWatcherOptions {
  db: Kysely<Database>;
  settings: Pick<RegistryFetchSettings, 'pollMs' | 'watch'>;
  /** The watcher's own connectors (created with metadataCacheEntries 0: the ETags live in the database). */
  connectors: Pick<RegistryConnectors, 'npm' | 'pypi'>;
  now?: () => number;
  /** Draws the jitter factor's randomness in [0, 1); Math.random by default. */
  random?: () => number;
  /** Told when fetches were queued, so this process's fetch worker starts them at once. */
  onQueued?: () => void;
  logger?: WatcherLogger;
}

export interface Watcher {
  start(): void;
  /** No more polls: names in hand are given back (due as they were), answers still arriving are dropped. */
  stop(): Promise<void>;
  /** Polls every due name until none is due; resolves to how many were polled. A call while one runs joins it. */
  drain(): Promise<number>;
  /** This watcher's lease owner id (logs, tests). */
  readonly holderId: string;
}

/** The wait before the next poll: the interval, doubled per failure in a row (at most MAX_WATCH_BACKOFF_MS), jittered. */
export function nextPollDelay(intervalMs: number, failures: number, random: () => number): number {
  const base = Math.min(MAX_WATCH_BACKOFF_MS, intervalMs * 2 ** Math.min(failures, 30));
  return Math.round(base * (1 - WATCH_JITTER + 2 * WATCH_JITTER * random()));
}

/** What one poll saw: the versions and `latest` listed now, or why it failed. */
type PollAnswer = { ok: true; notModified: boolean; versions: string[]; latest: string | null; etag: string | null } | { ok: false; error: string };

/** The document a 304 stands for: rebuilt from what the database kept, which is all the watcher reads of it. */
function kept(row: WatchedPackageRow, seen: string[]): CachedMetadata | undefined {
  if (row.etag === null || row.versions_seen === null) return undefined;
  const versions = Object.fromEntries(seen.map((v) => [v, {}]));
  return row.ecosystem === 'npm'
    ? { etag: row.etag, document: { name: row.name, 'dist-tags': row.latest === null ? {} : { latest: row.latest }, versions } }
    : { etag: row.etag, document: { info: { version: row.latest }, releases: versions } };
}

async function ask(connectors: CreateWatcherOptions['connectors'], row: WatchedPackageRow, seen: string[]): Promise<PollAnswer> {
  const revalidate = kept(row, seen);
  const options = revalidate === undefined ? {} : { revalidate };
  if (row.ecosystem === 'npm') {
    // The abbreviated (install) form: versions and dist-tags without readmes, the cheapest answer that lists every version.
    const result = await connectors.npm.packument(row.name, { form: 'abbreviated', ...options });
    if (result.state !== 'ok') return { ok: false, error: `${result.state}: ${result.detail}` };
    const tags = result.packument['dist-tags'];
    const latest = tags !== null && typeof tags === 'object' && typeof tags.latest === 'string' ? tags.latest : null;
    return { ok: true, notModified: result.not_modified, versions: Object.keys(result.packument.versions), latest, etag: result.etag };
  }
  const result = await connectors.pypi.project(row.name, options);
  if (result.state !== 'ok') return { ok: false, error: `${result.state}: ${result.detail}` };
  const releases = result.document.releases;
  const info = result.document.info as { version?: unknown } | null | undefined;
  if (releases === null || typeof releases !== 'object' || Array.isArray(releases)) return { ok: false, error: `invalid_metadata: ${row.name}: the JSON API answer has no releases object` };
  const latest = info !== null && typeof info === 'object' && typeof info.version === 'string' ? info.version : null;
  return { ok: true, notModified: result.not_modified, versions: Object.keys(releases), latest, etag: result.etag };
}

/**
 * The canonical purl a fetch of this version is queued under (npm names keep their capitals:
 * `pkg:npm/JSONStream@1.3.5`; docs/package-references.md), or null for a version the purl rules refuse.
 */
function fetchPurl(ecosystem: WatchEcosystem, name: string, version: string): string | null {
  try {
    return parsePackageRef(`${ecosystem}:${name}@${version}`).purl;
  } catch {
    return null;
  }
}

/**
 * The release watcher (docs/watches.md, "The watcher"): claims due names under a lease (any number of
 * processes may run one; a name is polled by one at a time), asks the registry with the stored ETag,
 * and queues a registry fetch (fetch-queue.ts) for every version it had not seen; on the first
 * answer only `latest` is queued, the rest is the baseline. Failed polls back off.
 */
export function createWatcher(options: CreateWatcherOptions): Watcher {
  const { db } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const holderId = randomUUID();
  const lanes = Math.max(1, options.settings.watch.concurrency);
  /** Stopped from stop() to the next start(); its signal ends a retry's backoff at once. */
  const halt = createStopSwitch();
  const inHand = new Set<string>();

  const dueNow = (at: number) => (eb: ExpressionBuilder<Database, 'watched_packages'>) => eb.and([eb('next_poll_at', '<=', at), eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', at)])]);

  /**
   * Claims one due name, oldest due first, for one lane. The update re-checks dueness, so a name two
   * lanes (or two watchers) race for goes to one; the loser tries the next candidate, then looks again.
   */
  async function claimOne(): Promise<WatchedPackageRow | undefined> {
    while (!halt.stopped) {
      const at = now();
      const candidates = await db.selectFrom('watched_packages').select('package_key').where(dueNow(at)).orderBy('next_poll_at').limit(lanes).execute();
      if (candidates.length === 0) return undefined;
      for (const candidate of candidates) {
        const [row] = await db
          .updateTable('watched_packages')
          .set({ lease_owner: holderId, lease_expires_at: at + WATCH_LEASE_MS })
          .where('package_key', '=', candidate.package_key)
          .where(dueNow(at))
          .returningAll()
          .execute();
        if (row !== undefined) return row;
      }
    }
    return undefined;
  }

  /** Gives names back due as they were, so the next lane or watcher takes them without waiting for the lease. */
  async function giveBack(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await db.updateTable('watched_packages').set({ lease_owner: null, lease_expires_at: null }).where('package_key', 'in', keys).where('lease_owner', '=', holderId).execute();
  }

  /** Which of these purls need a fetch: not queued before and named by no stored claim. */
  async function unseen(purls: string[]): Promise<string[]> {
    if (purls.length === 0) return [];
    const [queued, claimed] = await Promise.all([
      db.selectFrom('registry_fetches').select('purl').where('purl', 'in', purls).execute(),
      db.selectFrom('artifact_packages').select('purl').distinct().where('purl', 'in', purls).execute(),
    ]);
    const known = new Set([...queued, ...claimed].map((r) => r.purl));
    return purls.filter((p) => !known.has(p));
  }

  async function pollOne(row: WatchedPackageRow): Promise<void> {
    const seen: string[] = row.versions_seen === null ? [] : (JSON.parse(row.versions_seen) as string[]);
    const answer = await ask(options.connectors, row, seen);
    if (halt.stopped) return; // given back by stop(): the answer is dropped
    const at = now();
    /**
     * The final write of this poll, which also releases the name: only while this claim's lease is
     * still on the row, so a retry after an attempt that committed (its answer lost with the
     * connection) matches no row and counts nothing twice, and a name the lease lost to another poll
     * is not overwritten.
     */
    const mine = () =>
      db
        .updateTable('watched_packages')
        .where('package_key', '=', row.package_key)
        .where('lease_owner', '=', holderId)
        .where('lease_expires_at', '=', Number(row.lease_expires_at));
    // One dropped connection would otherwise leave the name leased, its new releases waiting out WATCH_LEASE_MS.
    const record = (write: () => Promise<unknown>) =>
      retryWrite(write, {
        delaysMs: WATCH_WRITE_RETRY_MS,
        signal: halt.signal,
        onFailure: (error, attempt, willRetry) => {
          if (!halt.stopped) options.logger?.error({ err: error, package: row.package_key, attempt }, willRetry ? 'release watcher: could not record a poll; retrying' : 'release watcher: could not record a poll; the lease will free the name');
        },
      });
    const release = { lease_owner: null, lease_expires_at: null, last_polled_at: at };
    if (!answer.ok) {
      const failures = Number(row.failures) + 1;
      await record(() =>
        mine()
          .set({ ...release, failures, last_error: answer.error, next_poll_at: at + nextPollDelay(options.settings.watch.intervalMs, failures, random) })
          .execute(),
      );
      options.logger?.info({ package: row.package_key, failures, error: answer.error }, 'release watcher: poll failed; backing off');
      return;
    }
    const next = at + nextPollDelay(options.settings.watch.intervalMs, 0, random);
    if (answer.notModified) {
      await record(() => mine().set({ ...release, failures: 0, last_error: null, next_poll_at: next }).execute());
      return;
    }
    const before = new Set(seen);
    // First answer: the versions present are the baseline; only `latest` is judged now.
    const fresh = row.versions_seen === null ? (answer.latest !== null && answer.versions.includes(answer.latest) ? [answer.latest] : []) : answer.versions.filter((v) => !before.has(v));
    const purls = await unseen(fresh.flatMap((v) => fetchPurl(row.ecosystem as WatchEcosystem, row.name, v) ?? []));
    // Queued before the poll state moves on: a crash in between polls again and queues nothing twice (the purl is the queue's key).
    if (purls.length > 0) {
      await queueFetches(db, purls.map((purl) => ({ purl, ecosystem: row.ecosystem })), at);
      options.onQueued?.();
      options.logger?.info({ package: row.package_key, queued: purls }, 'release watcher: new versions queued for fetching');
    }
    const changed = row.versions_seen !== null && fresh.length > 0;
    await record(() =>
      mine()
        .set((eb) => ({
          ...release,
          etag: answer.etag,
          versions_seen: JSON.stringify(answer.versions),
          latest: answer.latest,
          failures: 0,
          last_error: null,
          next_poll_at: next,
          versions_queued: eb('versions_queued', '+', purls.length),
          ...(changed ? { last_changed_at: at } : {}),
        }))
        .execute(),
    );
  }

  /** Lanes waiting for a name to fall due while another lane's poll is still in flight; woken by a poll ending, drain() or stop(). */
  let idlers: (() => void)[] = [];
  const wakeIdlers = () => {
    const woken = idlers;
    idlers = [];
    for (const wake of woken) wake();
  };
  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.settings.pollMs);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      idlers.push(done);
    });
  let busy = 0;

  /**
   * One lane: claims and polls one name at a time, independently of the other lanes (as the fetch
   * worker's lanes do), so one slow or hanging registry answer holds up no other name. While any
   * lane still has a poll in flight an idle lane keeps looking for due names (every
   * VIGIL_REGISTRY_POLL_S); the drain ends when nothing is due and no poll is in flight.
   */
  async function lane(): Promise<number> {
    let polled = 0;
    while (!halt.stopped) {
      const row = await claimOne();
      if (row === undefined) {
        if (busy === 0 || halt.stopped) break;
        await idle();
        continue;
      }
      if (halt.stopped) {
        // Claimed while stop() ran: it could not see this name, so it goes back here.
        await giveBack([row.package_key]).catch((error: unknown) => options.logger?.error({ err: error }, 'release watcher: could not give back names at stop'));
        break;
      }
      busy += 1;
      inHand.add(row.package_key);
      try {
        await pollOne(row);
        polled += 1;
      } catch (error) {
        // Left leased (its final write retried first: record()): the lease runs out and the name is polled again, by this process or another.
        if (!halt.stopped) options.logger?.error({ err: error, package: row.package_key }, 'release watcher: poll failed unexpectedly');
      } finally {
        inHand.delete(row.package_key);
        busy -= 1;
        wakeIdlers();
      }
    }
    return polled;
  }

  async function drainOnce(): Promise<number> {
    const counts = await Promise.all(Array.from({ length: lanes }, () => lane()));
    return counts.reduce((a, b) => a + b, 0);
  }

  const flight = singleFlightDrain(drainOnce, () => halt.stopped);
  // A call while lanes idle beside a slow poll wakes them at once (names may have fallen due).
  const drain = () => {
    wakeIdlers();
    return flight.drain();
  };
  const loop = pollEvery(options.settings.pollMs, drain, (error) => options.logger?.error({ err: error }, 'release watcher: could not claim names'));

  return {
    holderId,
    start() {
      if (loop.running) return;
      halt.start();
      loop.start();
    },
    async stop() {
      halt.stop();
      loop.stop();
      wakeIdlers();
      const held = [...inHand];
      inHand.clear();
      await giveBack(held).catch((error: unknown) => options.logger?.error({ err: error }, 'release watcher: could not give back names at stop'));
    },
    drain,
  };
}
