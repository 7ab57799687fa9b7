// The release watcher inside the soak run (docs/watches.md, "The watcher"): a real Verdaccio
// (bench/local-registry.mjs, as bench/verdict-latency.mjs starts it) that the workers' watchers poll,
// a few names published before the run and watched, and new versions of them published while the
// faults are injected. The invariant is the watcher's documented promise, checked against the
// database: the first answer for a name is its baseline (only its `latest` queued), every version
// published after it is queued for a fetch at once, exactly once (the queue is keyed by purl and
// the watcher is at-least-once), and each queued fetch is fetched and stored.
import { createHash } from 'node:crypto';
import { startVerdaccio } from '../local-registry.mjs';
import { packageTarball } from './customers.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// The fetch queue's lease (apps/server/src/features/registries/fetch-queue.ts, FETCH_LEASE_MS;
// docs/registries.md): a fetch whose holder died or lost its database mid-way is taken again only
// when its lease runs out.
const FETCH_LEASE_MS = 10 * 60_000;

/** Verdaccio with a user to publish as; `publish` is what `npm publish` sends (one version, made latest). */
export async function startWatchedRegistry(root) {
  const verdaccio = await startVerdaccio(root);
  const user = await fetch(`${verdaccio.url}/-/user/org.couchdb.user:soak`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'soak', password: 'soak-password', type: 'user', roles: [] }),
  });
  if (!user.ok) throw new Error(`verdaccio: adding the user answered ${user.status}`);
  const { token } = await user.json();
  const published = []; // { name, version, at }: answered 2xx at `at`
  const uncertain = []; // `${name}@${version}` whose publish failed: maybe stored, maybe not
  async function publish(name, version) {
    const tgz = packageTarball(name, version, 'registry');
    const body = {
      _id: name,
      name,
      'dist-tags': { latest: version },
      versions: {
        [version]: {
          name,
          version,
          _id: `${name}@${version}`,
          dist: { tarball: `${verdaccio.url}/${name}/-/${name}-${version}.tgz`, integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`, shasum: createHash('sha1').update(tgz).digest('hex') },
        },
      },
      _attachments: { [`${name}-${version}.tgz`]: { content_type: 'application/octet-stream', data: tgz.toString('base64'), length: tgz.length } },
    };
    try {
      const answer = await fetch(`${verdaccio.url}/${name}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
      await answer.arrayBuffer();
      if (!answer.ok) throw new Error(`${answer.status}`);
      published.push({ name, version, at: Date.now() });
      return true;
    } catch {
      // No answer or an error: the version may or may not be stored; it is neither expected nor refused.
      uncertain.push(`${name}@${version}`);
      return false;
    }
  }
  return { url: verdaccio.url, publish, published, uncertain, stop: verdaccio.stop };
}

/**
 * Publishes a new version of one of `names` in turn every `everyMs` until stopped (2.0.0, 2.1.0, …
 * per name, each made `latest`): the watcher must queue each one. Runs beside the faults.
 */
export function startPublisher({ registry, names, everyMs }) {
  let stopping = false;
  let wake = () => {};
  const loop = (async () => {
    for (let i = 0; !stopping; i++) {
      await registry.publish(names[i % names.length], `2.${Math.floor(i / names.length)}.0`);
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, everyMs);
      });
    }
  })();
  return {
    async stop() {
      stopping = true;
      wake();
      await loop;
    },
  };
}

const purlOf = (name, version) => `pkg:npm/${name}@${version}`;

/** Waits until every watched name has been polled once (its baseline); throws after `timeoutMs`. */
export async function waitForBaseline(pg, names, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pg.query("select name from watched_packages where ecosystem = 'npm' and name = any($1) and last_polled_at is not null and failures = 0", [names]);
    if (rows.length === names.length) return;
    if (Date.now() > deadline) throw new Error(`the watcher took no baseline of ${names.length - rows.length} of ${names.length} names within ${timeoutMs} ms`);
    await sleep(500);
  }
}

/**
 * The invariant, after the traffic stopped: (1) every name is polled successfully after its last
 * publish (waiting for a lease a fault left behind to run out, as documented), (2) the fetch queue
 * holds exactly the baseline's `latest` and every version published since, one row each, and no
 * other version of those names (not the baseline's older versions), (3) every one of those fetches
 * is stored, as one artifact per version. A fetch still `running` under a lease taken during a worker kill or a PostgreSQL fault
 * is the one exception: its holder lost it with the fault, and the fetch queue takes it again when
 * the 10-minute lease runs out (docs/registries.md, "The worker"); such rows are named.
 */
