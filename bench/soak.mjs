// The soak run (issue 29, "The whole shape, under load and faults"): the deployment shape of
// docs/scaling.md on one machine, loopback only, under mixed traffic while faults are injected, then
// the invariants checked and printed. Exits 1 when one fails, 2 when the run could not start.
//
//   node bench/soak.mjs                 about 10 minutes of traffic (plus about a minute of set-up and checks)
//   node bench/soak.mjs --minutes 5     another length (phases scale with it)
//   node bench/soak.mjs --short         about 2 minutes of traffic
//   node bench/soak.mjs --ci            the form .ci/run runs: about 1 minute of traffic, every fault shortened
//   node bench/soak.mjs --keep          keep the run's directory (process logs, nginx config) afterwards
//   node bench/soak.mjs --json <file>   also write the figures and invariants as JSON
//
// Needs: the build (`pnpm build`), PostgreSQL (SOAK_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres: a database soak_<pid> is created there and dropped at
// the end), Redis (SOAK_REDIS_URL, default redis://127.0.0.1:6379; the run uses database index
// SOAK_REDIS_DB, default 11, flushed before and after), Verdaccio (a dev dependency of @vigil/registries,
// started here as the local registry the workers' release watchers poll), and nginx (Debian: apt-get install -y nginx;
// or SOAK_NGINX=<path>). The S3 stand-in (s3rver) runs in this process. docs/operations.md, "Soak run".
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import S3rver from 's3rver';
import { loadFaultProxies } from './soak/proxies.mjs';
import { createStats } from './soak/stats.mjs';
import { createFleet, findNginx, startNginx, until200 } from './soak/fleet.mjs';
import { send, closeAgents } from './soak/http-client.mjs';
import { startFlakyReceiver } from './soak/receiver.mjs';
import { startReaders, budgetBurst } from './soak/readers.mjs';
import { startCustomers } from './soak/customers.mjs';
import { startValidators, validatorKeypairs } from './soak/validators.mjs';
import { faultPhases, runPhases } from './soak/faults.mjs';
import { checkAttestationReads, checkAttestations, checkLog, checkRounds, checkUploads, checkWebhooks } from './soak/invariants.mjs';
import { printReport } from './soak/report.mjs';
import { checkWatcher, startPublisher, startWatchedRegistry, waitForBaseline } from './soak/watched-registry.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
// The CI form (.ci/run): one minute of traffic and every fault still injected, each outage shortened
// so that the phases fit in it; the invariants are the same and as exact.
const CI = flag('--ci');
const MINUTES = CI ? 1 : flag('--short') ? 2 : Number(option('--minutes') ?? 10);
const FAULT_DURATIONS = CI ? { restartAfterMs: 2_000, pgStallMs: 3_000, redisStallMs: 4_000, storeDownMs: 4_000 } : { restartAfterMs: 2_000, pgStallMs: 5_000, redisStallMs: 10_000, storeDownMs: 10_000 };
if (!(MINUTES >= 1 && MINUTES <= 60)) {
  console.error('--minutes: expected 1 to 60');
  process.exit(2);
}
const serverRequire = createRequire(fileURLToPath(import.meta.resolve('@vigil/server')));
const pg = serverRequire('pg');
const { runKeysCommand, openDatabase } = await import('@vigil/server');

