// Registry ingestion: N tarballs fetched from a local Verdaccio through @vigil/registries (packument,
// tarball streamed with sha512 and sha1, checked against dist.integrity and dist.shasum, package.json
// read for the track) against a plain raw-HTTP download of the same packuments and tarballs at the
// same concurrency in the same run, with no check at all. Runs alternate (connector, raw, connector,
// raw…) and each side's median wall time is compared. Target (issue 26): ratio ≥ 0.7.
//
//   node registry-ingest.mjs                    BENCH_PACKAGES=100 (the documented run uses 500)
//
// BENCH_PACKAGES (100), BENCH_RUNS (5 per side), BENCH_CONCURRENCY (8), BENCH_TARBALL_KB (about 24
// KiB of JavaScript per tarball before gzip, the median npm tarball being of that order). The
// packages are published through Verdaccio's publish API (the PUT `npm publish` sends); the
// connector runs with a rate limit far above what the run needs, as for a company mirror.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNpmRegistry } from '@vigil/registries';
import { median, startVerdaccio, tarGz } from './local-registry.mjs';

const PACKAGES = Number(process.env.BENCH_PACKAGES ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const TARBALL_KB = Number(process.env.BENCH_TARBALL_KB ?? 24);

async function publishAll(url) {
  const user = await fetch(`${url}/-/user/org.couchdb.user:bench`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', password: 'bench-password', type: 'user', roles: [] }),
  });
  const { token } = await user.json();
  const names = Array.from({ length: PACKAGES }, (_, i) => `bench-pkg-${i}`);
  let next = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++];
      const lines = [];
      for (let size = 0; size < TARBALL_KB * 1024; ) {
        const line = `exports.f${lines.length} = function () { return ${JSON.stringify(randomBytes(12).toString('base64'))}; };\n`;
        lines.push(line);
        size += line.length;
      }
      const tgz = tarGz({ 'package/package.json': JSON.stringify({ name, version: '1.0.0' }), 'package/index.js': lines.join('') });
      bytes += tgz.length;
      const integrity = `sha512-${createHash('sha512').update(tgz).digest('base64')}`;
      const shasum = createHash('sha1').update(tgz).digest('hex');
      const body = {
        _id: name,
        name,
        'dist-tags': { latest: '1.0.0' },
        versions: { '1.0.0': { name, version: '1.0.0', _id: `${name}@1.0.0`, dist: { tarball: `${url}/${name}/-/${name}-1.0.0.tgz`, integrity, shasum } } },
        _attachments: { [`${name}-1.0.0.tgz`]: { content_type: 'application/octet-stream', data: tgz.toString('base64'), length: tgz.length } },
      };
      const answer = await fetch(`${url}/${name}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      if (!answer.ok) throw new Error(`publish ${name}: ${answer.status} ${await answer.text()}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { names, bytes };
}

async function pool(items, task) {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

async function viaConnector(url, names) {
  const npm = createNpmRegistry({ url, concurrency: CONCURRENCY, requestsPerSecond: 1_000_000, burst: 1_000_000 });
  const cpu = process.cpuUsage();
  const started = performance.now();
  let fetched = 0;
  await pool(names, async (name) => {
    const result = await npm.fetch(name, '1.0.0');
    if (result.state !== 'fetched') throw new Error(`${name}: ${JSON.stringify(result)}`);
    fetched += 1;
  });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  npm.close();
  if (fetched !== names.length) throw new Error('not every package was fetched');
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

async function viaRawHttp(url, names) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const get = (target) => new Promise((resolve, reject) => {
    http.get(target, { agent, headers: { accept: 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${target}: ${res.statusCode}`))));
      res.on('error', reject);
    }).on('error', reject);
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  await pool(names, async (name) => {
    const packument = JSON.parse((await get(`${url}/${name}`)).toString());
    await get(packument.versions['1.0.0'].dist.tarball);
  });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  agent.destroy();
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

const root = await mkdtemp(join(tmpdir(), 'vigil-bench-registry-'));
const verdaccio = await startVerdaccio(root);
try {
  const { names, bytes } = await publishAll(verdaccio.url);
  console.log(`${names.length} packages published (${(bytes / names.length / 1024).toFixed(1)} KiB per tarball on average), concurrency ${CONCURRENCY}, ${RUNS} runs per side`);
  // One unmeasured pass each: Verdaccio's caches and the JIT warm up before the first timed run.
  await viaConnector(verdaccio.url, names);
  await viaRawHttp(verdaccio.url, names);
  const connector = [];
  const raw = [];
  for (let run = 0; run < RUNS; run += 1) {
    connector.push(await viaConnector(verdaccio.url, names));
    raw.push(await viaRawHttp(verdaccio.url, names));
  }
  const c = median(connector.map((run) => run.ms));
  const r = median(raw.map((run) => run.ms));
  // The bench process's own CPU per tarball: the connector's work, apart from Verdaccio's.
  const cpuPer = (runs) => (median(runs.map((run) => run.cpuMs)) / names.length).toFixed(2);
  console.log(`connector (packument + tarball + sha512/sha1 check + track): median ${c.toFixed(0)} ms, ${((names.length / c) * 1000).toFixed(0)} tarballs/s  [${connector.map((v) => v.ms.toFixed(0)).join(', ')}], client CPU ${cpuPer(connector)} ms per tarball`);
  console.log(`raw HTTP  (packument + tarball, no check):                   median ${r.toFixed(0)} ms, ${((names.length / r) * 1000).toFixed(0)} tarballs/s  [${raw.map((v) => v.ms.toFixed(0)).join(', ')}], client CPU ${cpuPer(raw)} ms per tarball`);
  console.log(`ratio (connector throughput / raw throughput): ${(r / c).toFixed(2)}  (target ≥ 0.7)`);
} finally {
  await verdaccio.stop();
  await rm(root, { recursive: true, force: true });
}
