// Cached public reads against a bare fastify hello-world, both measured in this run on this machine.
// Target (issue 3): each cached read reaches at least 70% of hello-world's requests per second.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileBlobStore, migrateToLatest, openDatabase, seedDemo } from '@vigil/server';
import { load, median, probe, startServer } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const TARGET = 0.7;
// Alternating rounds: each endpoint run is paired with a hello-world run just before it, and the
// median of the per-pair ratios is reported with its spread, so one noisy second cannot decide.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ENDPOINTS = ['/v1/leaderboard', '/v1/rounds/status', '/v1/dashboard/network'];

const dataDir = await mkdtemp(join(tmpdir(), 'vigil-bench-'));
try {
  process.stdout.write('seeding the demo network… ');
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const seeded = await seedDemo(database.db, { now: new Date(), blobs: createFileBlobStore(join(dataDir, 'blobs')) });
  await database.close();
  console.log(`${seeded.attestations} attestations`);

  const hello = await startServer(['hello']);
  const vigil = await startServer(['vigil', dataDir]);
  const run = (port, path) => load(`http://127.0.0.1:${port}${path}`, { seconds: SECONDS, connections: CONNECTIONS });
  try {
    // Warm both (JIT, caches), then interleave baseline runs with the measured ones so drift in
    // machine load hits both sides alike.
    await load(`http://127.0.0.1:${hello.port}/`, { seconds: 2, connections: CONNECTIONS });
    for (const path of ENDPOINTS) await load(`http://127.0.0.1:${vigil.port}${path}`, { seconds: 2, connections: CONNECTIONS });

    const pairs = new Map(ENDPOINTS.map((path) => [path, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const path of ENDPOINTS) {
        const baseline = await run(hello.port, '/');
        const measured = await run(vigil.port, path);
        pairs.get(path).push({ baseline: baseline.rps, measured, ratio: measured.rps / baseline.rps });
      }
    }
    const rows = [];
    for (const path of ENDPOINTS) {
      const samples = pairs.get(path);
      const bytes = (await (await fetch(`http://127.0.0.1:${vigil.port}${path}`)).arrayBuffer()).byteLength;
      const sameSize = await run(hello.port, `/sized/${bytes}`);
      const ratios = samples.map((p) => p.ratio);
      const typical = samples.slice().sort((a, b) => a.ratio - b.ratio)[Math.floor(samples.length / 2)];
      const idle = await probe(`http://127.0.0.1:${vigil.port}${path}`, 2000);
      rows.push({
        path,
        bytes,
        ...typical.measured,
        baseline: median(samples.map((p) => p.baseline)),
        ratio: median(ratios),
        low: Math.min(...ratios),
        high: Math.max(...ratios),
        sizedRatio: typical.measured.rps / sameSize.rps,
        idle,
      });
    }
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} alternating rounds, node ${process.version}`);
    console.log('                                       vs hello-world (median, spread)       under load        one at a time');
    console.log('endpoint                bytes    req/s   ratio   min-max     same-size  p50 ms   p99 ms   p50 µs   p99 µs');
    for (const r of rows) {
      console.log(
        `${r.path.padEnd(22)} ${String(r.bytes).padStart(6)} ${r.rps.toFixed(0).padStart(8)} ${r.ratio.toFixed(2).padStart(7)} ${`${r.low.toFixed(2)}-${r.high.toFixed(2)}`.padStart(11)} ${r.sizedRatio.toFixed(2).padStart(11)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(8)} ${r.idle.p50.toFixed(0).padStart(8)} ${r.idle.p99.toFixed(0).padStart(8)}`,
      );
    }
    console.log(`hello-world baseline: ${(rows.reduce((a, r) => a + r.baseline, 0) / rows.length).toFixed(0)} req/s; "same-size" compares with the bare server answering a body of the same length.`);
    const worst = Math.min(...rows.map((r) => r.ratio));
    console.log(`\nworst median ratio ${worst.toFixed(2)} (target ≥ ${TARGET}): ${worst >= TARGET ? 'MET' : 'NOT MET'}`);
  } finally {
    await hello.stop();
    await vigil.stop();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