const ADMIN_URL = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = new URL(process.env.SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379');
const REDIS_DB = Number(process.env.SOAK_REDIS_DB ?? 11);
const API_INSTANCES = 3;
const WORKERS = 2;
const VALIDATORS = 4;
const CUSTOMERS = 4;
const READER_ADDRESSES = 24;
const RATE_BUDGET = 1200;
const HANDLER_TIMEOUT_MS = 10_000;
// A client gives up well after every server-side limit (handler 10 s, statement 5 s, nginx 30 s on an
// upload): a request that reaches this deadline was past its timeout.
const CLIENT_DEADLINE_MS = 15_000;
const SUBSCRIBED = ['attestation.created', 'round.closed', 'verdict.changed'];
// The release watcher's names on the local registry, and how often one of them gets a new version.
const WATCHED = ['soak-watch-0', 'soak-watch-1', 'soak-watch-2'];
const PUBLISH_EVERY_MS = CI ? 5_000 : 15_000;
const WATCH_INTERVAL_S = 10;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** Redis commands on a direct connection (no client library: two commands at set-up and teardown). */
function redisCommands(commands) {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(REDIS_URL.port || 6379), REDIS_URL.hostname);
    let answer = '';
    socket.setTimeout(5_000, () => socket.destroy(new Error('Redis did not answer')));
    socket.on('data', (chunk) => {
      answer += chunk;
      if (answer.split('\r\n').length > commands.length) socket.end();
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(commands.map((c) => `${c}\r\n`).join(''));
  });
}

