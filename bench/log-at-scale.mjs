// The transparency log's tables at size on PostgreSQL (docs/scaling.md, "The transparency log's
// tables"): N entries in `log_entries` and their stored hashes in `log_hashes` (storedHashCount(N)
// rows, Go's sumdb/tlog numbering), generated inside PostgreSQL with generate_series in a scratch
// database of their own (dropped at the end). Entries are attestation entries of the real shape
// and length (attestationLogEntry); the hashes are filler of the right length, so no Merkle check
// is made here: what is measured is what each read of the log costs in the database as it grows.
// For each statement the log's reads send (the same statements as apps/server/src/features/log:
// the size, an entry tile, the lookup by subject, the stored hashes an inclusion proof and a hash
// tile read), its time (median of --runs) and its EXPLAIN (ANALYZE, BUFFERS) buffers; then one pass
// of the start-up check's reads (check-log.ts: every entry in chunks of 1,000 and its leaf hash).
//
//   node bench/log-at-scale.mjs [--entries 1000000[,10000000]] [--runs 30]
//   BENCH_DATABASE_URL: a PostgreSQL server to create the scratch database on (default postgres://postgres@127.0.0.1:5432/postgres)
import { parseArgs } from 'node:util';
import { migrateToLatest } from '@vigil/server';
import { proveInclusion, readTileData, storedHashCount, storedHashIndex } from '@vigil/tlog';
import { withScratchDatabase } from './lib.mjs';

const { values } = parseArgs({ options: { entries: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '30' } } });
const SIZES = values.entries.split(',').map((n) => Number(n.replaceAll('_', '')));
const RUNS = Number(values.runs);
if (SIZES.some((n) => !Number.isInteger(n) || n < 1000)) throw new Error('--entries: integers of at least 1000, comma-separated');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A HashReader that records the stored-hash indexes a proof or tile asks for and answers filler. */
function recordingReader() {
  const asked = [];
  return {
    asked,
    async readHashes(indexes) {
      asked.push(...indexes);
      return indexes.map(() => new Uint8Array(32));
    },
  };
}

async function measure(db, name, text, parameters) {
  const times = [];
  await db.query(text, parameters);
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    await db.query(text, parameters);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const { rows } = await db.query(`explain (analyze, buffers, format json) ${text}`, parameters);
  const plan = rows[0]['QUERY PLAN'][0].Plan;
  return { name, ms: median(times), hit: plan['Shared Hit Blocks'] ?? 0, read: plan['Shared Read Blocks'] ?? 0 };
}

const report = [];
await withScratchDatabase('vigil_bench_log', async ({ openSchema }) => {
  for (const n of SIZES) {
    const { db, pool, close } = await openSchema(`s_log_${n}`);
    await migrateToLatest(db);
    const client = await pool.connect();
    try {
      await client.query(`set maintenance_work_mem = '256MB'`);
      const hashes = storedHashCount(n);
      let started = Date.now();
      // Written with the primary key and the subject index in place, as appendLogEntries writes:
      // idx grows at its B-tree's right edge, subjects (hashes) land anywhere, as in production.
      await client.query(
        `insert into log_entries (idx, type, subject, entry, created_at)
         select i, 'vigil.attestation/v1', 'attestation:sha256:' || h,
           '{"bundle_hash":"sha256:' || encode(sha256(('b' || (i / 5))::bytea), 'hex') || '","canonical_hash":"sha256:' || h ||
           '","recorded_at":"2026-11-30T05:00:00.000+00:00","signature":"' || repeat(md5('sig-' || i), 4) ||
           '","type":"vigil.attestation/v1","validator_hotkey":"5' || md5('v' || (i % 64)) || substr(md5('w' || (i % 64)), 1, 15) || '","verdict":"ALLOW"}',
           1764478800000 + i
         from generate_series(0, $1::bigint - 1) i, lateral (select encode(sha256(('a' || i)::bytea), 'hex') as h) x`,
        [n],
      );
      await client.query(`insert into log_hashes (hash_index, hash) select i, md5('h' || i) || md5('g' || i) from generate_series(0, $1::bigint - 1) i`, [hashes]);
      await client.query('analyze log_entries; analyze log_hashes');
      const generatedS = (Date.now() - started) / 1000;
      const { rows: sizeRows } = await client.query(`select pg_total_relation_size('log_entries')::bigint as e, pg_total_relation_size('log_hashes')::bigint as h`);

      const reads = [];
      reads.push(await measure(client, 'log size (max idx): every append and hash tile read', 'select max(idx) as last from log_entries', []));
      const tileStart = Math.floor((n * 0.37) / 256) * 256;
      reads.push(await measure(client, 'entry tile (256 entries by idx range)', 'select idx, entry from log_entries where idx >= $1 and idx < $2 order by idx', [tileStart, tileStart + 256]));
      const { rows: sample } = await client.query('select subject from log_entries where idx = $1', [Math.floor(n * 0.61)]);
      reads.push(await measure(client, 'entry by subject (proof of an attestation)', 'select idx, entry from log_entries where subject = $1 order by idx desc limit 1', [sample[0].subject]));
      const proof = recordingReader();
      await proveInclusion(n, Math.floor(n * 0.61), proof);
      reads.push(await measure(client, `stored hashes of an inclusion proof (${proof.asked.length})`, 'select hash_index, hash from log_hashes where hash_index = any($1::bigint[])', [proof.asked]));
      const tile = recordingReader();
      await readTileData({ level: 0, n: Math.floor(tileStart / 256), width: 256 }, tile);
      reads.push(await measure(client, `stored hashes of a level-0 hash tile (${tile.asked.length})`, 'select hash_index, hash from log_hashes where hash_index = any($1::bigint[])', [tile.asked]));

      // The start-up check's reads, once: every entry in chunks of 1,000, then their leaf hashes.
      started = Date.now();
      for (let start = 0; start < n; start += 1000) {
        const end = Math.min(start + 1000, n);
        await client.query('select idx, entry from log_entries where idx >= $1 and idx < $2 order by idx', [start, end]);
        const leaves = [];
        for (let i = start; i < end; i++) leaves.push(storedHashIndex(0, i));
        await client.query('select hash_index, hash from log_hashes where hash_index = any($1::bigint[])', [leaves]);
      }
      const checkS = (Date.now() - started) / 1000;
      report.push({ n, hashes, generatedS, entriesBytes: Number(sizeRows[0].e), hashesBytes: Number(sizeRows[0].h), reads, checkS });
      print(report.at(-1));
    } finally {
      client.release();
      await close();
    }
  }
});

function print(r) {
  const gb = (b) => `${(b / 1024 ** 3).toFixed(2)} GB`;
  console.log(`\n## ${r.n.toLocaleString('en')} log entries (${r.hashes.toLocaleString('en')} stored hashes)`);
  console.log(`generated in ${r.generatedS.toFixed(0)} s; log_entries ${gb(r.entriesBytes)}, log_hashes ${gb(r.hashesBytes)} (with indexes)`);
  console.log('\n| read | ms (p50) | buffers hit+read |\n|---|---|---|');
  for (const m of r.reads) console.log(`| ${m.name} | ${m.ms.toFixed(2)} | ${m.hit}+${m.read} |`);
  console.log(`\nstart-up check's reads (every entry and its leaf hash): ${r.checkS.toFixed(1)} s, ${Math.round(r.n / r.checkS).toLocaleString('en')} entries/s`);
}
