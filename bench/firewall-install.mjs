// The registry firewall's cost on a real install: `npm install` of a project with BENCH_PACKAGES
// dependencies from a warm local Verdaccio, directly and through @vigil/firewall asking a real Vigil
// server (the built `vigil-server`, its own SQLite database), in the same run. Three sides, runs
// interleaved (direct, cached, cold, direct, …), each side's median wall time compared:
//
//   direct   npm → Verdaccio
//   cached   npm → firewall → Verdaccio, the firewall's verdict cache already holding every answer
//            (the same firewall for every run, warmed by one unmeasured install)
//   cold     npm → firewall → Verdaccio, a new firewall per run: every packument's versions looked
//            up in Vigil (POST /v1/artifacts/verify/batch) during the install
//
// Targets (issue 27): cached ≤ 1.15 × direct, cold ≤ 1.40 × direct.
//
//   node firewall-install.mjs                   BENCH_PACKAGES=300 (the project size)
//
// BENCH_PACKAGES (300), BENCH_RUNS (3 per side). Every install starts from nothing (no
// node_modules, no lockfile, an empty npm cache: a cached tarball would never reach the firewall).
// The server fetches nothing (VIGIL_REGISTRY_FETCH=false), so every answer is `pending` and the
// firewall runs `fail-open`; a lookup costs the same whatever the answer, and `pendingCacheSeconds`
// keeps the cached side's answers for the whole run.
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startFirewall } from '@vigil/firewall';
import { median, startVerdaccio, tarGz } from './local-registry.mjs';

const PACKAGES = Number(process.env.BENCH_PACKAGES ?? 300);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const run = promisify(execFile);
const SERVER_BIN = fileURLToPath(new URL('../apps/server/dist/bin.js', import.meta.url));

/** Publishes bench-fw-<i>@1.0.0 (two versions each, so packuments are lists) through Verdaccio's publish API. */
async function publishAll(url) {
  const user = await fetch(`${url}/-/user/org.couchdb.user:bench`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', password: 'bench-password', type: 'user', roles: [] }),
  });
  const { token } = await user.json();
  const names = Array.from({ length: PACKAGES }, (_, i) => `bench-fw-${i}`);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++];
      for (const version of ['0.9.0', '1.0.0']) {
        const tgz = tarGz({ 'package/package.json': JSON.stringify({ name, version }), 'package/index.js': `module.exports = ${JSON.stringify(randomBytes(4096).toString('base64'))};\n` });
        const body = {
          _id: name,
          name,
          'dist-tags': { latest: version },
          versions: { [version]: { name, version, _id: `${name}@${version}`, dist: { tarball: `${url}/${name}/-/${name}-${version}.tgz`, integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`, shasum: createHash('sha1').update(tgz).digest('hex') } } },
          _attachments: { [`${name}-${version}.tgz`]: { content_type: 'application/octet-stream', data: tgz.toString('base64'), length: tgz.length } },
        };
        const answer = await fetch(`${url}/${name}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
        if (!answer.ok) throw new Error(`publish ${name}@${version}: ${answer.status} ${await answer.text()}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return names;
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The built vigil-server on a temporary database, with a paid organization key, as an operator starts it. */
async function startVigil(root) {
  const env = { PATH: process.env.PATH ?? '', VIGIL_DATA_DIR: join(root, 'vigil'), LOG_LEVEL: 'warn', VIGIL_REGISTRY_FETCH: 'false' };
  const created = await run(process.execPath, [SERVER_BIN, 'keys', 'create', '--org', 'bench', '--plan', 'paid', '--scopes', 'read,verify'], { cwd: root, env });
  const key = created.stdout.split('\n').find((line) => line.startsWith('vgl_')).trim();
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_BIN, 'serve'], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', VIGIL_RATE_LIMIT_PER_MINUTE: '10000000', VIGIL_ENDPOINT_RATE_LIMIT_PER_MINUTE: '10000000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${url}/v1/health`).then((r) => r.ok, () => false)) break;
    if (i > 600) throw new Error('vigil-server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, key, stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }) };
}

async function install(project, registry) {
  await rm(join(project, 'node_modules'), { recursive: true, force: true });
  await rm(join(project, 'package-lock.json'), { force: true });
  const cache = await mkdtemp(join(tmpdir(), 'vigil-bench-fw-cache-'));
  const started = performance.now();
  await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-online', '--loglevel=error'], {
    cwd: project,
    env: { ...process.env, npm_config_registry: `${registry}/`, npm_config_cache: cache, npm_config_userconfig: join(project, '.npmrc-none'), npm_config_update_notifier: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  await rm(cache, { recursive: true, force: true });
  return ms;
}

const root = await mkdtemp(join(tmpdir(), 'vigil-bench-firewall-'));
const verdaccio = await startVerdaccio(join(root, 'verdaccio'));
const vigil = await startVigil(root);
const firewalls = [];
try {
  const names = await publishAll(verdaccio.url);
  const project = join(root, 'project');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'bench-app', version: '1.0.0', private: true, dependencies: Object.fromEntries(names.map((n) => [n, '^1.0.0'])) }));
  const options = { npmUpstream: verdaccio.url, vigilUrl: vigil.url, apiKey: vigil.key, mode: 'fail-open' };
  const cachedFirewall = await startFirewall({ ...options, cacheSeconds: 3600, pendingCacheSeconds: 3600 });
  firewalls.push(cachedFirewall);
  console.log(`${names.length} dependencies (2 versions each), ${RUNS} runs per side, each install from an empty npm cache`);
  // Unmeasured: warms Verdaccio, npm and the cached side's verdict cache.
  await install(project, verdaccio.url);
  await install(project, cachedFirewall.url);
  const direct = [];
  const cached = [];
  const cold = [];
  const coldCalls = [];
  for (let i = 0; i < RUNS; i++) {
    direct.push(await install(project, verdaccio.url));
    const before = cachedFirewall.vigilCalls();
    cached.push(await install(project, cachedFirewall.url));
    if (cachedFirewall.vigilCalls() !== before) throw new Error('the cached side asked Vigil');
    const fresh = await startFirewall(options);
    firewalls.push(fresh);
    cold.push(await install(project, fresh.url));
    coldCalls.push(fresh.vigilCalls());
    await fresh.close();
  }
  const d = median(direct);
  const c = median(cached);
  const k = median(cold);
  const list = (values) => values.map((v) => v.toFixed(0)).join(', ');
  console.log(`direct: median ${d.toFixed(0)} ms  [${list(direct)}]`);
  console.log(`cached: median ${c.toFixed(0)} ms  [${list(cached)}], 0 calls to Vigil`);
  console.log(`cold:   median ${k.toFixed(0)} ms  [${list(cold)}], ${median(coldCalls)} calls to Vigil for ${names.length * 2} versions`);
  console.log(`ratio cached / direct: ${(c / d).toFixed(2)}  (target ≤ 1.15)`);
  console.log(`ratio cold / direct:   ${(k / d).toFixed(2)}  (target ≤ 1.40)`);
} finally {
  for (const fw of firewalls) await fw.close().catch(() => {});
  await vigil.stop();
  await verdaccio.stop();
  await rm(root, { recursive: true, force: true });
}
