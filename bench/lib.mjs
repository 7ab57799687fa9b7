import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { getPublicKey, ss58Encode } from '@vigil/crypto';

/** Starts `node serve.mjs …args` and resolves with its port and a stop function. */
export function startServer(args) {
  const child = spawn(process.execPath, [new URL('./serve.mjs', import.meta.url).pathname, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        resolve({
          port: Number(m[1]),
          stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`server ${args.join(' ')} exited with ${code} before listening`)));
  });
}

/**
 * Runs autocannon and returns requests/s (mean) and latency percentiles in ms. Fails on any non-2xx.
 * `request` (optional) sends another method, headers and body on every request.
 */
export async function load(url, { seconds, connections, request }) {
  const result = await autocannon({ url, duration: seconds, connections, pipelining: 1, ...(request ?? {}) });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx responses and ${result.errors} errors during the run`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Sequential requests on one keep-alive connection: latency without load, in microseconds. */
export async function probe(url, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    times.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** A deterministic ed25519 key (and its hotkey) from a number and a salt byte. */
export function keyFor(n, salt) {
  const secretKey = new Uint8Array(32);
  new DataView(secretKey.buffer).setUint32(0, n + 1);
  secretKey[31] = salt;
  return { secretKey, hotkey: ss58Encode(getPublicKey(secretKey)) };
}

/** mulberry32: deterministic pseudo-random in [0, 1), so a benchmark builds the same data every run. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// bigint (20) and numeric (1700) as numbers, as the server's pool reads epoch milliseconds.
const NUMERIC_OIDS = new Set([20, 1700]);

async function adminQuery(serverUrl, text) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/**
 * Runs `work` with a PostgreSQL database of its own, `<prefix>_<pid>`, created on BENCH_DATABASE_URL's
 * server (default postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end, whatever
 * `work` did. `work` gets `openSchema(name, { max, log })`: a fresh, empty schema in that database,
 * with a pg pool (`max` connections, default 1) whose search_path is that
 * schema and a Kysely over it (`log`: Kysely's log option); its `close()` drops the schema and ends
 * the pool.
 */
export async function withScratchDatabase(prefix, work) {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `${prefix}_${process.pid}`;
  await adminQuery(serverUrl, `create database ${database}`);
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = `/${database}`;
  async function openSchema(schema, { max = 1, log } = {}) {
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const pool = new pg.Pool({
      connectionString: url.toString(),
      max,
      types: { getTypeParser: (oid, format) => (NUMERIC_OIDS.has(oid) ? Number : pg.types.getTypeParser(oid, format)) },
    });
    // The scratch database is dropped at the end with its connections: not a crash.
    pool.on('error', () => {});
    const db = new Kysely({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
    await sql`create schema ${sql.id(schema)}`.execute(db);
    return {
      db,
      pool,
      async close() {
        await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
        await db.destroy();
      },
    };
  }
  try {
    return await work({ openSchema });
  } finally {
    await adminQuery(serverUrl, `drop database if exists ${database} with (force)`);
  }
}
