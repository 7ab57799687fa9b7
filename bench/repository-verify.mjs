// POST /v1/repositories/verify of this repository's own pnpm-lock.yaml, end to end over HTTP, against
// a single-artifact POST /v1/artifacts/verify measured in the same run on the same server.
// Target (issue 9, "Repositories"): the lockfile verified in under 300 ms on SQLite.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileBlobStore, migrateToLatest, openDatabase, runKeysCommand, seedDemo } from '@vigil/server';
import { median, percentile, startServer } from './lib.mjs';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 30);
const SINGLES = Number(process.env.BENCH_SINGLES ?? 300);
const TARGET_MS = 300;
const LOCKFILE = new URL('../pnpm-lock.yaml', import.meta.url);

const dataDir = await mkdtemp(join(tmpdir(), 'vigil-bench-repository-verify-'));
try {
  process.stdout.write('seeding the demo network… ');
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const blobs = createFileBlobStore(join(dataDir, 'blobs'));
  const seeded = await seedDemo(database.db, { now: new Date(), blobs });
  const lines = await runKeysCommand(database.db, 'keys', ['create', '--org', 'bench', '--plan', 'paid', '--scopes', 'upload,verify,repositories'], Date.now());
  const token = lines.find((line) => line.startsWith('vgl_'));
  const known = await database.db
    .selectFrom('artifacts')
    .innerJoin('published_verdicts', 'published_verdicts.artifact_id', 'artifacts.id')
    .select(['artifacts.track', 'artifacts.source_id', 'artifacts.content_hash'])
    .where('artifacts.kind', '=', 'live')
    .where('artifacts.source_id', 'like', 'pkg:npm/%')
    .limit(1)
    .execute();
  await database.close();
  console.log(`${seeded.attestations} attestations`);

  const lockfile = await readFile(LOCKFILE, 'utf8');
  const vigil = await startServer(['vigil', dataDir]);
  const base = `http://127.0.0.1:${vigil.port}`;
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  try {
    // The single-artifact baseline: a decided package, uploaded under its purl as verify.mjs does.
    const artifact = known[0];
    const bytes = await blobs.get(artifact.content_hash);
    const uploaded = await fetch(`${base}/v1/artifacts?${new URLSearchParams({ track: artifact.track, package: artifact.source_id })}`, {
      method: 'POST',
      headers: { authorization: auth.authorization, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);

    const timed = async (path, body) => {
      const start = process.hrtime.bigint();
      const response = await fetch(`${base}${path}`, { method: 'POST', headers: auth, body });
      const text = await response.text();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
      return { ms, json: JSON.parse(text), bytes: text.length };
    };
    const repository = (content) => JSON.stringify({ lockfiles: [{ path: 'pnpm-lock.yaml', content }] });
    const single = JSON.stringify({ artifact: artifact.source_id });

    // Fresh content every time (a comment line YAML ignores): parsed on every request, as a new commit's would be.
    const first = await timed('/v1/repositories/verify', repository(`${lockfile}\n# bench cold\n`));
    const summary = first.json.summary;
    const fresh = [];
    const same = [];
    const singles = [];
    for (let i = 0; i < REPEATS; i += 1) {
      fresh.push((await timed('/v1/repositories/verify', repository(`${lockfile}\n# bench ${i}\n`))).ms);
      same.push((await timed('/v1/repositories/verify', repository(lockfile))).ms);
      for (let j = 0; j < SINGLES / REPEATS; j += 1) singles.push((await timed('/v1/artifacts/verify', single)).ms);
    }
    const singleMs = median(singles);
    const row = (name, times) =>
      console.log(
        `${name.padEnd(44)} ${median(times).toFixed(1).padStart(8)} ${percentile(times, 90).toFixed(1).padStart(8)} ${(median(times) / singleMs).toFixed(0).padStart(10)}×`,
      );
    console.log(`\npnpm-lock.yaml: ${lockfile.length} bytes, ${summary.packages} packages (${summary.direct} direct, ${summary.skipped} skipped entries); answer ${first.bytes} bytes`);
    console.log(`verdict ${first.json.verdict}: ${summary.allowed} allowed, ${summary.warned} warned, ${summary.blocked} blocked, ${summary.pending} pending; node ${process.version}`);
    console.log(`sequential requests on one keep-alive connection, ${REPEATS} lockfile requests of each kind, ${singles.length} single verifies\n`);
    console.log('request                                        p50 ms   p90 ms   vs single');
    row('POST /v1/artifacts/verify (one purl)', singles);
    row('repositories/verify, new content each time', fresh);
    row('repositories/verify, the same lockfile again', same);
    console.log(`first request of the process (cold): ${first.ms.toFixed(1)} ms`);
    const met = median(fresh) < TARGET_MS;
    console.log(`\ntarget: under ${TARGET_MS} ms on SQLite: ${met ? 'MET' : 'NOT MET'} with a new lockfile each time (p50 ${median(fresh).toFixed(1)} ms); ${median(same) < TARGET_MS ? 'MET' : 'NOT MET'} for a lockfile seen before (p50 ${median(same).toFixed(1)} ms)`);
    console.log(`server time per package (new content): ${((median(fresh) * 1000) / summary.packages).toFixed(0)} µs`);
  } finally {
    await vigil.stop();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
