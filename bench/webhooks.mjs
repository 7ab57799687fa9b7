// Webhook delivery: deliveries per second to a local receiver, and end-to-end latency from the
// committing transaction (the event's created_at) to receipt, against a baseline measured in the
// same run: plain keep-alive POSTs of the same bodies to the same receiver at the same concurrency,
// with no database, no claim and no signature.
// Target (issue 10): p99 end-to-end latency under 1 s at 200 events/s.
//
//   node webhooks.mjs                                   SQLite (temporary file) only
//   BENCH_DATABASE_URL=postgres://… node webhooks.mjs    also PostgreSQL (fresh schema, dropped after)
//
// BENCH_EVENTS (throughput run, 2000), BENCH_ENDPOINTS (1), BENCH_RATE (events/s of the latency
// run, 200), BENCH_SECONDS (its length, 10). The worker runs in this process with the default
// settings (32 in flight, 4 per endpoint, 250 ms poll), the receiver too: one machine's numbers.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile } from './lib.mjs';

const server = await import('@vigil/server');
const { createSecretBox, createWebhook, createWebhookWorker, enqueueOutboxEvent, migrateToLatest, openDatabase, runKeysCommand, OPERATOR } = server;
// kysely is @vigil/server's dependency, not the bench's: only needed to create and drop the schema.
const { sql } = createRequire(fileURLToPath(import.meta.resolve('@vigil/server')))('kysely');

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 1);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PG_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || '';
const CONCURRENCY = 32;
const PER_ENDPOINT = 4;

/** A receiver that answers 202 at once and notes when each delivery arrived. */
async function startReceiver() {
  const arrivals = [];
  let waiter = null;
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      res.writeHead(202).end();
      arrivals.push({ at, body: Buffer.concat(chunks) });
      if (waiter && arrivals.length >= waiter.count) waiter.resolve();
    });
  });
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${srv.address().port}`,
    arrivals,
    waitFor: (count) => (arrivals.length >= count ? Promise.resolve() : new Promise((resolve) => (waiter = { count, resolve }))),
    reset: () => arrivals.splice(0),
    close: () => new Promise((resolve) => { srv.closeAllConnections(); srv.close(resolve); }),
  };
}

function payload(n) {
  return {
    bundle_hash: `skills/bench-${n}/src-${n}`,
    track: 'skills',
    verdict: 'BLOCK',
    previous_verdict: null,
    risk_score: 90,
    round_id: 'aaaaaaaabbbbbbbb',
    changed_at: new Date().toISOString().replace('Z', '+00:00'),
  };
}

/** Baseline: the same number of POSTs of a same-sized body, CONCURRENCY at once, straight to the receiver. */
async function baseline(receiver, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: ENDPOINTS * PER_ENDPOINT });
  const body = Buffer.from(JSON.stringify({ id: randomBytes(16).toString('hex'), type: 'verdict.changed', data: payload(0) }));
  receiver.reset();
  let next = 0;
  const started = performance.now();
  const post = () =>
    new Promise((resolve, reject) => {
      const req = http.request(`${receiver.url}/baseline`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: ENDPOINTS * PER_ENDPOINT }, async () => {
      while (next < count) {
        next += 1;
        await post();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  receiver.reset();
  return count / seconds;
}

async function measure(label, open) {
  const receiver = await startReceiver();
  const { db, close } = await open();
  try {
    await migrateToLatest(db);
    const dataDir = await mkdtemp(join(tmpdir(), 'vigil-bench-webhooks-'));
    await runKeysCommand(db, 'keys', ['create', '--org', 'bench', '--scopes', 'webhooks'], Date.now());
    const account = await db.selectFrom('accounts').select('account_id').executeTakeFirstOrThrow();
    const box = createSecretBox(randomBytes(32));
    const policy = { allowHttp: true, allowPrivate: true, resolver: async () => [] };
    for (let i = 0; i < ENDPOINTS; i++) {
      await createWebhook(db, box, policy, { url: `${receiver.url}/hooks/${i}`, events: ['verdict.changed'] }, { accountId: account.account_id, actor: OPERATOR, now: Date.now() - 1000 });
    }
    const worker = createWebhookWorker({
      db,
      secrets: box,
      settings: { timeoutMs: 15_000, concurrency: CONCURRENCY, endpointConcurrency: PER_ENDPOINT, pollMs: 250, allowPrivate: true, retentionDays: 30 },
    });
    const emit = (n) => {
      const data = payload(n);
      return db.transaction().execute((trx) => enqueueOutboxEvent(trx, 'verdict.changed', data, Date.now(), { resource: `artifact:${data.bundle_hash}`, accountId: null }));
    };

    // Throughput: a backlog of EVENTS events, drained by one worker.
    const raw = await baseline(receiver, EVENTS * ENDPOINTS);
    for (let i = 0; i < EVENTS; i++) await emit(i);
    const started = performance.now();
    worker.start();
    await receiver.waitFor(EVENTS * ENDPOINTS);
    const rate = (EVENTS * ENDPOINTS) / ((performance.now() - started) / 1000);
    receiver.reset();

    // Latency: RATE events/s for SECONDS, each committed in its own transaction.
    const total = RATE * SECONDS;
    const t0 = performance.now();
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await emit(EVENTS + i);
    }
    await receiver.waitFor(total * ENDPOINTS);
    const latencies = receiver.arrivals.map((a) => a.at - Date.parse(JSON.parse(a.body.toString()).created_at));
    await worker.stop();
    await rm(dataDir, { recursive: true, force: true });
    return { label, raw, rate, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies) };
  } finally {
    await close();
    await receiver.close();
  }
}

const results = [];
results.push(
  await measure('SQLite', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vigil-bench-webhooks-db-'));
    const database = await openDatabase({ url: `sqlite:${join(dir, 'vigil.db')}` });
    return { db: database.db, close: async () => { await database.close(); await rm(dir, { recursive: true, force: true }); } };
  }),
);
if (PG_URL) {
  results.push(
    await measure('PostgreSQL', async () => {
      const schema = `bench_webhooks_${randomBytes(4).toString('hex')}`;
      const admin = await openDatabase({ url: PG_URL });
      await sql`create schema ${sql.id(schema)}`.execute(admin.db);
      const url = new URL(PG_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const database = await openDatabase({ url: url.toString() });
      return {
        db: database.db,
        close: async () => {
          await database.close();
          await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
          await admin.close();
        },
      };
    }),
  );
}

console.log(`${ENDPOINTS} endpoints, ${CONCURRENCY} in flight per worker, ${PER_ENDPOINT} per endpoint; latency run ${RATE} events/s for ${SECONDS} s\n`);
console.log('database     raw POST/s   deliveries/s  ratio   e2e p50   e2e p99   e2e max');
for (const r of results) {
  console.log(
    `${r.label.padEnd(12)} ${r.raw.toFixed(0).padStart(10)}   ${r.rate.toFixed(0).padStart(12)}  ${(r.rate / r.raw).toFixed(2).padStart(5)}   ${String(Math.round(r.p50)).padStart(5)} ms  ${String(Math.round(r.p99)).padStart(5)} ms  ${String(Math.round(r.max)).padStart(5)} ms`,
  );
}
for (const r of results) console.log(`${r.label}: p99 ${Math.round(r.p99)} ms at ${RATE} events/s (target < 1000 ms): ${r.p99 < 1000 ? 'MET' : 'NOT MET'}`);
