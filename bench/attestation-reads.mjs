// An authenticated read of one attestation (`GET /v1/attestations/{canonical_hash}` with an API key,
// what `vigil log audit` sends once per logged attestation) against a bare fastify hello-world, both
// measured in this run on this machine. Reported as a ratio of requests per second, so that a change
// to the read path (the SQLite statement cache: docs/benchmarks.md, "Prepared statements") can be
// compared across machines; no target is asserted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileBlobStore, migrateToLatest, openDatabase, runKeysCommand, seedDemo } from '@vigil/server';
import { load, median, startServer } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const dataDir = await mkdtemp(join(tmpdir(), 'vigil-bench-'));
try {
  process.stdout.write('seeding the demo network (9 days)… ');
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const seeded = await seedDemo(database.db, { now: new Date(), blobs: createFileBlobStore(join(dataDir, 'blobs')), historyDays: 9 });
  const lines = await runKeysCommand(database.db, 'keys', ['create', '--org', 'bench', '--plan', 'paid', '--scopes', 'read'], Date.now());
  const token = lines.find((line) => line.startsWith('vgl_'));
  const { canonical_hash: hash } = await database.db.selectFrom('attestations').select('canonical_hash').orderBy('id').limit(1).executeTakeFirstOrThrow();
  await database.close();
  console.log(`${seeded.attestations} attestations`);

  const hello = await startServer(['hello']);
  const vigil = await startServer(['vigil', dataDir]);
  const request = { headers: { authorization: `Bearer ${token}` } };
  const path = `/v1/attestations/${hash}`;
  try {
    await load(`http://127.0.0.1:${hello.port}/`, { seconds: 2, connections: CONNECTIONS });
    await load(`http://127.0.0.1:${vigil.port}${path}`, { seconds: 2, connections: CONNECTIONS, request });
    const pairs = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const baseline = await load(`http://127.0.0.1:${hello.port}/`, { seconds: SECONDS, connections: CONNECTIONS });
      const measured = await load(`http://127.0.0.1:${vigil.port}${path}`, { seconds: SECONDS, connections: CONNECTIONS, request });
      pairs.push({ baseline: baseline.rps, measured: measured.rps, ratio: measured.rps / baseline.rps, p99: measured.p99 });
      console.log(`round ${round + 1}: hello-world ${Math.round(baseline.rps)}/s, attestation read ${Math.round(measured.rps)}/s (p99 ${measured.p99} ms), ratio ${(measured.rps / baseline.rps).toFixed(3)}`);
    }
    const ratios = pairs.map((p) => p.ratio);
    console.log(`median: attestation read ${Math.round(median(pairs.map((p) => p.measured)))}/s, ${median(ratios).toFixed(3)} of hello-world (range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`);
  } finally {
    await vigil.stop();
    await hello.stop();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
