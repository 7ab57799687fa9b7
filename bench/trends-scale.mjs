// Uncached threat trends on a database holding 1,000,000 attestations across 50,000 artifacts.
// Target (issue 3): /v1/threats/trends?days=180 answers a cache miss in under 20 ms median.
//
// The database is built through the real write path — signed envelopes, recordAttestation, every
// aggregate maintained on write — so the numbers describe what production would hold. Building it
// takes a while (progress is printed); the file is kept in bench/.data and reused by later runs
// (delete it, or set BENCH_REBUILD=1, to build again). The baseline measured in the same run is a
// primary-key lookup on the same database: the cheapest query it can answer.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, formatOffsetTimestamp, TRACKS } from '@vigil/core';
import { signAttestation } from '@vigil/crypto';
import {
  buildApp,
  closeRound,
  createPublicReadService,
  createRuntime,
  createTasks,
  loadConfig,
  migrateToLatest,
  openDatabase,
  openRound,
  recordAttestation,
  registerArtifact,
  registerMiner,
  registerValidator,
  startEvaluation,
  submitAgent,
} from '@vigil/server';
import { keyFor as keyForSalted, median, percentile, prng } from './lib.mjs';

const ATTESTATIONS = Number(process.env.BENCH_ATTESTATIONS ?? 1_000_000);
const ARTIFACTS = Number(process.env.BENCH_ARTIFACTS ?? 50_000);
const DAYS = 180;
const VALIDATORS = 2;
const AGENTS_PER_TRACK = 10;
const TARGET_MS = 20;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const dataDir = new URL(`./.data/trends-${ATTESTATIONS}-${ARTIFACTS}/`, import.meta.url).pathname;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

const keyFor = (n) => keyForSalted(n, 7);


async function build() {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const database = await openDatabase({ dataDir });
  const { db } = database;
  await migrateToLatest(db);
  const random = prng(180);
  const start = NOW - (DAYS - 1) * DAY;
  const validators = Array.from({ length: VALIDATORS }, (_, i) => keyFor(i));
  for (const [uid, v] of validators.entries()) await registerValidator(db, { hotkey: v.hotkey, uid, allowedIps: [], now: start - DAY });

  const perTrack = ARTIFACTS / TRACKS.length;
  // Rounds per track so that every artifact is attested by every agent on both validators:
  // attestations = rounds × tracks × agents × artifactsPerRound × validators.
  const rounds = Math.max(1, Math.round(ATTESTATIONS / (TRACKS.length * AGENTS_PER_TRACK * VALIDATORS * perTrack)));
  const perRound = Math.round(ATTESTATIONS / (rounds * TRACKS.length * AGENTS_PER_TRACK * VALIDATORS));
  const categories = ['malware', 'exfiltration', 'prompt_injection', 'install_script', 'typosquat', 'obfuscation'];
  const severities = ['CRIT', 'HIGH', 'MED', 'LOW'];
  let written = 0;
  const began = Date.now();

  for (const [t, track] of TRACKS.entries()) {
    const agents = Array.from({ length: AGENTS_PER_TRACK }, (_, i) => keyFor(1000 + t * 100 + i));
    const artifacts = [];
    for (let i = 0; i < perTrack; i++) {
      const sourceId = `pkg:npm/bench-${track}-${i}@1.0.0`;
      const row = await registerArtifact(db, { track, label: 'live', sourceId, kind: 'live', contentHash: contentHash(sourceId), now: start - DAY });
      artifacts.push({ bundleHash: row.bundle_hash, sha256: row.content_hash, malicious: random() < 0.3 });
    }
    for (const [i, agent] of agents.entries()) {
      await registerMiner(db, { hotkey: agent.hotkey, track, now: start - DAY });
      await submitAgent(db, { hotkey: agent.hotkey, track, name: `bench-${i}`, provider: 'bench', codeHash: contentHash(`agent-${track}-${i}`), now: start - DAY });
    }
    const span = (DAYS * DAY) / rounds;
    for (let r = 0; r < rounds; r++) {
      const opensAt = start + r * span;
      const round = await openRound(db, { track, now: opensAt, submissionMs: HOUR, evaluationMs: span - 2 * HOUR, policyVersion: 'bench' });
      await startEvaluation(db, { roundId: round.round_id, now: opensAt + HOUR });
      const slice = Array.from({ length: perRound }, (_, k) => artifacts[(r * perRound + k) % artifacts.length]);
      const byHash = new Map(slice.map((a) => [a.bundleHash, a]));
      const tasks = await createTasks(db, { roundId: round.round_id, bundleHashes: slice.map((a) => a.bundleHash), now: opensAt + HOUR });
      const byAgent = new Map(agents.map((a) => [a.hotkey, a]));
      // Attestation times spread over the evaluation window, in order, as a live network would write them.
      const runs = tasks.flatMap((task) => validators.map((v) => ({ task, v, at: opensAt + HOUR + Math.floor(random() * (span - 3 * HOUR)) })));
      runs.sort((a, b) => a.at - b.at);
      for (const { task, v, at } of runs) {
        const artifact = byHash.get(task.bundleHash);
        const agent = byAgent.get(task.hotkey);
        const flagged = artifact.malicious ? random() < 0.85 : random() < 0.03;
        const verdict = flagged ? (random() < 0.5 ? 'BLOCK' : 'WARN') : 'ALLOW';
        const findings = flagged
          ? [{ type: 'static', category: categories[Math.floor(random() * categories.length)], severity: severities[Math.floor(random() * 4)], title: 'bench finding', file: 'index.js' }]
          : [];
        const payload = {
          round_id: round.round_id,
          task_id: task.taskId,
          track,
          miner_hotkey: agent.hotkey,
          agent_hash: contentHash(`agent-${track}-${agents.indexOf(agent)}`),
          artifact: { bundle_hash: artifact.bundleHash, sha256: artifact.sha256 },
          verdict,
          risk_score: flagged ? 60 + Math.floor(random() * 40) : Math.floor(random() * 20),
          findings,
          policy_version: 'bench',
          validator_hotkey: v.hotkey,
          created_at: formatOffsetTimestamp(at),
        };
        await recordAttestation(db, signAttestation(payload, v.secretKey), { now: at });
        written++;
        if (written % 50_000 === 0) {
          const rate = written / ((Date.now() - began) / 1000);
          console.log(`  ${written} attestations, ${rate.toFixed(0)}/s, about ${((ATTESTATIONS - written) / rate / 60).toFixed(1)} min left`);
        }
      }
      await closeRound(db, { roundId: round.round_id, now: opensAt + span - HOUR });
    }
  }
  await database.close();
  console.log(`built ${written} attestations across ${ARTIFACTS} artifacts in ${((Date.now() - began) / 60000).toFixed(1)} min`);
}

