// Attestations at scale on PostgreSQL (docs/benchmarks.md, "Attestations at scale"): N attestations
// generated inside PostgreSQL (generateAttestations: generate_series, the network's shapes, the
// rollups computed from the rows), once in the partitioned layout of this release and once in the
// previous release's single table, in the same run; then each public aggregate and each hot
// attestation read, through the server's own read functions: its time (median of repeated runs)
// and, for every statement it sent, EXPLAIN (ANALYZE, BUFFERS) buffers. Ratios are partitioned
// over single table at the same size. Finally the single table is converted by migration 0024 and
// the conversion timed (rows/s). Everything is made in a database of its own, dropped at the end.
//
//   node bench/aggregates-at-scale.mjs [--rows 1000000[,10000000]] [--months 12] [--runs 15] [--no-plain | --no-partitioned]
//   BENCH_DATABASE_URL: a PostgreSQL server to create the scratch database on (default postgres://postgres@127.0.0.1:5432/postgres)
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createPublicReadService, generateAttestations, getAttestation, listAttestations, migrateToLatest, migrateUpTo } from '@vigil/server';
import { withScratchDatabase } from './lib.mjs';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '2000000' },
    months: { type: 'string', default: '12' },
    runs: { type: 'string', default: '15' },
    'no-plain': { type: 'boolean', default: false },
    'no-partitioned': { type: 'boolean', default: false },
  },
});
if (values['no-plain'] && values['no-partitioned']) throw new Error('--no-plain and --no-partitioned: nothing left to measure');
const SIZES = values.rows.split(',').map((n) => Number(n.replaceAll('_', '')));
const MONTHS = Number(values.months);
const RUNS = Number(values.runs);
if (SIZES.some((n) => !Number.isInteger(n) || n < 1000)) throw new Error('--rows: integers of at least 1000, comma-separated');

