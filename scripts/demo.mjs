#!/usr/bin/env node
// `pnpm demo`: a whole Vigil network on this machine, with verdicts produced by agent runs only.
// Starts `vigil-server serve` on a fresh data directory (.demo/), registers the reference agents and
// a weaker miner per track, loads the evaluation samples (labeled) and real npm packages of this
// workspace (live) with `vigil-server artifacts load`, runs two validators with
// `vigil validator run`, closes one round per track and prints what to inspect. Nothing is seeded:
// every verdict comes from an attestation a demo validator signed after running an agent.
/* global fetch */
import { Buffer } from 'node:buffer';
import { fork, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, relative, resolve } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const SERVER_BIN = join(ROOT, 'apps/server/dist/bin.js');
const CLI_BIN = join(ROOT, 'packages/cli/dist/bin.js');
const BUNDLES = join(ROOT, 'packages/reference-agents/dist/bundles');
const WEAK_AGENT = join(ROOT, 'scripts/fixtures/demo-agents/ioc-strings');
// Verdaccio as @vigil/registries' tests start it (a devDependency there, resolved from that file).
const VERDACCIO_CHILD = join(ROOT, 'packages/registries/src/test-support/verdaccio-child.mjs');
const FIXTURE_SAMPLES = join(ROOT, 'scripts/fixtures/demo-samples');
const TRACKS = ['skills', 'mcp_servers', 'packages', 'repositories'];
const VALIDATORS = ['validator-a', 'validator-b'];

const USAGE = `Usage: pnpm demo [--quick] [--exit] [--port N] [--dir DIR] [--corpus DIR] [--between N]

  --quick       a small network: 3 malicious and 3 benign samples per track, 6 live packages
  --exit        stop the server once every track has closed a round (default: keep serving until Ctrl-C)
  --port N      the server's port (default 8080, or a free one when 8080 is taken)
  --dir DIR     where the demo keeps everything, emptied first (default .demo in the repository)
  --corpus DIR  the labeled samples, <DIR>/<track>/<id>/{sample.json,files/} (default packages/reference-agents/eval/corpus)
  --between N   after the rounds close, ask for N more packages one after another and time each
                verdict arriving between rounds (default 1, 0 to skip; the latency benchmark uses it)
`;

function parseArgs(argv) {
  const options = { quick: false, exit: false, port: undefined, dir: join(ROOT, '.demo'), corpus: join(ROOT, 'packages/reference-agents/eval/corpus'), between: 1 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--exit') options.exit = true;
    else if (arg === '--port' && /^\d+$/.test(argv[i + 1] ?? '')) options.port = Number(argv[++i]);
    else if (arg === '--corpus' && argv[i + 1] !== undefined) options.corpus = resolve(argv[++i]);
    else if (arg === '--dir' && argv[i + 1] !== undefined) options.dir = resolve(argv[++i]);
    else if (arg === '--between' && /^\d+$/.test(argv[i + 1] ?? '') && Number(argv[i + 1]) <= 50) options.between = Number(argv[++i]);
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else {
      process.stderr.write(`demo: unknown option ${arg}\n\n${USAGE}`);
      process.exit(2);
    }
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
const DEMO = options.dir;
const DATA = join(DEMO, 'data');
const KEYS = join(DEMO, 'keys');
/** How a path inside the demo directory is shown. */
const MARKER = '.vigil-demo';
const shown = (path) => {
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
};
/** How much of the network to build: quick is what the test runs. */
const SIZE = options.quick
  ? { perLabel: 3, live: 6, submissionS: 10, evaluationS: 600 }
  : { perLabel: 12, live: 30, submissionS: 10, evaluationS: 1800 };
const started = Date.now();

function say(line) {
  const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  process.stdout.write(`[demo ${seconds}s] ${line}\n`);
}

class DemoError extends Error {}

/** Runs a node script to completion; resolves with its output, rejects with it when the exit code is not 0. */
function runNode(script, args, { env = {}, allowFailure = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 || allowFailure) resolve({ code, stdout, stderr });
      else reject(new DemoError(`${relative(ROOT, script)} ${args.join(' ')} exited ${code}:\n${stderr || stdout}`));
    });
  });
}

const vigil = (args, env = {}) => runNode(CLI_BIN, args, { env: { VIGIL_URL: baseUrl, NO_COLOR: '1', ...env } });
let baseUrl = '';
let serverEnv = {};
const vigilServer = (args, opts = {}) => runNode(SERVER_BIN, args, { ...opts, env: serverEnv });

/** The preferred port when it is free, else one the system picks. */
function freePort(preferred) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => {
        const { port: bound } = server.address();
        server.close(() => resolve(bound));
      });
    });
  return tryPort(preferred).then((port) => port ?? tryPort(0));
}

