// Customers with API keys (docs/artifacts.md, docs/repositories.md): upload packages, read them back,
// verify package references and lockfiles, each from its own 127.0.2.x address. Every upload answered
// 201 is an acknowledged write the invariants read back through the API at the end.
import { createHash } from 'node:crypto';
import { tarGz } from '../local-registry.mjs';
import { describeAnswer, send } from './http-client.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function packageTarball(name, version, salt) {
  return tarGz({
    'package/package.json': JSON.stringify({ name, version, license: 'MIT', main: 'index.js' }),
    'package/index.js': `module.exports = ${JSON.stringify(`${name}@${version} ${salt}`)};\n`,
  });
}

function lockfile(packages) {
  const entries = { '': { name: 'soak-app', version: '1.0.0', dependencies: Object.fromEntries(packages.map((p) => [p.name, p.version])) } };
  for (const p of packages) entries[`node_modules/${p.name}`] = { version: p.version, resolved: `https://registry.npmjs.org/${p.name}/-/${p.name}-${p.version}.tgz`, integrity: p.integrity };
  return JSON.stringify({ name: 'soak-app', version: '1.0.0', lockfileVersion: 3, requires: true, packages: entries }, null, 2);
}

export function startCustomers({ baseUrl, tokens, stats, pauseMs = 300, timeoutMs = 15_000 }) {
  const uploads = []; // { id, name, version, size, customer }
  let stopping = false;
  const outcome = (status, expected) => (status === expected ? 'ok' : status >= 400 && status < 500 && status !== 408 ? 'rejected' : 'error');
  const loops = tokens.map(async (token, c) => {
    const from = `127.0.2.${c + 1}`;
    const auth = { authorization: `Bearer ${token}` };
    const mine = [];
    for (let i = 0; !stopping; i++) {
      const step = i % 6;
      if (step === 0 || mine.length === 0) {
        const name = `soak-c${c}-p${i}`;
        const version = '1.0.0';
        const bytes = packageTarball(name, version, `${process.pid}-${i}`);
        const r = await send(baseUrl, {
          from,
          method: 'POST',
          path: `/v1/artifacts?track=packages&package=${encodeURIComponent(`npm:${name}@${version}`)}`,
          headers: { ...auth, 'content-type': 'application/octet-stream' },
          body: bytes,
          timeoutMs: 30_000,
        });
        stats.record('upload', outcome(r.status, 201), r.ms, describeAnswer(r));
        if (r.status === 201) {
          const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
          const upload = { id: r.body.id, name, version, size: bytes.length, customer: c, integrity };
          uploads.push(upload);
          mine.push(upload);
        }
      } else if (step === 1 || step === 3) {
        const p = mine[(i * 7) % mine.length];
        const r = await send(baseUrl, { from, method: 'POST', path: '/v1/artifacts/verify', headers: auth, body: { artifact: `npm:${p.name}@${p.version}` }, timeoutMs });
        stats.record('verify', outcome(r.status, 200), r.ms, describeAnswer(r));
      } else if (step === 2) {
        const p = mine[(i * 3) % mine.length];
        const r = await send(baseUrl, { from, path: `/v1/artifacts/${p.id}`, headers: auth, timeoutMs });
        stats.record('artifact read', outcome(r.status, 200), r.ms, describeAnswer(r));
      } else if (step === 4) {
        const picked = mine.slice(-5);
        const r = await send(baseUrl, {
          from,
          method: 'POST',
          path: '/v1/repositories/verify',
          headers: auth,
          body: { lockfiles: [{ path: 'package-lock.json', content: lockfile(picked) }] },
          timeoutMs,
        });
        stats.record('lockfile verify', outcome(r.status, 200), r.ms, describeAnswer(r));
      } else {
        const refs = mine.slice(-20).map((p) => `npm:${p.name}@${p.version}`);
        const r = await send(baseUrl, { from, method: 'POST', path: '/v1/artifacts/verify/batch', headers: auth, body: { artifacts: refs }, timeoutMs });
        stats.record('verify batch', outcome(r.status, 200), r.ms, describeAnswer(r));
      }
      await sleep(pauseMs);
    }
  });
  return {
    uploads,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}
