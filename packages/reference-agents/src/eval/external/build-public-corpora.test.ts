import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublicCorpora } from './build-public-corpora.js';
import { loadExternalSamples } from './external-sample.js';

// A tiny stand-in for the GuardDog and skill-scanner snapshots: a real git repository (no
// network), laid out as those projects lay out their tests.
const GUARDDOG: Record<string, string> = {
  LICENSE: '                                 Apache License\n                           Version 2.0, January 2004\n',
  'tests/analyzer/sourcecode/npm-exec-base64.js': ["const cp = require('child_process');", '', '// ruleid: npm-exec-base64', "eval(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString())", '', '// ok: npm-exec-base64', "console.log(Buffer.from('aGk=', 'base64').toString())", ''].join('\n'),
  'tests/analyzer/sourcecode/shady-links.py': ['def f():', '    # ruleid: shady-links', '    url = "https://bit.ly/x"', ''].join('\n'),
  'tests/analyzer/sourcecode/go-exec-base64.go': ['package main', '', 'func f() {', '\t// ruleid: go-exec-base64', '\texec.Command(decode("Y3VybA=="))', '}', ''].join('\n'),
  'tests/analyzer/sourcecode/threat-process-hooks.json': '{"name":"evil","version":"1.0.0","scripts":{"preinstall":"node x.js"}}\n',
  'tests/analyzer/sourcecode/benign/threat-process-hooks.py': 'print("hi")\n',
  'tests/analyzer/sourcecode/test_sourcecode_yara.py': 'import yara\n',
};
const SKILL_SCANNER: Record<string, string> = {
  LICENSE: 'Apache License\nVersion 2.0, January 2004\n',
  'evals/skills/sql-injection/database-query/SKILL.md': '---\nname: db\ndescription: queries\n---\nRun queries.\n',
  'evals/skills/sql-injection/database-query/_expected.json': '{"expected_safe": false}\n',
  'evals/skills/sql-injection/database-query/query.py': 'cur.execute("SELECT * FROM t WHERE id=" + x)\n',
  'evals/test_skills/safe/simple-formatter/SKILL.md': '---\nname: fmt\ndescription: formats text\n---\nFormat.\n',
};

async function makeRepo(dir: string, files: Record<string, string>): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'fixture');
  return git('rev-parse', 'HEAD');
}

let root: string;
let commits: { guarddog: string; skills: string };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'vigil-external-build-'));
  // A work tree's `.git` directory is read as a snapshot's bare git directory.
  commits = {
    guarddog: await makeRepo(join(root, 'src-guarddog'), GUARDDOG),
    skills: await makeRepo(join(root, 'src-skills'), SKILL_SCANNER),
  };
  await mkdir(join(root, 'mirrors', 'DataDog+guarddog'), { recursive: true });
  await mkdir(join(root, 'mirrors', 'cisco-ai-defense+skill-scanner'), { recursive: true });
  await symlink(join(root, 'src-guarddog', '.git'), join(root, 'mirrors', 'DataDog+guarddog', 'repo'));
  await symlink(join(root, 'src-skills', '.git'), join(root, 'mirrors', 'cisco-ai-defense+skill-scanner', 'repo'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('buildPublicCorpora', () => {
  it('builds one sample per annotation and per YARA or benign file, with source, licence, doubt and scope', async () => {
    const cacheDir = join(root, 'cache');
    const { built, missing } = await buildPublicCorpora({ mirrorsDir: join(root, 'mirrors'), cacheDir });
    expect(missing).toHaveLength(2); // the two MCP corpora have no snapshot here
    expect(built.find((b) => b.corpus === 'guarddog')).toMatchObject({ malicious: 4, benign: 2 });
    const packages = await loadExternalSamples(cacheDir, 'public', ['packages']);
    const byId = new Map(packages.map((s) => [s.id.replace('packages/guarddog--', ''), s]));
    expect([...byId.keys()].sort()).toEqual(['benign-threat-process-hooks-py', 'go-exec-base64-go-l4-ruleid', 'npm-exec-base64-js-l3-ruleid', 'npm-exec-base64-js-l6-ok', 'shady-links-py-l2-ruleid', 'threat-process-hooks-json']);

    const bad = byId.get('npm-exec-base64-js-l3-ruleid')!;
    expect(bad).toMatchObject({ label: 'malicious', technique: 'encoded-payload-execution', rule: 'npm-exec-base64', licence: 'Apache-2.0', source: `DataDog/guarddog@${commits.guarddog}:tests/analyzer/sourcecode/npm-exec-base64.js:3` });
    expect(bad.doubtful).toBeUndefined();
    expect(JSON.parse(await readFile(join(bad.dir, 'package.json'), 'utf8'))).toMatchObject({ main: 'index.js' });
    const code = await readFile(join(bad.dir, 'index.js'), 'utf8');
    expect(code).toContain("const cp = require('child_process');");
    expect(code).not.toContain('aGk=');

    expect(byId.get('npm-exec-base64-js-l6-ok')).toMatchObject({ label: 'benign' });
    expect(byId.get('shady-links-py-l2-ruleid')).toMatchObject({ label: 'malicious', doubtful: true, technique: 'shady-links' });
    expect(await readdir(byId.get('shady-links-py-l2-ruleid')!.dir)).toEqual(['gd_shady_links_l2', 'setup.py']);
    expect(byId.get('go-exec-base64-go-l4-ruleid')!.outOfScope).toMatch(/npm and PyPI/);
    expect(byId.get('threat-process-hooks-json')).toMatchObject({ label: 'malicious', technique: 'install-time-execution' });
    expect(await readFile(join(byId.get('threat-process-hooks-json')!.dir, 'package.json'), 'utf8')).toContain('preinstall');
    expect(byId.get('benign-threat-process-hooks-py')).toMatchObject({ label: 'benign' });
  });

  it('copies skills without _expected.json, labels them by it, and derives a repository sample from each', async () => {
    const cacheDir = join(root, 'cache2');
    await buildPublicCorpora({ mirrorsDir: join(root, 'mirrors'), cacheDir });
    const skills = await loadExternalSamples(cacheDir, 'public', ['skills']);
    expect(skills.map((s) => [s.id, s.label, s.technique, s.doubtful ?? false])).toEqual([
      ['skills/skill-scanner--safe-simple-formatter', 'benign', 'benign-skill', false],
      ['skills/skill-scanner--sql-injection-database-query', 'malicious', 'sql-injection', true],
    ]);
    expect((await readdir(skills[1]!.dir)).sort()).toEqual(['SKILL.md', 'query.py']);
    const repos = await loadExternalSamples(cacheDir, 'public', ['repositories']);
    const derived = repos.find((r) => r.id.endsWith('project-skill-sql-injection-database-query'))!;
    expect(derived).toMatchObject({ label: 'malicious', doubtful: true, technique: 'sql-injection' });
    expect(await readFile(join(derived.dir, '.claude', 'skills', 'database-query', 'query.py'), 'utf8')).toContain('SELECT');
  });
});