if (process.env.BENCH_REBUILD || !existsSync(join(dataDir, 'vigil.db'))) {
  console.log(`building ${ATTESTATIONS} attestations across ${ARTIFACTS} artifacts in ${dataDir} (kept for later runs)`);
  await build();
}

const database = await openDatabase({ dataDir });
const { db } = database;
const count = Number((await db.selectFrom('attestations').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const artifacts = Number((await db.selectFrom('artifacts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const read = createPublicReadService(db);
const now = new Date(NOW);

const time = async (fn, n) => {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return samples;
};
await time(() => read.threatTrends(180, now), 20);
const baseline = await time(() => db.selectFrom('artifacts').select('bundle_hash').where('id', '=', 1 + Math.floor(Math.random() * artifacts)).executeTakeFirst(), 500);
const trends = await time(() => read.threatTrends(180, now), 200);
const trends30 = await time(() => read.threatTrends(30, now), 200);
const dashboard = await time(() => read.networkDashboard(now), 200);

// And over HTTP: each distinct `days` is a cache miss the first time it is asked.
const config = loadConfig({ VIGIL_DATA_DIR: dataDir, VIGIL_RATE_LIMIT_PER_MINUTE: '1000000', VIGIL_ENDPOINT_RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' });
const runtime = await createRuntime(config, { database, clock: () => now.getTime() });
const app = await buildApp(runtime);
await app.listen({ host: '127.0.0.1', port: 0 });
const url = `http://127.0.0.1:${app.server.address().port}`;
const httpMiss = [];
for (let days = 180; days > 100; days--) {
  const t = process.hrtime.bigint();
  const response = await fetch(`${url}/v1/threats/trends?days=${days}`);
  await response.arrayBuffer();
  httpMiss.push(Number(process.hrtime.bigint() - t) / 1e6);
}
await app.close();
await runtime.close();
await database.close();

const line = (name, s) =>
  console.log(`${name.padEnd(44)} p50 ${median(s).toFixed(2).padStart(7)} ms   p99 ${percentile(s, 99).toFixed(2).padStart(7)} ms`);
console.log(`\ndatabase: ${count} attestations across ${artifacts} artifacts (SQLite, ${dataDir})`);
line('baseline: primary-key lookup', baseline);
line('threatTrends(days=180), uncached', trends);
line('threatTrends(days=30), uncached', trends30);
line('networkDashboard, uncached', dashboard);
line('GET /v1/threats/trends?days=N, cache miss', httpMiss);
console.log(`trends(180) / primary-key lookup: ${(median(trends) / median(baseline)).toFixed(1)}×`);
console.log(`median uncached trends(180) ${median(trends).toFixed(2)} ms (target < ${TARGET_MS} ms): ${median(trends) < TARGET_MS ? 'MET' : 'NOT MET'}`);
