// The release watcher following many package names against a local registry: what one poll of a
// name costs and how many names one watcher follows per minute. The watcher (claim under a lease,
// conditional GET with the ETag kept in the database, poll state written back) is measured against
// a plain raw-HTTP conditional GET of the same packuments with the same ETags at the same
// concurrency in the same run, with no database at all. Two passes each: the first (every answer a
// 200 with the abbreviated packument: the baseline a new watch takes) and a steady pass (every
// answer a 304: what following costs once the names are known).
//
//   node watch-poll.mjs                         BENCH_NAMES=10000
//
// BENCH_NAMES (10000), BENCH_CONCURRENCY (8: the watcher's VIGIL_WATCH_CONCURRENCY default),
// BENCH_VERSIONS (20 versions per package). SQLite in a temporary directory; the connector runs
// with a rate limit far above what the run needs, as for a company mirror.
import { createHash } from 'node:crypto';
import { fork } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addWatches, createRegistryConnectors, createWatcher, migrateToLatest, openDatabase, OPERATOR_OWNER, registryFetchSettingsFromEnv } from '@vigil/server';

const NAMES = Number(process.env.BENCH_NAMES ?? 10000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 20);

/**
 * The local registry: a child process serving `NAMES` abbreviated packuments of `VERSIONS` versions
 * each from memory, as a registry's metadata server does, with a strong ETag per packument and a
 * 304 to a matching If-None-Match. (Verdaccio takes about a quarter of a second per publish on the
 * development machines, so 10,000 names would take most of an hour to load; what is measured here
 * is what a poll costs the watcher, and the raw baseline asks the same server.)
 */
function registryChild() {
  const docs = new Map();
  for (let i = 0; i < NAMES; i++) {
    const name = `watch-bench-${i}`;
    const versions = {};
    for (let v = 0; v < VERSIONS; v++) {
      const version = `1.${v}.0`;
      versions[version] = { name, version, dist: { tarball: `http://127.0.0.1/${name}/-/${name}-${version}.tgz`, integrity: `sha512-${createHash('sha512').update(version).digest('base64')}`, shasum: createHash('sha1').update(version).digest('hex') } };
    }
    const body = Buffer.from(JSON.stringify({ name, modified: '2026-11-29T00:00:00.000Z', 'dist-tags': { latest: `1.${VERSIONS - 1}.0` }, versions }));
    docs.set(`/${name}`, { body, etag: `"${createHash('sha1').update(body).digest('hex')}"` });
  }
  const server = http.createServer((req, res) => {
    const doc = docs.get(req.url);
    if (doc === undefined) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    if (req.headers['if-none-match'] === doc.etag) return res.writeHead(304, { etag: doc.etag }).end();
    res.writeHead(200, { 'content-type': 'application/vnd.npm.install-v1+json', 'content-length': doc.body.length, etag: doc.etag }).end(doc.body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}

async function startRegistry() {
  const child = fork(fileURLToPath(import.meta.url), ['registry'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env } });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the registry exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }) };
}

const ACCEPT = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';

/** The baseline: GET each packument (with its ETag when known) over keep-alive, body read and, for a 200, parsed; no database. */
async function rawPass(url, names, etags) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const target = new URL(url);
  const started = performance.now();
  const cpu = process.cpuUsage();
  let notModified = 0;
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < names.length) {
      const name = names[next++];
      const etag = etags.get(name);
      await new Promise((resolve, reject) => {
        const req = http.get({ host: target.hostname, port: target.port, path: `/${name}`, agent, headers: { accept: ACCEPT, 'accept-encoding': 'identity', ...(etag ? { 'if-none-match': etag } : {}) } }, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode === 304) notModified += 1;
            else if (res.statusCode === 200) {
              const doc = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              if (Object.keys(doc.versions).length !== VERSIONS) return reject(new Error(`${name}: ${Object.keys(doc.versions).length} versions`));
              etags.set(name, res.headers.etag);
            } else return reject(new Error(`${name}: ${res.statusCode}`));
            resolve();
          });
          res.on('error', reject);
        });
        req.on('error', reject);
      });
    }
  }));
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  agent.destroy();
  return { ms, cpuMs: (used.user + used.system) / 1000, notModified };
}

/** The watcher: every name due, one drain polls them all (claims in batches under leases, conditional GETs, poll state written). */
async function watcherPass(watcher, db) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const polled = await watcher.drain();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (polled !== NAMES) throw new Error(`the watcher polled ${polled} of ${NAMES} names`);
  const failing = await db.selectFrom('watched_packages').select('package_key').where('failures', '>', 0).execute();
  if (failing.length > 0) throw new Error(`${failing.length} names failed, e.g. ${failing[0].package_key}`);
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