async function freePort() {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// s3rver (the stand-in, not the product) can throw from a file stream of its own when an object is
// deleted while another is written in its directory (ENOENT under s3/<bucket>/staging): the request
// fails, the SDK retries, the run goes on. Such errors are counted and printed; anything else ends the run.
const standInErrors = [];
process.on('uncaughtException', (error) => {
  if (String(error?.path ?? '').includes('/s3/') && error?.code === 'ENOENT') {
    standInErrors.push(error.message);
    return;
  }
  console.error(`soak: uncaught: ${error?.stack ?? error}`);
  process.exit(2);
});

async function main() {
  const nginx = findNginx();
  if (nginx === null) {
    console.error('soak: nginx not found. Debian: sudo apt-get install -y nginx (or set SOAK_NGINX to its path).');
    return 2;
  }
  const dir = await mkdtemp(join(tmpdir(), 'vigil-soak-'));
  const cleanups = [];
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) await Promise.resolve().then(fn).catch((error) => log(`cleanup: ${error.message}`));
  };
  let code = 1;
  try {
    code = await run(nginx, dir, cleanups);
  } catch (error) {
    console.error(`soak: the run failed: ${error.stack ?? error}`);
    code = 2;
  } finally {
    await cleanup();
    if (flag('--keep')) log(`kept ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
  return code;
}

async function run(nginxPath, dir, cleanups) {
  const totalMs = MINUTES * 60_000;
  log(`run directory ${dir}; ${MINUTES} minute(s) of traffic`);

  // PostgreSQL: a database of its own, dropped at the end.
  const dbName = `soak_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  cleanups.push(async () => {
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });
  const directUrl = new URL(ADMIN_URL);
  directUrl.pathname = `/${dbName}`;

  // Redis: its own database index, empty before and after.
  await redisCommands([`SELECT ${REDIS_DB}`, 'FLUSHDB']);
  cleanups.push(() => redisCommands([`SELECT ${REDIS_DB}`, 'FLUSHDB']));

  // The S3 stand-in (s3rver, docs/storage.md: a stand-in, not S3).
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory: join(dir, 's3'), silent: true, configureBuckets: [{ name: 'soak' }] });
  const { port: s3Port } = await s3rver.run();
  cleanups.push(() => s3rver.close());

  // The local npm registry the workers' release watchers poll (Verdaccio, not behind a fault proxy:
  // the faults are the deployment's own dependencies). Each watched name starts with two versions.
  const registry = await startWatchedRegistry(join(dir, 'verdaccio'));
  cleanups.push(() => registry.stop());
  for (const name of WATCHED) for (const version of ['1.0.0', '1.1.0']) if (!(await registry.publish(name, version))) throw new Error(`verdaccio: publishing ${name}@${version} failed`);
  registry.published.length = 0; // the baseline, not the run's releases

  // Every dependency behind a fault proxy the run controls.
  const { startTcpProxy, startHttpFaultProxy } = await loadFaultProxies(dir);
  const pgProxy = await startTcpProxy({ host: directUrl.hostname, port: Number(directUrl.port || 5432) });
  const redisProxy = await startTcpProxy({ host: REDIS_URL.hostname, port: Number(REDIS_URL.port || 6379) });
  const s3Proxy = await startHttpFaultProxy({ host: '127.0.0.1', port: s3Port });
  cleanups.push(() => pgProxy.close(), () => redisProxy.close(), () => s3Proxy.close());
  const proxiedDb = new URL(directUrl);
  proxiedDb.host = pgProxy.address;

  const dataDir = join(dir, 'data');
  const env = {
    DATABASE_URL: proxiedDb.toString(),
    REDIS_URL: `redis://${redisProxy.address}/${REDIS_DB}`,
    VIGIL_DATA_DIR: dataDir,
    VIGIL_BLOB_STORE: 's3',
    VIGIL_S3_BUCKET: 'soak',
    VIGIL_S3_ENDPOINT: s3Proxy.endpoint,
    VIGIL_S3_REGION: 'us-east-1',
    VIGIL_S3_FORCE_PATH_STYLE: 'true',
    VIGIL_S3_TIMEOUT_MS: '3000',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    HOST: '127.0.0.1',
    VIGIL_TRUST_PROXY: '127.0.0.1',
    VIGIL_RATE_LIMIT_PER_MINUTE: String(RATE_BUDGET),
    VIGIL_HANDLER_TIMEOUT_MS: String(HANDLER_TIMEOUT_MS),
    VIGIL_DB_STATEMENT_TIMEOUT_MS: '5000',
    VIGIL_DB_CONNECT_TIMEOUT_MS: '3000',
    VIGIL_WEBHOOK_ALLOW_HTTP: 'true',
    VIGIL_WEBHOOK_ALLOW_PRIVATE: 'true',
    VIGIL_WEBHOOK_TIMEOUT_MS: '3000',
    // Loopback only: npm is the local Verdaccio, and PyPI a closed port (nothing in the run names a
    // PyPI package); nothing is fetched from the public registries.
    VIGIL_REGISTRY_FETCH: 'true',
    VIGIL_NPM_REGISTRY_URL: registry.url,
    VIGIL_PYPI_URL: 'http://127.0.0.1:9',
    // The shortest interval the watcher accepts, so that it polls each name several times a run;
    // retries of a fetch that met the object store down come 2 s apart, not 30.
    VIGIL_WATCH_INTERVAL_S: String(WATCH_INTERVAL_S),
    VIGIL_REGISTRY_RETRY_S: '2',
    VIGIL_DEMO_HISTORY_DAYS: '8',
    // Short rounds: the round closed mid-run is followed at once by the next one's submission
    // (20 s) and evaluation, so the scheduler's transitions happen while the faults do.
    VIGIL_ROUND_SUBMISSION_S: '20',
    VIGIL_ROUND_EVALUATION_S: '3600',
    VIGIL_ROUND_GAP_S: '0',
    VIGIL_SCHEDULER_INTERVAL_S: '2',
    LOG_LEVEL: 'warn',
  };
  const fleet = createFleet({ dir, env });
  cleanups.push(() => fleet.stopAll());

  // The demo network (validators, miners, rounds in evaluation with tasks), then our validators' permits.
  log('seeding the demo network (seed --demo, 8 days)');
  const seed = fleet.start('seed', ['seed', '--demo'], {
    DATABASE_URL: directUrl.toString(),
    // The demo's own schedule (days), not the run's short rounds.
    VIGIL_ROUND_SUBMISSION_S: '86400',
    VIGIL_ROUND_EVALUATION_S: '172800',
    VIGIL_ROUND_GAP_S: '3600',
    // Set-up, not under test: the S3 stand-in runs in this process, and on a loaded machine one of
    // the seed's many writes once took past the run's 3 s store timeout and ended the run before it began.
    VIGIL_S3_TIMEOUT_MS: '30000',
  });
  fleet.get('seed').expectExit = true;
  const seedCode = await new Promise((resolve) => seed.child.once('exit', resolve));
  if (seedCode !== 0) throw new Error(`seed --demo exited ${seedCode}: ${seed.output.slice(-1500)}`);
  const keypairs = validatorKeypairs(VALIDATORS);
  const metagraphFile = join(dataDir, 'metagraph.json');
  const snapshot = JSON.parse(await readFile(metagraphFile, 'utf8'));
  for (const [i, keypair] of keypairs.entries()) snapshot.neurons.push({ uid: 200 + i, hotkey: keypair.hotkey, validator_permit: true });
  await writeFile(metagraphFile, JSON.stringify(snapshot));

  // API keys: customers of one paid organization.
  const keysDb = await openDatabase({ url: directUrl.toString() });
  const token = async (argv) => (await runKeysCommand(keysDb.db, 'keys', argv, Date.now())).find((line) => line.startsWith('vgl_'));
  const tokens = [];
  for (let c = 0; c < CUSTOMERS; c++) tokens.push(await token(['create', '--org', 'soak', '--plan', 'paid', '--scopes', 'upload,read,verify,repositories,webhooks', '--name', `ci-${c}`]));
  await keysDb.close();

  // The fleet: the API instances serve only (scheduler, webhook delivery off); the workers do the background work.
  const apiPorts = await Promise.all(Array.from({ length: API_INSTANCES }, freePort));
  const metricsPorts = await Promise.all(Array.from({ length: API_INSTANCES }, freePort));
  const apiEnv = (i) => ({ PORT: String(apiPorts[i]), VIGIL_METRICS_PORT: String(metricsPorts[i]), VIGIL_SCHEDULER: 'false', VIGIL_WEBHOOK_WORKER: 'false', VIGIL_REGISTRY_WORKER: 'false' });
  /** vigil_redis_failures_total{use="rate_limit"} summed over the instances: requests served uncounted (docs/operations.md). */
  const uncountedRequests = async () => {
    let sum = 0;
    for (const port of metricsPorts) {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      sum += Number(/^vigil_redis_failures_total\{use="rate_limit"\} (\d+)/m.exec(text)?.[1] ?? 0);
    }
    return sum;
  };
  const workerPorts = await Promise.all(Array.from({ length: WORKERS }, freePort));
  const workerEnv = (w) => ({ VIGIL_METRICS_PORT: String(workerPorts[w]) });
  // A worker is up once its metrics listener says ready (the database answers, migrations current):
  // the next fault waits for that, so no fault hits a process still starting (a process that cannot
  // reach PostgreSQL at start-up exits 1 by design, docs/storage.md, for its supervisor to restart).
  const startWorker = async (w) => {
    const entry = fleet.start(`worker-${w}`, 'worker', workerEnv(w));
    await until200(`http://127.0.0.1:${workerPorts[w]}/ready`, 90_000, () => entry.child.exitCode === null);
    return entry;
  };
  const startApi = async (i) => {
    const entry = fleet.start(`api-${i}`, 'serve', apiEnv(i));
    await until200(`http://127.0.0.1:${apiPorts[i]}/v1/health`, 90_000, () => entry.child.exitCode === null);
    return entry;
  };
  log(`starting ${API_INSTANCES} API instances and ${WORKERS} workers`);
  await startApi(0); // migrates first, alone
  await Promise.all(Array.from({ length: API_INSTANCES - 1 }, (_, i) => startApi(i + 1)));
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => startWorker(w)));
  const nginx = await startNginx({ nginx: nginxPath, dir, port: await freePort(), upstreams: apiPorts });
  cleanups.push(() => nginx.stop());
  await until200(`${nginx.url}/v1/health`, 10_000, () => !nginx.exited);
  const base = nginx.url;

  // The webhook endpoint, on the flaky receiver.
  const receiver = await startFlakyReceiver();
  cleanups.push(() => receiver.close());
  const hook = await send(base, { from: '127.0.2.1', method: 'POST', path: '/v1/webhooks', headers: { authorization: `Bearer ${tokens[0]}` }, body: { url: receiver.url, events: SUBSCRIBED } });
  if (hook.status !== 201) throw new Error(`POST /v1/webhooks: ${hook.status} ${JSON.stringify(hook.body)}`);
  const webhookId = hook.body.data.id;
  const since = Date.parse(hook.body.data.created_at);

  // The script's own look at the database: the round deadline, the drain, the invariants.
  const direct = new pg.Client({ connectionString: directUrl.toString() });
  await direct.connect();
  cleanups.push(() => direct.end());

  // The watched names: an account's watches (POST /v1/watches), their baseline taken by a worker's
  // watcher before the run's releases are published.
  for (const name of WATCHED) {
    const w = await send(base, { from: '127.0.2.1', method: 'POST', path: '/v1/watches', headers: { authorization: `Bearer ${tokens[0]}` }, body: { package: `npm:${name}` } });
    if (w.status !== 201) throw new Error(`POST /v1/watches: ${w.status} ${JSON.stringify(w.body)}`);
  }
  await waitForBaseline(direct, WATCHED, 60_000);
  log(`release watcher: baseline of ${WATCHED.length} names taken; a new version every ${PUBLISH_EVERY_MS / 1000} s from now`);

  // Traffic.
  const stats = createStats();
  stats.setPhase('quiet');
  const readers = startReaders({ baseUrl: base, addresses: READER_ADDRESSES, stats, timeoutMs: CLIENT_DEADLINE_MS });
  const customers = startCustomers({ baseUrl: base, tokens, stats, timeoutMs: CLIENT_DEADLINE_MS });
  const validators = startValidators({ baseUrl: base, keypairs, stats, timeoutMs: CLIENT_DEADLINE_MS });
  const publisher = startPublisher({ registry, names: WATCHED, everyMs: PUBLISH_EVERY_MS });

  // Phases: a quiet start, six faults, a recovery stretch; the burst and the operator's close in the quiet start.
  const restartFailures = [];
  const phases = faultPhases({
    fleet,
    pg: pgProxy,
    redis: redisProxy,
    s3: s3Proxy,
    restartApi: async (name) => {
      const i = Number(name.split('-')[1]);
      const entry = fleet.restart(name);
      try {
        await until200(`http://127.0.0.1:${apiPorts[i]}/v1/health`, 90_000, () => entry.child.exitCode === null);
      } catch (error) {
        // The run goes on with one instance fewer (nginx routes around it); the invariant says why.
        restartFailures.push(`${name}: ${error.message}: ${entry.output.split('\n').filter((l) => /vigil-server|failed|Error/.test(l)).slice(-2).join(' | ')}`);
        log(`restart of ${name} failed`);
      }
    },
    restartWorker: async (name) => {
      try {
        await startWorker(Number(name.split('-')[1]));
      } catch (error) {
        restartFailures.push(`${name}: ${error.message}`);
        log(`restart of ${name} failed`);
      }
    },
  }, FAULT_DURATIONS);
  const quietMs = Math.round(totalMs * 0.2);
  const recoveryMs = Math.round(totalMs * 0.15);
  const phaseMs = Math.round((totalMs - quietMs - recoveryMs) / phases.length);
  let burst = null;
  const quietWork = (async () => {
    await sleep(2_000);
    // The CI form starts the burst up to 40 s into a minute instead of waiting for the next one (it
    // takes 3 to 10 s on a quiet machine, up to a minute on one loaded 15-fold); a burst that still
    // crossed a minute's turn proves nothing either way and is sent once more, from another address,
    // within 5 s of a minute's turn.
    for (const [attempt, from] of ['127.0.9.9', '127.0.9.10'].entries()) {
      const before = await uncountedRequests();
      const startedAt = Date.now();
      burst = await budgetBurst({ baseUrl: base, from, budget: RATE_BUDGET, extra: 30, latestStartMs: attempt > 0 ? 5_000 : CI ? 40_000 : 20_000 });
      burst.uncounted = (await uncountedRequests()) - before;
      log(`rate budget burst from ${from}: ${burst.ok} answered 200, ${burst.limited} 429, ${burst.other} other, of ${burst.sent}; ${burst.uncounted} requests (of any address) served uncounted meanwhile; ${((Date.now() - startedAt) / 1000).toFixed(1)} s${burst.sameWindow ? '' : '; crossed a minute\'s turn'}`);
      if (burst.sameWindow) break;
    }
  })();
  const closer = (async () => {
    // The packages round's deadline is brought to now (time passing, not an API call): the workers'
    // scheduler closes it (scores, winners, verdicts: round.closed and verdict.changed events), opens
    // the next round at once (gap 0) and starts its evaluation 20 s later, under the faults.
    await sleep(5_000);
    const moved = await direct.query("update rounds set closes_at = $1 where track = 'packages' and status = 'open' and phase = 'evaluation' returning round_id", [Date.now()]);
    log(`packages round ${moved.rows[0]?.round_id ?? '(none in evaluation)'}: deadline moved to now`);
  })();
  const windows = await runPhases({ stats, phases, quietMs, quietWork: Promise.all([quietWork, closer]), phaseMs, recoveryMs, onPhase: (name) => log(`phase: ${name}`) });

  log('stopping the traffic');
  stats.setPhase('drain');
  await Promise.all([readers.stop(), customers.stop(), validators.stop(), publisher.stop()]);

  // Drain: the receiver stops failing; deliveries waiting for a retry minutes away are recovered now.
  receiver.heal();
  const drainDeadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await direct.query("select count(*)::int as n from webhook_deliveries where webhook_id = $1 and state in ('pending', 'delivering')", [webhookId]);
    const { rows: unfanned } = await direct.query('select count(*)::int as n from outbox_events where delivered_at is null');
    if (rows[0].n === 0 && unfanned[0].n === 0) break;
    if (Date.now() > drainDeadline) {
      log(`drain: gave up with ${rows[0].n} deliveries open and ${unfanned[0].n} events not fanned out`);
      break;
    }
    // A delivery that failed twice waits 5 minutes for its next attempt (docs/webhooks.md,
    // "Retries"): redeliver sends it now, as an operator would.
    const { rows: waiting } = await direct.query("select delivery_id from webhook_deliveries where webhook_id = $1 and state = 'pending' and next_attempt_at > $2", [webhookId, Date.now() + 10_000]);
    for (const { delivery_id: id } of waiting) {
      const r = await send(base, { from: '127.0.2.1', method: 'POST', path: `/v1/webhooks/${webhookId}/deliveries/${id}/redeliver`, headers: { authorization: `Bearer ${tokens[0]}` } });
      if (r.status !== 202) log(`drain: redeliver ${id} → ${r.status}`);
    }
    if (waiting.length > 0) log(`drain: redelivered ${waiting.length} deliveries waiting for a later retry`);
    await sleep(1_000);
  }

  log('checking the invariants');
  const restartedLog = /transparency log: \d+ entries, consistent[^\n]*/.exec(fleet.get('api-2').output)?.[0] ?? null;
  const invariants = [
    await checkAttestations(direct, validators),
    await checkAttestationReads(base, tokens[0], validators),
    await checkUploads(base, tokens[0], customers.uploads),
    ...(await checkWebhooks(direct, { webhookId, since, kinds: SUBSCRIBED, ledger: receiver.ledger, windows })),
    await checkRounds(direct, since),
    await checkLog(directUrl.toString()),
    await checkWatcher(direct, { registry, names: WATCHED, baselineLatest: WATCHED.map((n) => `pkg:npm/${n}@1.1.0`), baselineOlder: WATCHED.map((n) => `pkg:npm/${n}@1.0.0`), windows, intervalMs: WATCH_INTERVAL_S * 1000, log }),
    {
      name: 'killed API instance and worker restart',
      ok: restartedLog !== null && restartFailures.length === 0,
      detail: restartFailures.length > 0 ? restartFailures.join('; ') : (restartedLog ?? "no start-up check line in api-2's output"),
    },
    {
      name: 'rate budget exact across instances',
      // Exact, up to the documented fallback: a request whose Redis count passed VIGIL_REDIS_TIMEOUT_MS is
      // served uncounted (docs/api.md, "Rate limits"), and each such request is counted in the metrics.
      ok: burst !== null && burst.other === 0 && burst.sameWindow && burst.ok >= RATE_BUDGET && burst.ok <= RATE_BUDGET + burst.uncounted,
      detail:
        burst === null
          ? 'not run'
          : `${burst.sent} requests from one address in one window through ${API_INSTANCES} instances: ${burst.ok} × 200 (budget ${RATE_BUDGET}), ${burst.limited} × 429, ${burst.other} other; ${burst.uncounted} requests served uncounted (Redis past its timeout) meanwhile${burst.sameWindow ? '' : ' (crossed a minute: not conclusive)'}`,
    },
  ];
  const rows = stats.rows();
  // Past its timeout: no answer by the client's deadline, or an answer later than the handler timeout
  // (VIGIL_HANDLER_TIMEOUT_MS, after which the server answers 504) plus 2 s of slack for nginx and a
  // loaded machine. Uploads have the request timeout (VIGIL_REQUEST_TIMEOUT_MS, 30 s) for their body.
  const timedOut = rows.reduce((n, r) => n + r.errors.filter(([what]) => /no answer within|VigilTimeoutError/i.test(what)).reduce((m, [, c]) => m + c, 0), 0);
  const late = stats.late(HANDLER_TIMEOUT_MS + 2_000, { upload: 32_000 });
  invariants.push({
    name: 'no request past its timeout',
    ok: timedOut === 0 && late.length === 0,
    detail: `${timedOut} requests without an answer by the ${CLIENT_DEADLINE_MS / 1000} s client deadline, ${late.length} answered after the handler timeout + 2 s${late.length ? ` (${late.slice(0, 3).join('; ')})` : ''}; slowest answer ${Math.round(stats.slowest.ms)} ms (${stats.slowest.what})`,
  });
  await fleet.stopAll();
  const nginxAlive = !nginx.exited;
  invariants.push({
    name: 'no process exited but the killed ones',
    ok: fleet.unexpectedExits.length === 0 && nginxAlive,
    detail: fleet.unexpectedExits.length === 0 && nginxAlive ? `${API_INSTANCES} API instances, ${WORKERS} workers and nginx ran to the end (api-2 and worker-1 killed and restarted once)` : `${nginxAlive ? '' : 'nginx exited; '}${fleet.unexpectedExits.map((e) => `${e.name} code ${e.code} signal ${e.signal} at ${e.at}`).join('; ')}`,
  });

  if (standInErrors.length > 0) log(`the S3 stand-in (s3rver) threw ${standInErrors.length} file error(s) of its own, e.g. ${standInErrors[0]}`);
  const others = (await direct.query("select state, count(*)::int as n from registry_fetches where purl not like 'pkg:npm/soak-watch-%' group by 1")).rows;
  log(`registry fetches queued by verification (not the watcher): ${others.length ? others.map((r) => `${r.state} ${r.n}`).join(', ') : 'none'}`);
  const failed = printReport({ rows, invariants, validators, customers, receiver, windows, minutes: MINUTES });
  const jsonFile = option('--json');
  if (jsonFile) await writeFile(jsonFile, JSON.stringify({ minutes: MINUTES, ci: CI, rows, invariants, windows, burst }, null, 2));
  if (failed) for (const e of fleet.unexpectedExits) console.log(`\n${e.name} (unexpected exit) tail:\n${e.tail}`);
  closeAgents();
  return failed ? 1 : 0;
}

process.exitCode = await main();
