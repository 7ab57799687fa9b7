// What metrics cost a request: the same Vigil with metrics off (the default) and on (as
// VIGIL_METRICS_PORT turns them on: the request hook and statement timing), measured in this run.
// Target (issue 29): with metrics on, a cached read and an uncached read each keep at least 90% of
// their requests per second with metrics off.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileBlobStore, migrateToLatest, openDatabase, seedDemo } from '@vigil/server';
import { load, median, startServer } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET = 0.9;

const dataDir = await mkdtemp(join(tmpdir(), 'vigil-bench-'));
try {
  process.stdout.write('seeding the demo network… ');
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const seeded = await seedDemo(database.db, { now: new Date(), blobs: createFileBlobStore(join(dataDir, 'blobs')) });
  await database.close();
  console.log(`${seeded.attestations} attestations`);

  const off = await startServer(['vigil', dataDir]);
  const on = await startServer(['vigil-metrics', dataDir]);
  try {
    const rounds = await (await fetch(`http://127.0.0.1:${off.port}/v1/rounds?limit=1`)).json();
    const closed = rounds.rounds[0].round_id;
    // A cached read (answered from the response cache) and an uncached one (its queries run on every request).
    const paths = ['/v1/leaderboard', `/v1/rounds/${closed}/scores`];
    for (const server of [off, on]) for (const path of paths) await load(`http://127.0.0.1:${server.port}${path}`, { seconds: 2, connections: CONNECTIONS });
    const rows = [];
    for (const path of paths) {
      const ratios = [];
      const rps = { off: [], on: [] };
      // Alternating runs, so drift in machine load hits both sides alike.
      for (let round = 0; round < ROUNDS; round += 1) {
        const a = await load(`http://127.0.0.1:${off.port}${path}`, { seconds: SECONDS, connections: CONNECTIONS });
        const b = await load(`http://127.0.0.1:${on.port}${path}`, { seconds: SECONDS, connections: CONNECTIONS });
        rps.off.push(a.rps);
        rps.on.push(b.rps);
        ratios.push(b.rps / a.rps);
      }
      rows.push({ path: path.startsWith('/v1/rounds/') ? '/v1/rounds/{id}/scores' : path, off: median(rps.off), on: median(rps.on), ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) });
    }
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} alternating rounds, node ${process.version}`);
    console.log('endpoint                  off req/s   on req/s   ratio   min-max');
    for (const r of rows) {
      console.log(`${r.path.padEnd(24)} ${r.off.toFixed(0).padStart(10)} ${r.on.toFixed(0).padStart(10)} ${r.ratio.toFixed(2).padStart(7)} ${`${r.low.toFixed(2)}-${r.high.toFixed(2)}`.padStart(10)}`);
    }
    const worst = Math.min(...rows.map((r) => r.ratio));
    console.log(`\nworst median ratio ${worst.toFixed(2)} (target ≥ ${TARGET}): ${worst >= TARGET ? 'MET' : 'NOT MET'}`);
  } finally {
    await off.stop();
    await on.stop();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
