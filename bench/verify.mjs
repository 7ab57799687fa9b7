// POST /v1/artifacts/verify (known artifacts, a valid paid key) against the cached /v1/leaderboard
// read, both measured in this run on this server; and batch verification of 100 references.
// Target (issue "Customers"): verify reaches at least 50% of the cached leaderboard's requests per second.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileBlobStore, migrateToLatest, openDatabase, runKeysCommand, seedDemo } from '@vigil/server';
import { load, median, probe, startServer } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 0.5;

const dataDir = await mkdtemp(join(tmpdir(), 'vigil-bench-verify-'));
try {
  process.stdout.write('seeding the demo network… ');
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const blobs = createFileBlobStore(join(dataDir, 'blobs'));
  const seeded = await seedDemo(database.db, { now: new Date(), blobs });
  const lines = await runKeysCommand(database.db, 'keys', ['create', '--org', 'bench', '--plan', 'paid', '--scopes', 'upload,verify'], Date.now());
  const token = lines.find((line) => line.startsWith('vgl_'));
  // The demo's live package artifacts with a published verdict: their source ids are purls.
  const known = await database.db
    .selectFrom('artifacts')
    .innerJoin('published_verdicts', 'published_verdicts.artifact_id', 'artifacts.id')
    .select(['artifacts.track', 'artifacts.source_id', 'artifacts.content_hash'])
    .where('artifacts.kind', '=', 'live')
    .where('artifacts.source_id', 'like', 'pkg:%')
    .execute();
  await database.close();
  console.log(`${seeded.attestations} attestations, ${known.length} decided package artifacts`);

  const vigil = await startServer(['vigil', dataDir]);
  const base = `http://127.0.0.1:${vigil.port}`;
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  try {
    // Customers upload the artifacts: the same bytes answer the existing artifact (200) and record the purl.
    for (const artifact of known) {
      const bytes = await blobs.get(artifact.content_hash);
      const query = new URLSearchParams({ track: artifact.track, package: artifact.source_id });
      const response = await fetch(`${base}/v1/artifacts?${query}`, {
        method: 'POST',
        headers: { authorization: auth.authorization, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      if (response.status !== 200) throw new Error(`upload of ${artifact.source_id}: ${response.status} ${await response.text()}`);
    }
    const purls = known.map((a) => a.source_id);
    const check = await (await fetch(`${base}/v1/artifacts/verify`, { method: 'POST', headers: auth, body: JSON.stringify({ artifact: purls[0] }) })).json();
    if (check.state !== 'decided') throw new Error(`expected a decided verdict, got ${JSON.stringify(check)}`);

    const single = { method: 'POST', headers: auth, body: JSON.stringify({ artifact: purls[0] }) };
    const batchBody = JSON.stringify({ artifacts: Array.from({ length: 100 }, (_, i) => purls[i % purls.length]) });
    const batch = { method: 'POST', headers: auth, body: batchBody };
    const run = (path, request) => load(`${base}${path}`, { seconds: SECONDS, connections: CONNECTIONS, request });

    await run('/v1/leaderboard');
    await run('/v1/artifacts/verify', single);
    await run('/v1/artifacts/verify/batch', batch);

    const samples = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const leaderboard = await run('/v1/leaderboard');
      const verify = await run('/v1/artifacts/verify', single);
      const batched = await run('/v1/artifacts/verify/batch', batch);
      samples.push({ leaderboard, verify, batched, ratio: verify.rps / leaderboard.rps });
    }
    const ratios = samples.map((s) => s.ratio);
    const typical = samples.slice().sort((a, b) => a.ratio - b.ratio)[Math.floor(samples.length / 2)];
    const batchRps = median(samples.map((s) => s.batched.rps));
    const verifyRps = median(samples.map((s) => s.verify.rps));
    const idleVerify = await (async () => {
      const times = [];
      for (let i = 0; i < 500; i++) {
        const start = process.hrtime.bigint();
        const response = await fetch(`${base}/v1/artifacts/verify`, single);
        await response.arrayBuffer();
        times.push(Number(process.hrtime.bigint() - start) / 1000);
      }
      times.sort((a, b) => a - b);
      return { p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)] };
    })();
    const idleLeaderboard = await probe(`${base}/v1/leaderboard`, 500);

    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} alternating rounds, node ${process.version}`);
    console.log('endpoint                       req/s   p50 ms   p99 ms   one at a time p50 µs');
    const row = (name, r, idle) =>
      console.log(`${name.padEnd(28)} ${r.rps.toFixed(0).padStart(7)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${idle === undefined ? '' : idle.p50.toFixed(0).padStart(12)}`);
    row('/v1/leaderboard (cached)', typical.leaderboard, idleLeaderboard);
    row('/v1/artifacts/verify', typical.verify, idleVerify);
    row('/v1/artifacts/verify/batch', typical.batched);
    console.log(`\nverify / leaderboard: median ${median(ratios).toFixed(2)} (spread ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}), target ≥ ${TARGET}: ${median(ratios) >= TARGET ? 'MET' : 'NOT MET'}`);
    const perReference = 1e6 / (batchRps * 100);
    console.log(
      `batch of 100: ${batchRps.toFixed(0)} batches/s = ${(batchRps * 100).toFixed(0)} references/s, ${perReference.toFixed(1)} µs of server throughput per reference ` +
        `(${((batchRps * 100) / verifyRps).toFixed(1)}× the references/s of single verify)`,
    );
  } finally {
    await vigil.stop();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