async function getJson(path, token) {
  const response = await fetch(`${baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new DemoError(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

// ---------------------------------------------------------------- artifacts

const shortHash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** `<dir>/<track>/<id>/sample.json` + `files/`, sorted by id; unreadable samples are skipped with a note. */
function samplesOf(dir, track) {
  const trackDir = join(dir, track);
  if (!existsSync(trackDir)) return [];
  const samples = [];
  for (const id of readdirSync(trackDir).sort()) {
    const metaFile = join(trackDir, id, 'sample.json');
    const files = join(trackDir, id, 'files');
    if (!existsSync(metaFile) || !existsSync(files)) continue;
    try {
      const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
      if (meta.label === 'malicious' || meta.label === 'benign') samples.push({ id, track, files, meta });
    } catch (error) {
      say(`skipping ${relative(ROOT, metaFile)}: ${error.message}`);
    }
  }
  return samples;
}

/** Whether `dir` holds a package.json with a string name and version (the loader then names it by its purl). */
function npmPackageNamed(dir) {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return typeof manifest?.name === 'string' && manifest.name !== '' && typeof manifest.version === 'string' && manifest.version !== '';
  } catch {
    return false;
  }
}

/** A sample's manifest entry. Names never say which set a sample is in, so agents see labeled and live artifacts alike. */
function labeledEntry(sample) {
  const groundTruth = sample.meta.label === 'benign' ? 'ALLOW' : ['WARN', 'BLOCK'].includes(sample.meta.expected) ? sample.meta.expected : 'BLOCK';
  const entry = { path: sample.files, track: sample.track, kind: 'labeled', ground_truth: groundTruth };
  // The loader names an npm package by its purl; anything else gets a name here, like an upload's.
  if (npmPackageNamed(sample.files)) return entry;
  const id = shortHash(sample.id);
  if (sample.track !== 'packages') return { ...entry, source_id: `github.com/vigil-demo/${sample.track.replace('_', '-')}-${id}` };
  const python = ['setup.py', 'pyproject.toml', 'PKG-INFO', 'setup.cfg'].some((f) => existsSync(join(sample.files, f)));
  return { ...entry, ...(python ? { label: 'pypi', source_id: `pkg:pypi/sample-${id}@1.0.0` } : { label: 'npm', source_id: `pkg:npm/sample-${id}@1.0.0` }) };
}

/**
 * Per track, up to `perLabel` malicious and `perLabel` benign samples from the corpus; when the corpus
 * has none of a label for a track, the demo's own fixture samples fill in (scoring needs both).
 */
function labeledEntries(corpus, perLabel) {
  const entries = [];
  for (const track of TRACKS) {
    const fromCorpus = samplesOf(corpus, track);
    const fixtures = samplesOf(FIXTURE_SAMPLES, track);
    const sources = new Set();
    let count = 0;
    for (const label of ['malicious', 'benign']) {
      let chosen = fromCorpus.filter((s) => s.meta.label === label);
      sources.add(chosen.length > 0 ? shown(corpus) : shown(FIXTURE_SAMPLES));
      if (chosen.length === 0) chosen = fixtures.filter((s) => s.meta.label === label);
      // Spread over the corpus (ids group by technique), not its first ids only.
      const step = Math.max(1, Math.floor(chosen.length / perLabel));
      const picked = chosen.filter((_, i) => i % step === 0).slice(0, perLabel);
      entries.push(...picked.map(labeledEntry));
      count += picked.length;
    }
    say(`${track}: ${count} labeled samples (from ${[...sources].join(' and ')})`);
  }
  return entries;
}

/** Packages people actually install, preferred when this workspace has them; the rest are filled in by name. */
const PREFERRED = ['esbuild', 'better-sqlite3', 'fastify', 'kysely', 'zod', 'pg', 'ioredis', 'semver', 'yaml', 'js-yaml', 'acorn', 'tar-stream', 'yauzl', 'commander', 'chalk', 'debug', 'ms', 'ws', 'undici', 'picocolors', 'fast-glob', 'minimatch', 'glob', 'yargs', 'uuid', 'lru-cache', 'pino', 'eventemitter3', 'p-limit', 'ajv'];

/**
 * Live packages: real npm packages from this machine, no network. The npm cache's registry tarballs
 * (`~/.npm/_cacache`, stored byte for byte) and the workspace's installed dependencies
 * (`node_modules/.pnpm/<name>@<version>/node_modules/<name>`, packed as npm packs them). Each is
 * published into the demo's local registry, and Vigil fetches it from there as it fetches from
 * npmjs.org (docs/registries.md).
 */
async function liveEntries(count) {
  const entries = [];
  const tarballs = join(DEMO, 'tarballs');
  await mkdir(tarballs, { recursive: true });
  const seen = new Set();
  if (!options.quick) {
    const cache = join(process.env.HOME ?? '', '.npm/_cacache');
    for (const { name, version, file } of npmCacheTarballs(cache)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const out = join(tarballs, `${name.replace('/', '+')}-${version}.tgz`);
      await copyFile(file, out);
      entries.push({ name, version, tgz: out });
    }
  }
  const store = join(ROOT, 'node_modules/.pnpm');
  const installed = existsSync(store)
    ? readdirSync(store)
        .filter((d) => d.includes('@') && !d.startsWith('@vigil'))
        .map((d) => {
          const name = d.startsWith('@') ? `@${d.slice(1).split('@')[0].replace('+', '/')}` : d.split('@')[0];
          return { name, dir: join(store, d, 'node_modules', name) };
        })
        .filter((p) => existsSync(join(p.dir, 'package.json')))
    : [];
  const byName = new Map();
  for (const p of installed) if (!byName.has(p.name)) byName.set(p.name, p);
  const preferred = PREFERRED.filter((n) => byName.has(n)).map((n) => byName.get(n));
  const others = [...byName.values()].filter((p) => !PREFERRED.includes(p.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const p of [...preferred, ...others]) {
    if (entries.length >= count) break;
    if (seen.has(p.name)) continue;
    if (directorySize(p.dir, 4000) > 8 * 1024 * 1024) continue; // keep the demo's analysis quick
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(p.dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    // A private package is never published; a package that names another registry to publish to would go there.
    if (manifest.private === true || manifest.publishConfig?.registry !== undefined || manifest.name !== p.name || typeof manifest.version !== 'string') continue;
    seen.add(p.name);
    entries.push({ name: p.name, version: manifest.version, dir: p.dir });
  }
  return entries.slice(0, count);
}

/** Bytes under `dir` (regular files, following no links), giving up past `maxFiles` files (counted as huge). */
function directorySize(dir, maxFiles) {
  let total = 0;
  let files = 0;
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        files += 1;
        if (files > maxFiles) throw new RangeError('too many files');
        total += statSync(path).size;
      }
    }
  };
  try {
    walk(dir);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  return total;
}

/** Registry tarballs in npm's content cache: index entries keyed by a registry `.tgz` URL, content by sha512. */
function npmCacheTarballs(cache) {
  const index = join(cache, 'index-v5');
  if (!existsSync(index)) return [];
  const found = new Map();
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          const json = line.slice(line.indexOf('\t') + 1);
          let record;
          try {
            record = JSON.parse(json);
          } catch {
            continue;
          }
          const url = /^make-fetch-happen:request-cache:(https:\/\/registry\.npmjs\.org\/.+\.tgz)$/.exec(record?.key ?? '')?.[1];
          const integrity = /^sha512-(.+)$/.exec(record?.integrity ?? '')?.[1];
          if (url === undefined || integrity === undefined || record.size > 16 * 1024 * 1024) continue;
          const hex = Buffer.from(integrity, 'base64').toString('hex');
          const file = join(cache, 'content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
          // https://registry.npmjs.org/<name>/-/<basename>-<version>.tgz (a scope's slash written %2f or /)
          const m = /^https:\/\/registry\.npmjs\.org\/(.+)\/-\/([^/]+)\.tgz$/.exec(url);
          const name = m ? decodeURIComponent(m[1]) : '';
          const base = name.split('/').pop();
          if (!m || !m[2].startsWith(`${base}-`)) continue;
          if (existsSync(file)) found.set(url, { name, version: m[2].slice(base.length + 1), file });
        }
      }
    }
  };
  walk(index);
  return [...found.values()];
}

async function loadArtifacts() {
  const labeled = labeledEntries(options.corpus, SIZE.perLabel);
  const manifest = join(DEMO, 'manifest.json');
  await writeFile(manifest, `${JSON.stringify({ artifacts: labeled }, null, 2)}\n`);
  say(`loading ${labeled.length} labeled samples: vigil-server artifacts load ${shown(manifest)}`);
  const { code, stdout } = await vigilServer(['artifacts', 'load', manifest], { allowFailure: true });
  await writeFile(join(DEMO, 'artifacts-load.log'), stdout);
  const lines = stdout.trim().split('\n');
  say(lines.at(-1));
  for (const line of lines.filter((l) => l.startsWith('failed '))) say(`  ${line}`);
  if (code !== 0 && !lines.some((l) => l.startsWith('added '))) throw new DemoError('no artifact could be loaded');
}

// ---------------------------------------------------------------- the local registry

let registry;

/**
 * A real npm registry on a loopback port (Verdaccio, no uplinks: it serves only what the demo
 * publishes into it with the real `npm publish`). Vigil's server is pointed at it with
 * VIGIL_NPM_REGISTRY_URL, so every live package reaches Vigil the way a package of npmjs.org does.
 */
async function startRegistry() {
  const root = join(DEMO, 'registry');
  await mkdir(join(root, 'storage'), { recursive: true });
  const config = {
    self_path: root,
    storage: join(root, 'storage'),
    auth: { htpasswd: { file: join(root, 'htpasswd'), max_users: 10 } },
    uplinks: {},
    packages: { '@*/*': { access: '$all', publish: '$authenticated' }, '**': { access: '$all', publish: '$authenticated' } },
    max_body_size: '200mb',
    web: { enable: false },
    log: { type: 'stdout', format: 'json', level: 'error' },
  };
  registry = fork(VERDACCIO_CHILD, [JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  registry.stderr.on('data', (chunk) => (stderr += chunk));
  const port = await new Promise((resolve, reject) => {
    registry.once('message', (message) => resolve(message.port));
    registry.once('exit', (code) => reject(new DemoError(`the local registry (Verdaccio) exited ${code}: ${stderr}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const answer = await fetch(`${url}/-/user/org.couchdb.user:demo`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'demo', password: 'vigil-demo-password', type: 'user', roles: [], date: new Date().toISOString() }),
  });
  if (!answer.ok) throw new DemoError(`the local registry refused its demo user: ${answer.status} ${await answer.text()}`);
  const { token } = await answer.json();
  const npmrc = join(root, '.npmrc');
  await writeFile(npmrc, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  const npmEnv = { npm_config_userconfig: npmrc, npm_config_registry: `${url}/`, npm_config_cache: join(root, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
  say(`local npm registry (Verdaccio) at ${url}`);
  return { url, npmEnv };
}

function stopRegistry() {
  if (registry && registry.exitCode === null) registry.kill('SIGTERM');
}

/** Runs npm with the local registry's settings; resolves with stdout. */
function npm(args, env, cwd = DEMO) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new DemoError(`npm ${args.join(' ')} exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}`))));
  });
}

