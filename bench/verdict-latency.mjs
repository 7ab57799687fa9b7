// Verdicts between rounds (issue 26, docs/rounds.md "Verdicts between rounds"): from the first
// `POST /v1/artifacts/verify` of an npm package Vigil has never seen to the answer that is
// `decided`, on the demo network (`pnpm demo --quick --exit --between N`: 2 validators running the
// reference agents, the package served by a local Verdaccio, the rounds closed and the next a day
// away). Target: median under 60 s, p95 under 3 minutes on 2 idle cores.
//
// The baseline, in the same run: `vigil scan` of the same tarballs, the same reference agent run
// once on this machine with no server, no fetch and no second validator. The ratio says how much
// the network (fetch, fast tasks, claims, two validators, the verify cache) adds to the analysis.
//
//   node bench/verdict-latency.mjs           BENCH_PACKAGES=10 (packages asked for between rounds, one at a time)
import { spawn } from 'node:child_process';
import { readFile, rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = Number(process.env.BENCH_PACKAGES ?? 10);

function run(args) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output, seconds: (Date.now() - started) / 1000 }));
  });
}

function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

const dir = await mkdtemp(join(tmpdir(), 'vigil-latency-'));
try {
  process.stdout.write(`pnpm demo --quick --exit --between ${PACKAGES} (about 3 minutes plus the packages)\n`);
  const demo = await run([join(ROOT, 'scripts/demo.mjs'), '--quick', '--exit', '--between', String(PACKAGES), '--port', '0', '--dir', join(dir, 'demo')]);
  if (demo.code !== 0) throw new Error(`the demo failed (exit ${demo.code}):\n${demo.output.split('\n').slice(-15).join('\n')}`);
  const summary = JSON.parse(await readFile(join(dir, 'demo', 'summary.json'), 'utf8'));
  const timed = summary.between_rounds.packages;
  if (timed.length === 0) throw new Error('no package was decided between rounds');
  const scans = [];
  for (const p of timed) {
    const scan = await run([join(ROOT, 'packages/cli/dist/bin.js'), 'scan', p.tarball, '--track', 'packages', '--json']);
    if (scan.code !== 0 && scan.code !== 4 && scan.code !== 5) throw new Error(`vigil scan ${p.tarball} exited ${scan.code}:\n${scan.output}`);
    scans.push(scan.seconds);
    process.stdout.write(`  ${p.purl.padEnd(40)} ${p.verdict.padEnd(5)}  asked→stored ${p.fetched_s.toFixed(1).padStart(5)} s  asked→verdict ${p.decided_s.toFixed(1).padStart(5)} s  vigil scan ${scan.seconds.toFixed(1).padStart(5)} s\n`);
  }
  const latencies = timed.map((p) => p.decided_s);
  const median = percentile(latencies, 0.5);
  const p95 = percentile(latencies, 0.95);
  const scanMedian = percentile(scans, 0.5);
  process.stdout.write(`\n${timed.length} packages: asked→verdict median ${median.toFixed(1)} s (target < 60 s: ${median < 60 ? 'met' : 'MISSED'}), p95 ${p95.toFixed(1)} s (target < 180 s: ${p95 < 180 ? 'met' : 'MISSED'})\n`);
  process.stdout.write(`baseline vigil scan median ${scanMedian.toFixed(1)} s; ratio median latency / median scan: ${(median / scanMedian).toFixed(2)}\n`);
  if (median >= 60 || p95 >= 180) process.exitCode = 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