/** A fresh schema of the scratch database whose Kysely keeps every statement it sends (for buffersOf). */
async function open(openSchema, schema) {
  const statements = [];
  const handle = await openSchema(schema, {
    max: 2,
    log: (event) => {
      if (event.level === 'query') statements.push(event.query);
    },
  });
  return { ...handle, statements };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gb = (bytes) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;

/** Sum of shared buffers (hit + read) over the statements a read sent, from EXPLAIN (ANALYZE, BUFFERS). */
async function buffersOf(db, statements) {
  let hit = 0;
  let read = 0;
  for (const q of statements) {
    const { rows } = await db.executeQuery({ ...q, sql: `explain (analyze, buffers, format json) ${q.sql}` });
    const plan = rows[0]['QUERY PLAN'][0];
    hit += (plan.Plan['Shared Hit Blocks'] ?? 0) + (plan.Planning?.['Shared Hit Blocks'] ?? 0);
    read += (plan.Plan['Shared Read Blocks'] ?? 0) + (plan.Planning?.['Shared Read Blocks'] ?? 0);
  }
  return { hit, read, statements: statements.length };
}

async function measure(handle, name, work) {
  await work();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    await work();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  handle.statements.length = 0;
  await work();
  const buffers = await buffersOf(handle.db, [...handle.statements]);
  return { name, ms: median(times), ...buffers };
}

/** The reads measured: the public aggregates, then the hot attestation reads of the customer API. */
async function reads(handle, endMs, layout) {
  const { db } = handle;
  const service = createPublicReadService(db);
  const now = new Date(endMs);
  const sample = await sql`select canonical_hash, validator_hotkey, recorded_at, id from attestations order by id offset ${Math.floor((await count(db)) * 0.37)} limit 1`.execute(db);
  const { canonical_hash: hash, validator_hotkey: validator } = sample.rows[0];
  const round = await sql`select round_id, opened_at from rounds where track = 'packages' and closed_at <= ${endMs - 14 * 86_400_000} order by opened_at desc limit 1`.execute(db);
  const miner = await sql`select hotkey from tasks where round_id = ${round.rows[0].round_id} limit 1`.execute(db);
  const deep = await sql`select recorded_at, id from attestations where validator_hotkey = ${validator} order by recorded_at, id limit 1 offset 500`.execute(db);
  const results = [];
  results.push(await measure(handle, 'GET /v1/dashboard/network', () => service.networkDashboard(now)));
  results.push(await measure(handle, 'GET /v1/threats/trends?days=30', () => service.threatTrends(30, now)));
  results.push(await measure(handle, 'GET /v1/threats/trends?days=90', () => service.threatTrends(90, now)));
  results.push(await measure(handle, 'GET /v1/leaderboard', () => service.leaderboard(now)));
  results.push(await measure(handle, 'GET /v1/rounds/status', () => service.roundsStatus(now)));
  results.push(await measure(handle, 'GET /v1/rounds/{id}/attestations?miner=', () => service.roundAttestations(round.rows[0].round_id, miner.rows[0].hotkey)));
  // The single table has no attestation_keys: there the lookup is the previous release's statement.
  const byHash =
    layout === 'partitioned'
      ? () => getAttestation(db, { canonicalHash: hash, showFindings: true })
      : () => db.selectFrom('attestations as a').innerJoin('artifacts as r', 'r.id', 'a.artifact_id').selectAll('a').select(['r.bundle_hash', 'r.content_hash']).where('a.canonical_hash', '=', hash).executeTakeFirst();
  results.push(await measure(handle, 'GET /v1/attestations/{hash}', byHash));
  results.push(await measure(handle, 'GET /v1/attestations?validator= (first page)', () => listAttestations(db, { filters: { validator }, after: null, size: 50, showFindings: true })));
  const after = { recordedAt: Number(deep.rows[0].recorded_at), id: Number(deep.rows[0].id) };
  results.push(await measure(handle, 'GET /v1/attestations?validator= (an old page)', () => listAttestations(db, { filters: { validator }, after, size: 50, showFindings: true })));
  results.push(await measure(handle, 'GET /v1/attestations (newest page)', () => listAttestations(db, { filters: {}, after: null, size: 50, showFindings: true })));
  return results;
}

async function count(db) {
  const { rows } = await sql`select count(*)::bigint as n from attestations`.execute(db);
  return Number(rows[0].n);
}

async function sizeOf(db) {
  const { rows } = await sql`select greatest(pg_total_relation_size('attestations'),
      (select coalesce(sum(pg_total_relation_size(relid)), 0) from pg_partition_tree('attestations')))::bigint as bytes union all
    select coalesce(pg_total_relation_size(to_regclass('attestation_keys')), 0)::bigint`.execute(db);
  return { attestations: Number(rows[0].bytes), keys: Number(rows[1].bytes) };
}

const endMs = Date.now();
const report = [];
await withScratchDatabase('vigil_bench_scale', async ({ openSchema }) => {
  for (const rows of SIZES) {
    const layouts = ['partitioned', 'single table'].filter((l) => !(l === 'partitioned' ? values['no-partitioned'] : values['no-plain']));
    const bySize = {};
    for (const layout of layouts) {
      const schema = `s_${layout === 'partitioned' ? 'part' : 'plain'}_${rows}`;
      const handle = await open(openSchema, schema);
      if (layout === 'partitioned') await migrateToLatest(handle.db);
      else await migrateUpTo(handle.db, '0023-watches');
      let started = Date.now();
      await generateAttestations(handle.db, {
        rows,
        months: MONTHS,
        endMs,
        progress: (n) => process.stderr.write(`  ${layout} ${rows}: ${n} rows, ${((Date.now() - started) / 1000).toFixed(0)} s\n`),
      });
      await sql`analyze`.execute(handle.db);
      const generatedS = (Date.now() - started) / 1000;
      const size = await sizeOf(handle.db);
      process.stderr.write(`${layout} ${rows}: generated in ${generatedS.toFixed(0)} s, ${gb(size.attestations)} + keys ${gb(size.keys)}\n`);
      const measured = await reads(handle, endMs, layout);
      bySize[layout] = { generatedS, size, measured };
      if (layout === 'single table') {
        // Migration 0024 on the previous release's populated table: the conversion's cost.
        started = Date.now();
        await migrateToLatest(handle.db);
        bySize[layout].convertS = (Date.now() - started) / 1000;
      }
      await handle.close();
    }
    report.push({ rows, ...bySize });
    print(report.at(-1));
  }
});

function print(entry) {
  const part = entry.partitioned;
  const plain = entry['single table'];
  const generated = [];
  if (part) generated.push(`partitioned ${part.generatedS.toFixed(0)} s (${gb(part.size.attestations)} + attestation_keys ${gb(part.size.keys)})`);
  if (plain) generated.push(`single table ${plain.generatedS.toFixed(0)} s (${gb(plain.size.attestations)}); migration 0024 converted it in ${plain.convertS.toFixed(1)} s (${Math.round(entry.rows / plain.convertS).toLocaleString('en')} rows/s)`);
  console.log(`\n## ${entry.rows.toLocaleString('en')} attestations over ${MONTHS} months`);
  console.log(`generated: ${generated.join('; ')}`);
  // One layout alone (--no-plain, --no-partitioned): its columns only; both: the ratio too.
  const columns = [part && 'partitioned ms (p50) | buffers hit+read', plain && 'single table ms | buffers', part && plain && 'time ratio (partitioned / single)'].filter(Boolean);
  console.log(`\n| read | statements | ${columns.join(' | ')} |`);
  console.log(`|---|---|${columns.map((c) => (c.includes('|') ? '---|---|' : '---|')).join('')}`);
  const names = (part ?? plain).measured;
  for (const [i, first] of names.entries()) {
    const cells = [];
    for (const m of [part?.measured[i], plain?.measured[i]]) if (m) cells.push(`${m.ms.toFixed(2)} | ${m.hit}+${m.read}`);
    if (part && plain) cells.push((part.measured[i].ms / plain.measured[i].ms).toFixed(2));
    console.log(`| ${first.name} | ${first.statements} | ${cells.join(' | ')} |`);
  }
}
