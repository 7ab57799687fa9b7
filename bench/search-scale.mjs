// GET /v1/search on a large index: a common query (one letter, `npm`, `a*`: every entry matches,
// the adversarial tester's 25-second case) against a selective one (one artifact's unique name),
// measured in the same run. Issue 8: the index hands over at most MAX_SEARCH_CANDIDATES (1,000)
// ranked matches before any join, so the ratio stays small however many entries match.
//
// The index is built through the real write path (registerArtifact, which indexes each artifact in
// its transaction; an upload-like claim for one in ten, so audience entries exist too). SQLite
// always (a file in bench/.data, kept and reused: BENCH_REBUILD=1 builds again); PostgreSQL too
// when TEST_DATABASE_URL is set (a schema made and dropped by the run). Requests go through the
// HTTP stack in-process (fastify inject), one at a time.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { contentHash, MAX_SEARCH_CANDIDATES } from '@vigil/core';
import { buildApp, createRuntime, loadConfig, migrateToLatest, openDatabase, registerArtifact, runKeysCommand } from '@vigil/server';
import { median, percentile, prng } from './lib.mjs';

const ARTIFACTS = Number(process.env.BENCH_ARTIFACTS ?? 20_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 15);
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const WORDS = ['alpha', 'arrow', 'atlas', 'amber', 'axis', 'bolt', 'cedar', 'delta', 'ember', 'flint', 'grove', 'harbor'];

async function build(db) {
  await migrateToLatest(db);
  const random = prng(8);
  const began = Date.now();
  for (let i = 0; i < ARTIFACTS; i++) {
    const name = `${WORDS[Math.floor(random() * WORDS.length)]}-${WORDS[Math.floor(random() * WORDS.length)]}-${i}`;
    const sourceId = `pkg:npm/${name}@1.0.${i % 10}`;
    await registerArtifact(db, { track: 'packages', label: 'npm', sourceId, kind: 'live', contentHash: contentHash(sourceId), now: NOW });
    if ((i + 1) % 5000 === 0) console.log(`  ${i + 1} artifacts, ${((i + 1) / ((Date.now() - began) / 1000)).toFixed(0)}/s`);
  }
}

async function measure(label, database) {
  const { db } = database;
  const token = (await runKeysCommand(db, 'keys', ['create', '--org', `bench-${randomBytes(3).toString('hex')}`, '--plan', 'paid', '--scopes', 'read'], Date.now())).find((l) =>
    l.startsWith('vgl_'),
  );
  const runtime = await createRuntime(loadConfig({ LOG_LEVEL: 'silent' }), { database });
  const app = await buildApp(runtime);
  const get = async (q) => {
    const start = process.hrtime.bigint();
    const response = await app.inject({ method: 'GET', url: `/v1/search?q=${encodeURIComponent(q)}`, headers: { authorization: `Bearer ${token}` } });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (response.statusCode !== 200) throw new Error(`${q}: ${response.statusCode} ${response.body}`);
    return { ms, results: response.json().results.length };
  };
  const queries = [
    ['selective: one artifact by its unique name', `${WORDS[0]} ${ARTIFACTS - 1}`],
    ['common: a', 'a'],
    ['common: npm', 'npm'],
    ['common: a*', 'a*'],
    ['common: pkg npm 1', 'pkg npm 1'],
  ];
  const times = new Map(queries.map(([name]) => [name, []]));
  // Warm up, then interleave the queries so load on the machine hits each alike.
  for (const [, q] of queries) await get(q);
  for (let r = 0; r < REPEATS; r++) for (const [name, q] of queries) times.get(name).push((await get(q)).ms);
  await app.close();
  await runtime.close();
  const baseline = median(times.get(queries[0][0]));
  console.log(`\n${label}: ${ARTIFACTS} artifacts indexed, at most ${MAX_SEARCH_CANDIDATES} candidates per search`);
  for (const [name] of queries) {
    const t = times.get(name);
    console.log(`  ${name.padEnd(44)} p50 ${median(t).toFixed(1).padStart(7)} ms   p90 ${percentile(t, 90).toFixed(1).padStart(7)} ms   ${(median(t) / baseline).toFixed(1).padStart(5)}× selective`);
  }
}

const dataDir = new URL(`./.data/search-${ARTIFACTS}/`, import.meta.url).pathname;
if (process.env.BENCH_REBUILD === '1' || !existsSync(`${dataDir}vigil.db`)) {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const sqlite = await openDatabase({ dataDir });
  console.log(`building ${ARTIFACTS} artifacts on SQLite in ${dataDir} (kept for later runs)`);
  await build(sqlite.db);
  await sqlite.close();
}
const sqlite = await openDatabase({ dataDir });
await migrateToLatest(sqlite.db);
await measure('SQLite', sqlite);
await sqlite.close();

const url = process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `bench_search_${randomBytes(4).toString('hex')}`;
  const admin = await openDatabase({ url });
  await admin.db.schema.createSchema(schema).execute();
  try {
    const scoped = new URL(url);
    scoped.searchParams.set('options', `-c search_path=${schema}`);
    const postgres = await openDatabase({ url: scoped.toString() });
    console.log(`\nbuilding ${ARTIFACTS} artifacts on PostgreSQL (schema ${schema}, dropped at the end)`);
    await build(postgres.db);
    await measure('PostgreSQL', postgres);
    await postgres.close();
  } finally {
    await admin.db.schema.dropSchema(schema).cascade().execute();
    await admin.close();
  }
}
