// Wall time and CPU time (user + system, the child's own) of `vigil-server seed --demo` on a fresh
// database, beside `vigil-server migrate` (start-up and migrations alone, the floor every command
// pays) and the 9-day demo the SDK and CLI suites seed (VIGIL_DEMO_HISTORY_DAYS=9); docs/benchmarks.md,
// "Demo seed". Cases run in turn, round after round, so each sees the same load; medians are printed
// with the load average before and after, and each case's ratio to `migrate` measured in the same
// rounds (the reference that moves with the load as the seed does). On a busy machine the wall
// time grows with the load and the CPU time much less. The CPU time counts every thread of the
// process: the seed signs on a second thread, so on 2 idle cores its wall time is below its CPU time.
//
// BENCH_REPEATS (default 3) rounds. BENCH_BEFORE_BIN=<path to another build's apps/server/dist/bin.js>
// adds that build's `seed --demo` to every round (before/after). BENCH_DATABASE_URL=postgres://… also
// runs every case on PostgreSQL, each run in a fresh schema dropped afterwards.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@vigil/server';
import { median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const server = `${root}apps/server/dist/bin.js`;
const before = process.env.BENCH_BEFORE_BIN || '';
const pgUrl = process.env.BENCH_DATABASE_URL || '';
const { sql } = createRequire(fileURLToPath(import.meta.resolve('@vigil/server')))('kysely');

const PRELOAD = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => { const u = process.cpuUsage(); try { writeSync(3, JSON.stringify(u)); } catch {} });",
)}`;

/** Wall and CPU ms of one `node <bin> <args>` run on a fresh data directory (and schema). */
async function run(bin, args, env, dialect) {
  const dataDir = await mkdtemp(join(tmpdir(), 'vigil-seed-bench-'));
  let database = {};
  let drop = async () => {};
  if (dialect === 'postgres') {
    const schema = `vigil_seed_bench_${randomBytes(6).toString('hex')}`;
    const admin = await openDatabase({ url: pgUrl });
    await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(admin.db);
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    database = { DATABASE_URL: url.toString() };
    drop = async () => {
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(admin.db);
      await admin.close();
    };
  }
  try {
    const started = performance.now();
    const { cpu, code, err } = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', PRELOAD, bin, ...args], {
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '', VIGIL_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...database, ...env },
      });
      let usage = '';
      let stderr = '';
      child.stdout.resume();
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdio[3].on('data', (chunk) => (usage += chunk));
      child.once('error', reject);
      child.once('close', (exit) => {
        if (usage === '') return reject(new Error(`${bin} ${args.join(' ')}: no CPU figure (exit ${exit}): ${stderr}`));
        const { user, system } = JSON.parse(usage);
        resolve({ cpu: (user + system) / 1000, code: exit, err: stderr });
      });
    });
    if (code !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${code}: ${err}`);
    return { wall: performance.now() - started, cpu };
  } finally {
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const cases = [
  { name: 'migrate (start-up + migrations)', bin: server, args: ['migrate'] },
  ...(before ? [{ name: 'seed --demo, before (BENCH_BEFORE_BIN)', bin: before, args: ['seed', '--demo'] }] : []),
  { name: 'seed --demo (36 days)', bin: server, args: ['seed', '--demo'] },
  { name: 'seed --demo, VIGIL_DEMO_HISTORY_DAYS=9', bin: server, args: ['seed', '--demo'], env: { VIGIL_DEMO_HISTORY_DAYS: '9' } },
];
const dialects = ['sqlite', ...(pgUrl ? ['postgres'] : [])];
if (!pgUrl) console.log('PostgreSQL skipped: set BENCH_DATABASE_URL to measure it.');

const loadBefore = loadavg();
const samples = new Map();
for (let round = 0; round < repeats; round++) {
  for (const dialect of dialects) {
    for (const c of cases) {
      const key = `${dialect}: ${c.name}`;
      const result = await run(c.bin, c.args, c.env ?? {}, dialect);
      samples.set(key, [...(samples.get(key) ?? []), result]);
      console.log(`  round ${round + 1} ${key}: wall ${(result.wall / 1000).toFixed(1)} s, CPU ${(result.cpu / 1000).toFixed(1)} s, load ${loadavg()[0].toFixed(1)}`);
    }
  }
}
const loadAfter = loadavg();
console.log(`\nnode ${process.version}, ${repeats} rounds, load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after`);
console.log(`${'case'.padEnd(58)}${'wall (median)'.padStart(14)}${'CPU (median)'.padStart(14)}${'wall / migrate'.padStart(16)}${'CPU / migrate'.padStart(15)}`);
const medians = new Map();
for (const [key, results] of samples) {
  medians.set(key, { wall: median(results.map((r) => r.wall)) / 1000, cpu: median(results.map((r) => r.cpu)) / 1000 });
}
for (const [key, { wall, cpu }] of medians) {
  const reference = medians.get(`${key.split(':')[0]}: ${cases[0].name}`);
  console.log(
    `${key.padEnd(58)}${`${wall.toFixed(1)} s`.padStart(14)}${`${cpu.toFixed(1)} s`.padStart(14)}` +
      `${`${(wall / reference.wall).toFixed(1)}×`.padStart(16)}${`${(cpu / reference.cpu).toFixed(1)}×`.padStart(15)}`,
  );
}
