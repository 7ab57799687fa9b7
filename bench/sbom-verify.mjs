// Where a 20,000-component SBOM's time goes (issue 28, outsider finding M3), measured against the
// cost docs/sbom.md compares it with: a 20,000-entry package-lock.json through
// POST /v1/repositories/verify, on the same server in the same run. Reported as ratios.
//   1. end to end over HTTP: the SBOM as json, sarif and cyclonedx; the lockfile;
//   2. in process, the steps of one SBOM request: reading the document (readSbom + purls) and
//      rendering the answer (SARIF, VEX) from the json answer, so verify = json − read.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase, runKeysCommand } from '@vigil/server';
import { median, startServer } from './lib.mjs';

const N = Number(process.env.BENCH_COMPONENTS ?? 20_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const dist = new URL('../apps/server/dist/features/sboms/', import.meta.url);
const { readSbom } = await import(new URL('read-sbom.js', dist).href);
const { classifyPurl } = await import(new URL('sbom-component-purl.js', dist).href);
const { toSarif } = await import(new URL('sbom-sarif.js', dist).href);
const { toCycloneDxVex } = await import(new URL('sbom-cyclonedx.js', dist).href);

const names = Array.from({ length: N }, (_, i) => `bench-pkg-${i}`);
const sbom = { bomFormat: 'CycloneDX', specVersion: '1.6', components: names.map((name) => ({ type: 'library', 'bom-ref': `${name}@1.0.0`, name, version: '1.0.0', purl: `pkg:npm/${name}@1.0.0` })) };
const packages = { '': { name: 'app', version: '1.0.0', dependencies: Object.fromEntries(names.map((n) => [n, '1.0.0'])) } };
for (const name of names) packages[`node_modules/${name}`] = { version: '1.0.0', resolved: `https://registry.npmjs.org/${name}/-/${name}-1.0.0.tgz` };
const lockfile = JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages });

const dataDir = await mkdtemp(join(tmpdir(), 'vigil-bench-sbom-'));
try {
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const lines = await runKeysCommand(database.db, 'keys', ['create', '--org', 'bench', '--plan', 'paid', '--scopes', 'repositories'], Date.now());
  const token = lines.find((line) => line.startsWith('vgl_'));
  await database.close();
  const vigil = await startServer(['vigil', dataDir]);
  const base = `http://127.0.0.1:${vigil.port}`;
  const timed = async (path, body) => {
    const start = process.hrtime.bigint();
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
    return { ms: Number(process.hrtime.bigint() - start) / 1e6, text };
  };
  try {
    const sbomBody = JSON.stringify(sbom);
    const lockBody = JSON.stringify({ lockfiles: [{ path: 'package-lock.json', content: lockfile }] });
    const rows = { lockfile: [], json: [], sarif: [], cyclonedx: [] };
    let answer = '';
    for (let i = 0; i < REPEATS; i += 1) {
      rows.lockfile.push((await timed('/v1/repositories/verify', lockBody)).ms);
      const json = await timed('/v1/sboms/verify', sbomBody);
      rows.json.push(json.ms);
      answer = json.text;
      rows.sarif.push((await timed('/v1/sboms/verify?format=sarif', sbomBody)).ms);
      rows.cyclonedx.push((await timed('/v1/sboms/verify?format=cyclonedx', sbomBody)).ms);
    }
    const verification = JSON.parse(answer);
    const step = (fn) => {
      const times = [];
      for (let i = 0; i < REPEATS; i += 1) {
        const start = process.hrtime.bigint();
        fn();
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      return median(times);
    };
    const read = step(() => readSbom(sbom).components.forEach((c) => classifyPurl(c.purl)));
    const sarif = step(() => JSON.stringify(toSarif(verification, 'sbom.json')));
    const vex = step(() => toCycloneDxVex(verification));
    const lock = median(rows.lockfile);
    console.log(`${N} npm components / lockfile entries, ${REPEATS} runs each, node ${process.version}; medians, and ratio to the lockfile request`);
    for (const [name, times] of Object.entries(rows)) console.log(`${name.padEnd(30)} ${median(times).toFixed(0).padStart(7)} ms  ${(median(times) / lock).toFixed(2)}×`);
    console.log(`in process: read ${read.toFixed(0)} ms, render SARIF ${sarif.toFixed(0)} ms, render VEX ${vex.toFixed(0)} ms (ratios to the lockfile request ${(read / lock).toFixed(2)}, ${(sarif / lock).toFixed(2)}, ${(vex / lock).toFixed(2)})`);
  } finally {
    await vigil.stop();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
