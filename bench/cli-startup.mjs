// Start-up cost of the command lines and of importing the SDK, in CPU time (user + system) of the
// child process, as ratios against a bare `node -e 0` measured in the same run (docs/benchmarks.md,
// "Command-line start-up"). Cases run in turn, round after round (alternating with the baseline),
// and each ratio is of medians. Targets: `vigil --version` ≤ 2×, a public read ≤ 3×,
// `vigil-server help` ≤ 2×.
//
// The CPU time is the child's own `process.cpuUsage()`, read at its 'exit' event by a preload
// (`--import`) and written to fd 3: every case, the baseline included, carries the same preload.
//
// BENCH_REPEATS (default 15) rounds.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const repeats = Number(process.env.BENCH_REPEATS ?? 15);
const cli = `${root}packages/cli/dist/bin.js`;
const server = `${root}apps/server/dist/bin.js`;
const client = `${root}packages/client/dist/index.js`;

const PRELOAD = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => { const u = process.cpuUsage(); try { writeSync(3, JSON.stringify(u)); } catch {} });",
)}`;

/** The CPU time in ms of one `node <args>` run, and its exit code. */
function cpuOf(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PRELOAD, ...args], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
    let usage = '';
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdio[3].on('data', (chunk) => (usage += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (usage === '') return reject(new Error(`node ${args.join(' ')}: no CPU figure (exit ${code}): ${err}`));
      const { user, system } = JSON.parse(usage);
      resolve({ ms: (user + system) / 1000, code, err });
    });
  });
}

// A stand-in for a server's public read: the network dashboard as the API answers it.
const NETWORK = {
  validators: { total: 3, active: 2 },
  miners: { total: 5 },
  agents: { total: 4, by_track: { skills: 1, mcp_servers: 1, packages: 1, repositories: 1 } },
  attestations: 120,
  tasks_24h: 12,
  reruns_24h: 1,
  throughput: Array.from({ length: 24 }, (_, i) => i % 5),
  verdicts: { ALLOW: 100, WARN: 15, BLOCK: 5 },
  track_mix: [{ label: 'skills', value: 1 }],
  last_update: '2026-11-24T10:00:00.000000+00:00',
};
const stand = createServer((req, res) => {
  if (req.url === '/v1/dashboard/network') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(NETWORK));
  } else {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"detail":"not found"}');
  }
});
await new Promise((resolve) => stand.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${stand.address().port}`;
// No profile file is read from the user's home.
const home = { HOME: '/nonexistent', XDG_CONFIG_HOME: '' };
// `vigil-server migrate` on a SQLite database already up to date (the first, uncounted run
// migrates it): a command that loads the whole server and does little, as the bundle
// (dist/bundle/main.js, what `vigil-server` runs) and as the modules tsc wrote (dist/main.js).
const serverData = { VIGIL_DATA_DIR: mkdtempSync(join(tmpdir(), 'vigil-startup-')), VIGIL_REGISTRY_FETCH: 'false' };
const serverModules = `${root}apps/server/dist/main.js`;

const cases = [
  { name: 'node -e 0 (baseline)', args: ['-e', '0'] },
  { name: 'vigil --version', args: [cli, '--version'], env: home, target: 2 },
  { name: 'vigil --help', args: [cli, '--help'], env: home },
  { name: 'vigil network (public read)', args: [cli, '--base-url', baseUrl, 'network'], env: home, target: 3 },
  { name: "import('@vigil/client')", args: ['--input-type=module', '-e', `await import(${JSON.stringify(client)})`] },
  { name: 'vigil-server help', args: [server, 'help'], target: 2 },
  { name: 'vigil-server migrate', args: [server, 'migrate'], env: serverData },
  { name: 'the same, tsc modules', args: ['--input-type=module', '-e', `await (await import(${JSON.stringify(serverModules)})).runCommand(['migrate'])`], env: serverData },
];

// A first run of each, not counted: it fills the file cache, and says early when a case fails.
for (const c of cases) {
  const r = await cpuOf(c.args, c.env);
  if (r.code !== 0) throw new Error(`${c.name}: exit ${r.code}: ${r.err}`);
}
const times = cases.map(() => []);
for (let round = 0; round < repeats; round++) {
  for (let i = 1; i < cases.length; i++) {
    // The baseline before every case: alternating runs see the same load.
    times[0].push((await cpuOf(cases[0].args, cases[0].env)).ms);
    times[i].push((await cpuOf(cases[i].args, cases[i].env)).ms);
  }
}
stand.close();
rmSync(serverData.VIGIL_DATA_DIR, { recursive: true, force: true });

const base = median(times[0]);
console.log(`CPU time (user + system) of the child, median of ${repeats} rounds; ratio to node -e 0 of the same run`);
console.log(`${'case'.padEnd(32)} ${'CPU ms'.padStart(8)} ${'ratio'.padStart(7)}  target`);
let missed = 0;
cases.forEach((c, i) => {
  const ms = median(times[i]);
  const ratio = ms / base;
  const verdict = c.target === undefined ? '' : `≤ ${c.target}× ${ratio <= c.target ? 'met' : 'MISSED'}`;
  if (c.target !== undefined && ratio > c.target) missed++;
  console.log(`${c.name.padEnd(32)} ${ms.toFixed(0).padStart(8)} ${`${ratio.toFixed(2)}×`.padStart(7)}  ${verdict}`);
});
process.exitCode = missed > 0 ? 1 : 0;