if (process.argv[2] === 'registry') {
  registryChild();
} else {
const root = await mkdtemp(join(tmpdir(), 'vigil-watch-bench-'));
const registry = await startRegistry();
try {
  const names = Array.from({ length: NAMES }, (_, i) => `watch-bench-${i}`);
  const database = await openDatabase({ url: `sqlite:${join(root, 'vigil.db')}` });
  await migrateToLatest(database.db);
  const clock = { now: Date.now() };
  const settings = registryFetchSettingsFromEnv({ VIGIL_NPM_REGISTRY_URL: registry.url, VIGIL_WATCH_CONCURRENCY: String(CONCURRENCY) });
  const connectors = createRegistryConnectors(settings, { maxArtifactBytes: 64 * 1024 * 1024, overrides: { metadataCacheEntries: 0, concurrency: CONCURRENCY, requestsPerSecond: 1_000_000, burst: 1_000_000 } });
  await addWatches(database.db, OPERATOR_OWNER, names.map((name) => ({ ecosystem: 'npm', name })), { source: 'operator', now: clock.now, limit: null });
  const watcher = createWatcher({ db: database.db, settings, connectors, now: () => clock.now });

  const etags = new Map();
  // First passes: every answer a 200 (the watcher's is the baseline; it queues each name's latest).
  const rawFirst = await rawPass(registry.url, names, etags);
  const watchFirst = await watcherPass(watcher, database.db);
  // Steady passes: every name due again, every answer a 304. Alternating, three each; medians compared.
  const raw = [];
  const watch = [];
  for (let run = 0; run < 3; run++) {
    raw.push(await rawPass(registry.url, names, etags));
    if (raw.at(-1).notModified !== NAMES) throw new Error(`raw pass: ${raw.at(-1).notModified} of ${NAMES} answered 304`);
    clock.now += 2 * settings.watch.intervalMs;
    const before = connectors.npm.counters.notModified;
    watch.push(await watcherPass(watcher, database.db));
    if (connectors.npm.counters.notModified - before !== NAMES) throw new Error(`watcher pass: ${connectors.npm.counters.notModified - before} of ${NAMES} answered 304`);
  }
  const med = (xs, key) => [...xs.map((x) => x[key])].sort((a, b) => a - b)[1];
  const queued = await database.db.selectFrom('registry_fetches').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  connectors.close();
  await database.close();

  const perMinute = (ms) => Math.round((NAMES / ms) * 60_000);
  const line = (label, r) => `${label.padEnd(34)} ${(r.ms / 1000).toFixed(2).padStart(7)} s  ${((r.ms / NAMES) * 1000).toFixed(0).padStart(6)} µs/name  ${((r.cpuMs / NAMES) * 1000).toFixed(0).padStart(6)} µs CPU/name  ${String(perMinute(r.ms)).padStart(8)} names/min`;
  console.log(`\n${NAMES} names, ${VERSIONS} versions each, concurrency ${CONCURRENCY}, SQLite; ${queued.n} fetches queued by the first pass (each name's latest)`);
  console.log(line('first pass, raw GET (200s)', rawFirst));
  console.log(line('first pass, watcher (baseline)', watchFirst));
  const steadyRaw = { ms: med(raw, 'ms'), cpuMs: med(raw, 'cpuMs') };
  const steadyWatch = { ms: med(watch, 'ms'), cpuMs: med(watch, 'cpuMs') };
  console.log(line('steady pass, raw GET (304s)', steadyRaw));
  console.log(line('steady pass, watcher (304s)', steadyWatch));
  console.log(`\nratio (raw time / watcher time): first pass ${(rawFirst.ms / watchFirst.ms).toFixed(2)}, steady pass ${(steadyRaw.ms / steadyWatch.ms).toFixed(2)}`);
  const npmNames = 3_500_000;
  const minutesPerCycle = npmNames / perMinute(steadyWatch.ms);
  console.log(`extrapolated: following ${npmNames.toLocaleString('en')} names (about all of npm) at this rate takes one watcher ${minutesPerCycle.toFixed(0)} min per round of polls (${Math.ceil(minutesPerCycle / 5)} watchers for the default 300 s interval), before any registry rate limit`);
} finally {
  await registry.stop();
  await rm(root, { recursive: true, force: true });
}
}