/**
 * Publishes each live package into the local registry (a directory packed first with `npm pack`,
 * no scripts run), two at a time; answers those published, each with its purl and the sha256 of the
 * tarball the registry serves (what Vigil stores once the bytes match the registry's integrity).
 */
async function publishLive(local, entries) {
  const tarballs = join(DEMO, 'tarballs');
  const published = [];
  const queue = [...entries];
  const work = async () => {
    for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
      try {
        let tgz = entry.tgz;
        if (tgz === undefined) {
          const packed = JSON.parse(await npm(['pack', entry.dir, '--pack-destination', tarballs, '--ignore-scripts', '--json'], local.npmEnv));
          tgz = join(tarballs, packed[0].filename);
        }
        // A tag of its own: npm refuses a prerelease without one, and `latest` is not the point here.
        await npm(['publish', tgz, '--ignore-scripts', '--tag', 'demo', '--provenance=false'], local.npmEnv);
        const sha256 = `sha256:${createHash('sha256').update(await readFile(tgz)).digest('hex')}`;
        published.push({ ...entry, tgz, sha256, purl: `npm:${entry.name}@${entry.version}` });
      } catch (error) {
        say(`  not published: ${entry.name}@${entry.version}: ${error.message}`);
      }
    }
  };
  await Promise.all([work(), work()]);
  // In the order asked for, whatever order the two workers finished in.
  return entries.flatMap((e) => published.filter((p) => p.name === e.name && p.version === e.version));
}