export async function checkWatcher(pg, { registry, names, baselineLatest, baselineOlder, windows, intervalMs, log }) {
  const lastPublish = new Map();
  for (const p of registry.published) lastPublish.set(p.name, Math.max(lastPublish.get(p.name) ?? 0, p.at));
  const expected = new Set([...baselineLatest, ...registry.published.map((p) => purlOf(p.name, p.version))]);
  const started = Date.now();
  // (1) Polled after the last publish. A name never stuck under a lease is polled within an
  // interval × 1.2 (plus a backoff if a poll failed): 4 intervals are plenty. A name leased when a
  // fault cut its watcher off waits for its lease (5 min) first.
  let behind = [];
  let announced = 0;
  for (;;) {
    const { rows } = await pg.query("select name, last_polled_at, failures, lease_expires_at from watched_packages where ecosystem = 'npm' and name = any($1)", [names]);
    behind = rows.filter((r) => !(Number(r.last_polled_at) > (lastPublish.get(r.name) ?? 0) && r.failures === 0));
    if (behind.length === 0) break;
    const leaseEnd = Math.max(0, ...behind.map((r) => Number(r.lease_expires_at ?? 0)));
    const deadline = Math.max(started + 4 * intervalMs, leaseEnd + 2 * intervalMs);
    if (Date.now() > deadline) break;
    if (leaseEnd > Date.now() && leaseEnd !== announced) {
      announced = leaseEnd;
      log?.(`watcher: ${behind.map((r) => r.name).join(', ')} under a lease until ${new Date(leaseEnd).toISOString().slice(11, 19)} (a fault cut their poll off); waiting for it to run out`);
    }
    await sleep(leaseEnd > Date.now() ? 5_000 : 1_000);
  }
  const pollWaitMs = Date.now() - started;
  // (3) Fetches settle: stored, failed, or still held (retries come VIGIL_REGISTRY_RETRY_S apart).
  const fetchDeadline = Date.now() + 90_000;
  let fetches = [];
  for (;;) {
    fetches = (await pg.query('select purl, state, attempts, last_error, lease_expires_at, created_at, stored_at from registry_fetches where purl like any($1::text[])', [names.map((n) => `pkg:npm/${n}@%`)])).rows;
    const unsettled = fetches.filter((f) => f.state === 'queued' || (f.state === 'running' && !heldByFault(f, windows)));
    if (unsettled.length === 0 || Date.now() > fetchDeadline) break;
    await sleep(1_000);
  }
  const queued = new Map(fetches.map((f) => [f.purl, f]));
  const missing = [...expected].filter((p) => !queued.has(p));
  const unexpected = fetches.filter((f) => !expected.has(f.purl) && !registry.uncertain.some((u) => f.purl === `pkg:npm/${u}`));
  const older = baselineOlder.filter((p) => queued.has(p));
  const failed = fetches.filter((f) => f.state === 'failed');
  const held = fetches.filter((f) => f.state === 'running' && heldByFault(f, windows));
  const notStored = fetches.filter((f) => expected.has(f.purl) && f.state !== 'stored' && !held.includes(f));
  const retried = fetches.filter((f) => f.attempts > 1).length;
  // How soon after its publish each release was queued and stored (printed, not asserted): the
  // interval (10 s × 0.8–1.2) bounds the first, retries and faults stretch the second.
  const delays = (column) => registry.published.map((p) => queued.get(purlOf(p.name, p.version))?.[column]).map((v, i) => (v == null ? NaN : Number(v) - registry.published[i].at)).filter(Number.isFinite).sort((a, b) => a - b);
  const spread = (xs) => (xs.length ? `median ${(xs[Math.floor(xs.length / 2)] / 1000).toFixed(1)} s, max ${(xs.at(-1) / 1000).toFixed(1)} s` : 'none');
  // Fetched once: the bytes of each version are one artifact, even when a fetch ran twice.
  const artifacts = (await pg.query('select purl, count(distinct artifact_id)::int as n from artifact_packages where purl like any($1::text[]) group by 1', [names.map((n) => `pkg:npm/${n}@%`)])).rows;
  const twice = artifacts.filter((a) => a.n > 1);
  const storedWithout = fetches.filter((f) => f.state === 'stored' && !artifacts.some((a) => a.purl === f.purl));
  return {
    name: 'registry watcher: each release queued once, fetched',
    ok: registry.published.length > 0 && behind.length === 0 && missing.length === 0 && unexpected.length === 0 && older.length === 0 && failed.length === 0 && notStored.length === 0 && twice.length === 0 && storedWithout.length === 0,
    detail:
      `${names.length} names watched on Verdaccio, ${registry.published.length} versions published during the run (${registry.uncertain.length} publishes failed); ` +
      `queued: ${expected.size - missing.length}/${expected.size} expected (each baseline latest + every published version), ${missing.length} missing${missing.length ? ` (${missing.slice(0, 3).join(', ')})` : ''}, ` +
      `${unexpected.length} unexpected${unexpected.length ? ` (${unexpected.slice(0, 3).map((f) => f.purl).join(', ')})` : ''}, ${older.length} of the baselines' older versions; ` +
      `publish → queued ${spread(delays('created_at'))}, → stored ${spread(delays('stored_at'))}; ` +
      `${behind.length} names not polled after their last publish (waited ${(pollWaitMs / 1000).toFixed(0)} s); ` +
      `fetches: ${fetches.filter((f) => f.state === 'stored').length} stored (${retried} after a retry), ${failed.length} failed${failed.length ? ` (${failed[0].purl}: ${failed[0].last_error})` : ''}, ${notStored.length} not stored${notStored.length ? ` (${notStored.slice(0, 2).map((f) => `${f.purl} ${f.state} ${f.last_error ?? ''}`).join(', ')})` : ''}, ` +
      `${held.length} held under a lease a fault left behind${held.length ? ` (${held.map((f) => f.purl).join(', ')})` : ''}; ` +
      `artifacts: ${artifacts.length} versions with bytes, ${twice.length} with two artifacts, ${storedWithout.length} stored fetches without one`,
  };
}

/** A `running` fetch whose lease was taken during a worker kill or a PostgreSQL fault (or within 5 s after one). */
function heldByFault(fetchRow, windows) {
  const claimedAt = Number(fetchRow.lease_expires_at ?? 0) - FETCH_LEASE_MS;
  return windows.some((w) => /worker|PostgreSQL/.test(w.name) && claimedAt >= w.from - 5_000 && claimedAt <= w.to + 5_000);
}