async function postJson(path, token, body) {
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new DemoError(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * Asks Vigil about the live packages (`POST /v1/artifacts/verify/batch`): each is unseen, so Vigil
 * queues a fetch from the local registry, checks the bytes against the packument's integrity and
 * stores them as a live artifact. Waits until every one is stored (`fetch.state`
 * `queued_for_evaluation`) or has failed, at most 2 minutes.
 */
async function fetchLive(token, live) {
  const refs = live.map((p) => p.purl);
  say(`asking Vigil about ${refs.length} live packages: POST /v1/artifacts/verify/batch; it fetches each from the local registry`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { results } = await postJson('/v1/artifacts/verify/batch', token, { artifacts: refs });
    const states = results.map((r) => r.fetch?.state ?? r.state);
    const failed = results.filter((r) => r.fetch?.state === 'failed');
    if (states.every((s) => s === 'queued_for_evaluation' || s === 'failed' || s === 'decided')) {
      for (const r of failed) say(`  fetch failed: ${r.artifact}: ${r.fetch.reason}`);
      // Each under the canonical purl Vigil answers with (`pkg:npm/%40scope/name@…`).
      const stored = live.flatMap((p, i) => (states[i] === 'failed' ? [] : [{ ...p, purl: results[i].artifact }]));
      say(`${stored.length} of ${live.length} live packages fetched and stored`);
      if (stored.length === 0) throw new DemoError('no live package could be fetched from the local registry: see server.log');
      return stored;
    }
    if (Date.now() > deadline) throw new DemoError(`the live packages were not all fetched within 2 minutes (${states.join(', ')}): see server.log`);
    await sleep(500);
  }
}

// ---------------------------------------------------------------- keys, miners, validators

async function keygen(name) {
  const out = join(KEYS, `${name}.json`);
  const { stdout } = await vigil(['keygen', '--out', out, '--json']);
  return { name, keyfile: out, hotkey: JSON.parse(stdout).hotkey };
}

async function registerMiners(miners) {
  const agents = [];
  await Promise.all(
    TRACKS.map(async (track) => {
      // The reference agent as @vigil/reference-agents built it (`miner submit --reference`), and the weaker ioc-strings agent's directory.
      const reference = existsSync(join(BUNDLES, `${track}.bundle.json`));
      const plan = [
        reference && { key: miners[`reference-${track}`], name: `vigil-reference-${track}`, submit: ['--reference', track, '--provider', 'vigil'] },
        { key: miners[`ioc-strings-${track}`], name: 'ioc-strings', submit: [WEAK_AGENT, '--track', track, '--entrypoint', 'agent.mjs', '--provider', 'none'] },
      ].filter(Boolean);
      if (!reference) say(`${track}: no reference agent bundle (${shown(BUNDLES)}/${track}.bundle.json); build @vigil/reference-agents to add it`);
      await Promise.all(
        plan.map(async (agent) => {
          const signed = ['--keyfile', agent.key.keyfile];
          await vigil(['miner', 'register', '--track', track, ...signed]);
          await vigil(['miner', 'submit', ...agent.submit, '--name', agent.name, ...signed]);
          agents.push({ track, name: agent.name, hotkey: agent.key.hotkey });
        }),
      );
    }),
  );
  for (const track of TRACKS) say(`${track}: miners ${agents.filter((a) => a.track === track).map((a) => a.name).join(', ')}`);
  return agents;
}

/**
 * The validators' work: each registers its allowlist, then `vigil validator run` claims tasks,
 * downloads artifacts and agents, runs each agent in the sandbox and submits signed attestations,
 * until nothing is left to claim.
 */
async function runValidators(validators, { untilStopped = false } = {}) {
  const help = await runNode(CLI_BIN, ['validator', 'run', '--help'], { allowFailure: true });
  if (help.code !== 0 || !help.stdout.includes('--exit-when-idle')) {
    throw new DemoError('this build of the vigil CLI has no `vigil validator run --exit-when-idle`: the demo needs it to produce verdicts (build the workspace from a branch that has it)');
  }
  if (!untilStopped) {
    await Promise.all(validators.map((v) => vigil(['validator', 'register', '--allowed-ip', '127.0.0.1', '--keyfile', v.keyfile])));
    say(`validators ${validators.map((v) => v.name).join(' and ')} registered; running every task (logs in ${shown(join(DEMO, validators[0].name))}.log, …)`);
  }
  const children = [];
  const done = Promise.all(
    validators.map(
      (v) =>
        new Promise((resolve, reject) => {
          const log = createWriteStream(join(DEMO, `${v.name}.log`), { flags: 'a' });
          const idle = untilStopped ? [] : ['--exit-when-idle'];
          const child = spawn(process.execPath, [CLI_BIN, 'validator', 'run', ...idle, '--concurrency', '2', '--poll-interval', '1', '--work-dir', join(DEMO, 'work', v.name), '--keyfile', v.keyfile], {
            cwd: ROOT,
            env: { ...process.env, VIGIL_URL: baseUrl, NO_COLOR: '1' },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          children.push(child);
          child.stdout.pipe(log, { end: false });
          child.stderr.pipe(log, { end: false });
          child.on('error', reject);
          child.on('close', (code) => {
            log.end();
            // What it attested before it stopped stands; the rounds still close and say what they got.
            if (code !== 0 && !(untilStopped && code === null)) say(`warning: vigil validator run (${v.name}) exited ${code}: see ${shown(join(DEMO, v.name))}.log`);
            resolve();
          });
        }),
    ),
  );
  if (!untilStopped) return done;
  // Running until told: SIGTERM makes each finish or release what it holds and send what it signed.
  return { stop: () => (children.forEach((c) => c.exitCode === null && c.kill('SIGTERM')), done) };
}

/**
 * Verdicts between rounds (docs/rounds.md): the rounds are closed and the next opens a day later.
 * Each held-back package is asked for once it is alone: Vigil fetches it from the local registry,
 * the last rounds' winners get fast tasks for it, the validators (running, polling every second)
 * run them, and the verdict is published with no round closing. Times each, from the first
 * `POST /v1/artifacts/verify` to the answer that is `decided`.
 */
async function betweenRounds(token, validators, packages) {
  if (packages.length === 0) return [];
  const roundsBefore = (await getJson('/v1/rounds?limit=20')).rounds.length;
  say(`between rounds: the validators keep running; asking for ${packages.length} package(s) Vigil has never seen, one at a time`);
  const running = await runValidators(validators, { untilStopped: true });
  const timed = [];
  try {
    for (const p of packages) {
      const asked = Date.now();
      let fetchedAt = null;
      let answer;
      for (;;) {
        answer = await postJson('/v1/artifacts/verify', token, { artifact: p.purl });
        if (fetchedAt === null && (answer.fetch?.state === 'queued_for_evaluation' || answer.state === 'decided')) fetchedAt = Date.now();
        if (answer.state === 'decided' || answer.fetch?.state === 'failed') break;
        if (Date.now() - asked > 600_000) throw new DemoError(`${p.purl}: no verdict within 10 minutes of asking: see server.log and the validators' logs`);
        await sleep(500);
      }
      if (answer.state !== 'decided') {
        say(`  ${p.purl}: fetch failed: ${answer.fetch.reason}`);
        continue;
      }
      const seconds = (Date.now() - asked) / 1000;
      timed.push({ purl: answer.artifact, sha256: answer.sha256, tarball: p.tgz, verdict: answer.verdict, round_id: answer.round_id, fetched_s: (fetchedAt - asked) / 1000, decided_s: seconds });
      say(`  ${answer.artifact}: ${answer.verdict} ${seconds.toFixed(1)} s after it was asked for (stored ${((fetchedAt - asked) / 1000).toFixed(1)} s in; decided by the winners of round ${answer.round_id})`);
    }
  } finally {
    await running.stop();
  }
  const roundsAfter = (await getJson('/v1/rounds?limit=20')).rounds.length;
  say(`between rounds: ${timed.length} verdict(s) published, ${roundsAfter - roundsBefore} round(s) closed meanwhile`);
  return timed;
}

// ---------------------------------------------------------------- the server and its rounds

let server;

/** `vigil-server serve`; with `scheduler` false it opens no round (the miners register first). */
async function startServer(port, scheduler) {
  const log = createWriteStream(join(DEMO, 'server.log'), { flags: 'a' });
  const env = { ...process.env, ...serverEnv, PORT: String(port), VIGIL_SCHEDULER: String(scheduler) };
  server = spawn(process.execPath, [SERVER_BIN, 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  const exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
  for (let i = 0; i < 150; i++) {
    const code = await Promise.race([exited, sleep(200).then(() => undefined)]);
    if (code !== undefined) throw new DemoError(`vigil-server serve exited ${code}: see ${shown(join(DEMO, 'server.log'))}`);
    try {
      if ((await fetch(`${baseUrl}/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
  }
  throw new DemoError(`vigil-server serve did not answer /v1/health within 30 s: see ${shown(join(DEMO, 'server.log'))}`);
}

async function stopServer() {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/**
 * Waits until every track's round has left its submission phase. `/v1/rounds/status` is cached for
 * 30 s, so the wait is computed from the deadlines it shows (fixed when a round opens) and the
 * scheduler's 1-second step; the phases are printed as the status shows them.
 */
async function waitForEvaluation() {
  let status;
  for (let i = 0; i < 60; i++) {
    status = await getJson('/v1/rounds/status');
    if (TRACKS.every((t) => status.tracks.some((r) => r.track === t && r.status === 'open'))) break;
    await sleep(1000);
  }
  const rounds = TRACKS.map((t) => status.tracks.find((r) => r.track === t && r.status === 'open'));
  if (rounds.some((r) => r === undefined)) throw new DemoError(`the scheduler opened no round for some track within 60 s: see ${shown(join(DEMO, 'server.log'))}`);
  for (const round of rounds) say(`${round.track}: round ${round.round_number} ${round.phase}${round.phase === 'submission' ? ` until ${round.submission_closes_at} UTC` : ''}`);
  const last = Math.max(...rounds.map((r) => Date.parse(`${r.submission_closes_at}Z`)));
  // Two scheduler steps after the last deadline, every round has frozen its agents and made its tasks.
  const wait = last + 2500 - Date.now();
  if (wait > 0) {
    say(`waiting ${Math.ceil(wait / 1000)} s for submissions to close`);
    await sleep(wait);
  }
  say('submissions closed: every round is evaluating');
  return rounds;
}

/** Closes the demo's rounds now (the validators have nothing left to do), through the admin API. */
async function closeRounds(rounds, adminToken) {
  const closed = [];
  for (const round of rounds) {
    const response = await fetch(`${baseUrl}/v1/admin/rounds/${round.round_id}/close`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ force: true }),
    });
    if (!response.ok) throw new DemoError(`closing round ${round.round_id}: ${response.status} ${await response.text()}`);
    closed.push(await response.json());
    say(`${round.track}: round ${round.round_number} closed`);
  }
  return closed;
}

async function summarize(token, live0, between, validators, miners) {
  const rounds = (await getJson('/v1/rounds?limit=20')).rounds;
  const leaderboard = await getJson('/v1/leaderboard');
  const live = [];
  for (const artifact of live0) {
    const found = (await getJson(`/v1/artifacts?sha256=${artifact.sha256}`, token)).artifacts[0];
    live.push({ purl: artifact.purl, sha256: artifact.sha256, id: found?.id ?? null, state: found?.state ?? null, verdict: found?.verdict?.verdict ?? null, risk_score: found?.verdict?.risk_score ?? null });
  }
  say('');
  for (const track of TRACKS) {
    const round = rounds.find((r) => r.track === track);
    if (!round) continue;
    const winners = round.winners.map((w) => `${w.name} ${w.score.toFixed(2)}`).join(', ') || 'none (no agent scored above 0)';
    say(`${track}: round ${round.round_number} closed; miners: ${round.miners}; winners: ${winners}`);
  }
  const decided = live.filter((a) => a.verdict !== null);
  const mix = ['ALLOW', 'WARN', 'BLOCK'].map((v) => `${decided.filter((a) => a.verdict === v).length} ${v}`).join(', ');
  say(`live packages: ${decided.length} of ${live.length} have a published verdict (${mix})`);
  const latency = between.map((b) => b.decided_s).sort((a, b) => a - b);
  const pick = (q) => (latency.length === 0 ? null : latency[Math.min(latency.length - 1, Math.ceil(q * latency.length) - 1)]);
  if (latency.length > 0) say(`between rounds: ${latency.length} verdict(s), ask to verdict median ${pick(0.5).toFixed(1)} s, p95 ${pick(0.95).toFixed(1)} s`);
  const summary = {
    base_url: baseUrl,
    token,
    validators,
    miners,
    rounds,
    leaderboard: leaderboard.rows,
    live,
    between_rounds: { packages: between, median_s: pick(0.5), p95_s: pick(0.95) },
  };
  await writeFile(join(DEMO, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const example = decided.find((a) => a.verdict !== 'ALLOW') ?? decided[0];
  const packagesRound = rounds.find((r) => r.track === 'packages');
  process.stdout.write(`
${
  options.exit
    ? `Vigil ran at ${baseUrl} and stops now (--exit); its data stays in ${shown(DATA)}. To look around, run
pnpm demo without --exit (it keeps serving until Ctrl-C) and use:`
    : `Vigil is running at ${baseUrl} with real verdicts. Look around:`
}

  dashboard      ${baseUrl}/
  leaderboard    VIGIL_URL=${baseUrl} pnpm vigil leaderboard --track packages
  rounds         VIGIL_URL=${baseUrl} pnpm vigil rounds
  round status   curl -s ${baseUrl}/v1/rounds/status
${packagesRound ? `  scores         curl -s ${baseUrl}/v1/rounds/${packagesRound.round_id}/scores\n` : ''}  network        curl -s ${baseUrl}/v1/dashboard/network
  trends         curl -s '${baseUrl}/v1/threats/trends?days=1'
  a verdict      curl -s -H 'Authorization: Bearer ${token}' '${baseUrl}/v1/artifacts?sha256=${example?.sha256 ?? '<sha256>'}'
  attestations   VIGIL_URL=${baseUrl} VIGIL_API_TOKEN=${token} pnpm vigil attestations list

The token above is a demo key (scopes read, verify, admin) of the account vigil-demo; everything
the demo did is in ${shown(DEMO)}/ (summary.json, manifest.json, server.log, the validators' logs).
`);
}

// ---------------------------------------------------------------- main

async function main() {
  for (const [file, what] of [[SERVER_BIN, 'the server'], [CLI_BIN, 'the CLI']]) {
    if (!existsSync(file)) throw new DemoError(`${relative(ROOT, file)} is missing: run pnpm build first (${what})`);
  }
  // Always a fresh network: the demo's rounds, keys and verdicts start from nothing each run.
  // A directory the demo did not make is never emptied: it must be new, empty, or carry the marker.
  if (existsSync(DEMO) && readdirSync(DEMO).length > 0 && !existsSync(join(DEMO, MARKER))) {
    throw new DemoError(`${shown(DEMO)} exists and was not made by the demo (no ${MARKER} in it); choose another --dir`);
  }
  await rm(DEMO, { recursive: true, force: true });
  await mkdir(KEYS, { recursive: true });
  await writeFile(join(DEMO, MARKER), 'made by scripts/demo.mjs: emptied by each run\n');
  await mkdir(DATA, { recursive: true });
  const port = await freePort(options.port ?? 8080);
  baseUrl = `http://127.0.0.1:${port}`;

  const validators = await Promise.all(VALIDATORS.map(keygen));
  const minerKeys = Object.fromEntries(
    await Promise.all(TRACKS.flatMap((t) => [`reference-${t}`, `ioc-strings-${t}`]).map(async (name) => [name, await keygen(name)])),
  );
  // The validators' permits: the snapshot the server reads by default (docs/metagraph.md).
  await writeFile(
    join(DATA, 'metagraph.json'),
    `${JSON.stringify({ netuid: 76, block: 1, taken_at: new Date().toISOString(), neurons: validators.map((v, uid) => ({ uid, hotkey: v.hotkey, validator_permit: true })) }, null, 2)}\n`,
  );
  say(`generated hotkeys for 2 validators and ${Object.keys(minerKeys).length} miners (${shown(KEYS)}); the validators' permits are in ${shown(join(DATA, 'metagraph.json'))}`);

  serverEnv = {
    VIGIL_DATA_DIR: DATA,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    VIGIL_ADMIN_ALLOWLIST: '127.0.0.1,::1',
    VIGIL_ROUND_SUBMISSION_S: String(SIZE.submissionS),
    VIGIL_ROUND_EVALUATION_S: String(SIZE.evaluationS),
    VIGIL_ROUND_GAP_S: '86400',
    VIGIL_SCHEDULER_INTERVAL_S: '1',
    // Every loaded artifact goes into the first round.
    VIGIL_ROUND_ARTIFACTS: `${2 * SIZE.perLabel}+${SIZE.live}`,
    VIGIL_RATE_LIMIT_PER_MINUTE: '100000',
    VIGIL_ENDPOINT_RATE_LIMIT_PER_MINUTE: '10000',
  };
  await loadArtifacts();
  const local = await startRegistry();
  serverEnv.VIGIL_REGISTRY_FETCH = 'true';
  serverEnv.VIGIL_NPM_REGISTRY_URL = local.url;
  serverEnv.VIGIL_REGISTRY_POLL_S = '1';
  // A few more than needed: `npm pack` fails on some installed directories ("Exit handler never called").
  const candidates = await liveEntries(SIZE.live + options.between + 4);
  const published = await publishLive(local, candidates);
  const heldBack = published.slice(Math.max(1, published.length - options.between));
  const live = published.slice(0, Math.min(SIZE.live, published.length - heldBack.length));
  say(`published ${published.length} npm packages into the local registry: ${live.length} for the rounds, ${heldBack.length} held back to be asked for between rounds`);
  const keyLines = (await vigilServer(['keys', 'create', '--org', 'vigil-demo', '--scopes', 'read,verify,admin', '--plan', 'paid', '--name', 'demo'])).stdout;
  const token = keyLines.split('\n').find((l) => l.startsWith('vgl_'));
  if (!token) throw new DemoError(`vigil-server keys create printed no token:\n${keyLines}`);

  say(`starting vigil-server serve at ${baseUrl} (data in ${shown(DATA)}, log in ${shown(join(DEMO, 'server.log'))})`);
  // The miners register and submit before any round opens, so however long that takes, the first
  // round of every track freezes their agents: the scheduler starts with the second serve.
  await startServer(port, false);
  const miners = await registerMiners(minerKeys);
  const stored = await fetchLive(token, live);
  await stopServer();
  say(`restarting vigil-server serve with the scheduler: rounds of ${SIZE.submissionS} s of submissions`);
  await startServer(port, true);
  const rounds = await waitForEvaluation();
  const validatorStart = Date.now();
  await runValidators(validators);
  say(`validators idle after ${((Date.now() - validatorStart) / 1000).toFixed(0)} s`);
  await closeRounds(rounds, token);
  const between = await betweenRounds(token, validators, heldBack);
  await summarize(token, stored, between, validators.map(({ name, hotkey }) => ({ name, hotkey })), miners);

  if (options.exit) {
    await stopServer();
    stopRegistry();
    say('stopped (--exit)');
    return;
  }
  say('serving until Ctrl-C');
  await new Promise((resolve) => {
    const stop = () => void stopServer().then(() => (stopRegistry(), resolve()));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  say('stopped');
}

main().catch(async (error) => {
  process.stderr.write(`demo: ${error instanceof DemoError ? error.message : error.stack}\n`);
  await stopServer().catch(() => {});
  stopRegistry();
  process.exit(1);
});
