import { rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Track } from '@vigil/core';
import { detectLicence, sampleDir, writeSample, type ExternalSampleMeta } from './external-sample.js';
import { MirrorRepo } from './mirror-git.js';
import { splitAnnotatedSnippets } from './split-annotated-snippets.js';
import { guarddogEcosystem, guarddogFamily, guarddogSnippetDoubt, mcpScannerFamily, skillScannerFamily } from './technique-families.js';
import { manifestForScriptLine, wrapSnippet } from './wrap-snippet.js';

/** The public corpora and where their snapshots are (`<mirrors>/<owner>+<name>/repo`). */
export const PUBLIC_CORPORA = {
  guarddog: 'DataDog/guarddog',
  'skill-scanner': 'cisco-ai-defense/skill-scanner',
  'mcp-scanner': 'cisco-ai-defense/mcp-scanner',
  'mcp-scan': 'invariantlabs-ai/mcp-scan',
} as const;
export type PublicCorpus = keyof typeof PUBLIC_CORPORA;

export function mirrorOf(mirrorsDir: string, slug: string): MirrorRepo {
  return new MirrorRepo(join(mirrorsDir, slug.replace('/', '+'), 'repo'), slug);
}

const OUT_OF_SCOPE = 'the packages agent reads npm and PyPI packages; GuardDog’s Go and RubyGems samples are built as such packages and reported apart';
const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

interface Ctx {
  cacheDir: string;
  repo: MirrorRepo;
  commit: string;
  licence: string;
  corpus: PublicCorpus;
  count: { malicious: number; benign: number };
}

async function put(ctx: Ctx, track: Track, id: string, meta: Omit<ExternalSampleMeta, 'corpus' | 'licence' | 'track'>, files: Record<string, string | Buffer>): Promise<void> {
  await writeSample(sampleDir(ctx.cacheDir, 'public', track, `${ctx.corpus}--${id}`), { ...meta, track, corpus: ctx.corpus, licence: ctx.licence }, files);
  ctx.count[meta.label]++;
}

/** Copies a directory of the snapshot as one sample (a skill, a multi-file server); returns its files. */
async function putTree(ctx: Ctx, track: Track, id: string, path: string, meta: Omit<ExternalSampleMeta, 'corpus' | 'licence' | 'track'>, drop: (p: string) => boolean = () => false): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  for (const p of await ctx.repo.files(ctx.commit, `${path}/`)) {
    const rel = p.slice(path.length + 1);
    if (!drop(rel)) files[rel] = await ctx.repo.show(ctx.commit, p);
  }
  await put(ctx, track, id, meta, files);
  return files;
}

/**
 * A public skill sample as the repositories track meets it: committed as a project skill
 * (`.claude/skills/<name>/`, which Claude Code loads from the repository it is opened in) of a
 * minimal repository holding only a README. Derived samples: same label, family and doubt as
 * the skill; `notes` says so.
 */
async function putProjectSkill(ctx: Ctx, id: string, name: string, meta: Omit<ExternalSampleMeta, 'corpus' | 'licence' | 'track'>, files: Record<string, Buffer>): Promise<void> {
  const repoFiles: Record<string, Buffer | string> = { 'README.md': `# ${name}-demo\n\nA small project.\n` };
  for (const [rel, content] of Object.entries(files)) repoFiles[`.claude/skills/${name}/${rel}`] = content;
  await put(ctx, 'repositories', `project-skill-${id}`, { ...meta, notes: `derived: the skill committed as a project skill (.claude/skills/${name}/) of a repository holding only a README` }, repoFiles);
}

const src = (ctx: Ctx, path: string, line?: number) => `${ctx.repo.slug}@${ctx.commit}:${path}${line === undefined ? '' : `:${line}`}`;

/**
 * DataDog/guarddog `tests/analyzer/sourcecode/`: semgrep rule tests (one sample per `ruleid:` /
 * `ok:` annotation), YARA rule tests (`threat-*`, one malicious sample per file) and `benign/`
 * (one benign sample per file). Each is wrapped in a package of its ecosystem (wrap-snippet.ts).
 */
async function buildGuarddog(ctx: Ctx): Promise<void> {
  const base = 'tests/analyzer/sourcecode/';
  for (const path of await ctx.repo.files(ctx.commit, base)) {
    const name = basename(path);
    const ext = extname(name);
    if (name.startsWith('test_') || !['.py', '.js', '.json', '.go', '.rb'].includes(ext)) continue;
    const text = await ctx.repo.text(ctx.commit, path);
    const benignFile = path.startsWith(`${base}benign/`);
    const fileRule = name.slice(0, name.indexOf('.'));
    const snippets = benignFile ? [] : splitAnnotatedSnippets(text, ext === '.py' || ext === '.rb' ? '#' : '//');
    if (snippets.length === 0 || fileRule.startsWith('threat-')) {
      // A YARA rule's test file (or a benign file) is one sample: the rule matches the whole file.
      const ecosystem = guarddogEcosystem(fileRule, ext);
      const { family, doubt } = guarddogFamily(fileRule);
      const id = `${benignFile ? 'benign-' : ''}${slugify(name)}`;
      const label = benignFile ? 'benign' : 'malicious';
      await put(
        ctx,
        'packages',
        id,
        {
          label,
          technique: family,
          rule: fileRule,
          source: src(ctx, path),
          ...(label === 'malicious' && doubt !== undefined ? { doubtful: true as const, doubtReason: doubt } : {}),
          ...(ecosystem === 'go' || ecosystem === 'rubygems' ? { outOfScope: OUT_OF_SCOPE } : {}),
          notes: `whole test file wrapped as an ${ecosystem} package`,
        },
        wrapSnippet({ ecosystem, name: `gd-${slugify(fileRule)}`, rule: fileRule, code: text, ext }),
      );
      continue;
    }
    for (const s of snippets) {
      const ecosystem = guarddogEcosystem(s.rule, ext);
      const { family, doubt: ruleDoubt } = guarddogFamily(s.rule);
      const doubt = ruleDoubt ?? guarddogSnippetDoubt(name, s.line);
      const pkgName = `gd-${slugify(s.rule)}-l${s.line}`;
      const files = ext === '.json' ? { 'package.json': manifestForScriptLine(pkgName, s.statement) ?? s.code } : wrapSnippet({ ecosystem, name: pkgName, rule: s.rule, code: s.code, ext });
      const label = s.kind === 'ruleid' ? 'malicious' : 'benign';
      await put(
        ctx,
        'packages',
        `${slugify(name)}-l${s.line}-${s.kind}`,
        {
          label,
          technique: family,
          rule: s.rule,
          source: src(ctx, path, s.line),
          ...(label === 'malicious' && doubt !== undefined ? { doubtful: true as const, doubtReason: doubt } : {}),
          ...(ecosystem === 'go' || ecosystem === 'rubygems' ? { outOfScope: OUT_OF_SCOPE } : {}),
          notes: `the \`${s.kind}: ${s.rule}\` test case at line ${s.line}, in its block with the file's imports, wrapped as an ${ecosystem} package`,
        },
        files,
      );
    }
  }
}

/**
 * cisco-ai-defense/mcp-scanner: `evals/behavioral-analysis/data/<category>/*.py` (each file a
 * FastMCP server with one malicious behaviour; the category is the family), the scanner's test
 * threat files (`tests/threat_files/`), and its remote eval servers (`evals/remote/{benign,malicious}`)
 * and safe example servers (`evals/behavioral-analysis/scripts/safe_*`) as benign look-alikes.
 */
async function buildMcpScanner(ctx: Ctx): Promise<void> {
  const data = 'evals/behavioral-analysis/data/';
  for (const path of await ctx.repo.files(ctx.commit, data)) {
    if (!path.endsWith('.py')) continue;
    const category = path.slice(data.length).split('/')[0]!;
    const { family, doubt } = mcpScannerFamily(category);
    await put(
      ctx,
      'mcp_servers',
      slugify(path.slice(data.length).replace(/\.py$/, '')),
      { label: 'malicious', technique: family, rule: category, source: src(ctx, path), ...(doubt === undefined ? {} : { doubtful: true as const, doubtReason: doubt }), notes: 'one server file, as server.py' },
      { 'server.py': await ctx.repo.show(ctx.commit, path) },
    );
  }
  const singles: [string, 'malicious' | 'benign', string][] = [];
  for (const path of await ctx.repo.files(ctx.commit, 'tests/threat_files/')) if (path.endsWith('.py') && path.split('/').length === 3) singles.push([path, 'malicious', 'multiple-behaviours']);
  for (const path of await ctx.repo.files(ctx.commit, 'evals/remote/')) if (path.endsWith('.py')) singles.push([path, path.includes('/benign/') ? 'benign' : 'malicious', path.includes('/benign/') ? 'benign-server' : 'multiple-behaviours']);
  for (const path of await ctx.repo.files(ctx.commit, 'evals/behavioral-analysis/scripts/')) {
    const n = basename(path);
    if (n.startsWith('safe_')) singles.push([path, 'benign', 'benign-server']);
    else if (n.startsWith('all_malicious_') || n.startsWith('mixed_')) singles.push([path, 'malicious', 'multiple-behaviours']);
  }
  for (const [path, label, family] of singles) {
    const ext = extname(path);
    await put(
      ctx,
      'mcp_servers',
      slugify(path.replace(/\.(py|js)$/, '')),
      { label, technique: family, source: src(ctx, path), notes: `one server file, as server${ext}` },
      ext === '.js' ? { 'package.json': `${JSON.stringify({ name: slugify(basename(path, ext)), version: '1.0.0', main: 'server.js' }, null, 2)}\n`, 'server.js': await ctx.repo.show(ctx.commit, path) } : { 'server.py': await ctx.repo.show(ctx.commit, path) },
    );
  }
  if ((await ctx.repo.files(ctx.commit, 'tests/threat_files/cross_file_malicious/')).length > 0) {
    await putTree(ctx, 'mcp_servers', 'tests-threat-files-cross-file-malicious', 'tests/threat_files/cross_file_malicious', {
      label: 'malicious',
      technique: 'multiple-behaviours',
      source: src(ctx, 'tests/threat_files/cross_file_malicious/'),
      notes: 'the directory as it is',
    });
  }
}

/**
 * cisco-ai-defense/skill-scanner `evals/skills/<category>/<skill>/` and
 * `evals/test_skills/{malicious,safe}/<skill>/`: each a skill directory, copied without its
 * `_expected.json` (the scanner's expected findings, which name the attack). The label is
 * `expected_safe` of `_expected.json`, or the `safe`/`malicious` directory.
 */
async function buildSkillScanner(ctx: Ctx): Promise<void> {
  const dirs = new Set<string>();
  for (const path of await ctx.repo.files(ctx.commit, 'evals/')) {
    const m = /^(evals\/(?:skills|test_skills)\/[^/]+\/[^/]+)\/SKILL\.md$/.exec(path);
    if (m !== null) dirs.add(m[1]!);
  }
  for (const dir of [...dirs].sort()) {
    const [, , category, name] = dir.split('/') as [string, string, string, string];
    let safe = category === 'safe' || category.startsWith('safe-');
    try {
      const expected = JSON.parse(await ctx.repo.text(ctx.commit, `${dir}/_expected.json`)) as { expected_safe?: unknown };
      if (typeof expected.expected_safe === 'boolean') safe = expected.expected_safe;
    } catch {
      // no _expected.json: the directory says
    }
    const { family, doubt } = safe ? { family: 'benign-skill', doubt: undefined } : skillScannerFamily(category, name);
    const meta = { label: safe ? ('benign' as const) : ('malicious' as const), technique: family, rule: category, source: src(ctx, `${dir}/`), ...(doubt === undefined ? {} : { doubtful: true as const, doubtReason: doubt }), notes: 'the skill directory without _expected.json' };
    const files = await putTree(ctx, 'skills', slugify(`${category}-${name}`), dir, meta, (rel) => rel === '_expected.json');
    await putProjectSkill(ctx, slugify(`${category}-${name}`), slugify(name), meta, files);
  }
}

/**
 * invariantlabs-ai/mcp-scan `tests/`: its malicious test skill, its benign test skills (copies of
 * public skills) and its example MCP servers (`tests/mcp_servers/*.py`, benign).
 */
async function buildMcpScan(ctx: Ctx): Promise<void> {
  const skills = new Set<string>();
  for (const path of await ctx.repo.files(ctx.commit, 'tests/skills/')) {
    const m = /^tests\/skills\/([^/]+)\/SKILL\.md$/.exec(path);
    if (m !== null) skills.add(m[1]!);
  }
  for (const name of [...skills].sort()) {
    const malicious = name.startsWith('malicious');
    const meta = { label: malicious ? ('malicious' as const) : ('benign' as const), technique: malicious ? 'prompt-injection' : 'benign-skill', source: src(ctx, `tests/skills/${name}/`), notes: 'the skill directory as it is' };
    const files = await putTree(ctx, 'skills', slugify(`skill-${name}`), `tests/skills/${name}`, meta);
    await putProjectSkill(ctx, slugify(`skill-${name}`), slugify(name), meta, files);
  }
  for (const path of await ctx.repo.files(ctx.commit, 'tests/mcp_servers/')) {
    if (!path.endsWith('.py') || path.split('/').length !== 3) continue;
    await put(ctx, 'mcp_servers', slugify(basename(path, '.py')), { label: 'benign', technique: 'benign-server', source: src(ctx, path), notes: 'one server file, as server.py' }, { 'server.py': await ctx.repo.show(ctx.commit, path) });
  }
}

const BUILDERS: Record<PublicCorpus, (ctx: Ctx) => Promise<void>> = {
  guarddog: buildGuarddog,
  'skill-scanner': buildSkillScanner,
  'mcp-scanner': buildMcpScanner,
  'mcp-scan': buildMcpScan,
};

export interface BuiltCorpus {
  corpus: PublicCorpus;
  source: string;
  malicious: number;
  benign: number;
}

/**
 * Builds every public corpus whose snapshot is under `mirrorsDir` into `<cacheDir>/public/`,
 * replacing what an earlier build left of it. A missing snapshot is reported, not fatal.
 */
export async function buildPublicCorpora(options: { mirrorsDir: string; cacheDir: string; log?: (line: string) => void }): Promise<{ built: BuiltCorpus[]; missing: string[] }> {
  const log = options.log ?? (() => undefined);
  const built: BuiltCorpus[] = [];
  const missing: string[] = [];
  for (const track of ['packages', 'skills', 'mcp_servers', 'repositories'] as const) await rm(join(options.cacheDir, 'public', track), { recursive: true, force: true });
  for (const [corpus, slug] of Object.entries(PUBLIC_CORPORA) as [PublicCorpus, string][]) {
    const repo = mirrorOf(options.mirrorsDir, slug);
    let commit: string;
    try {
      commit = await repo.head();
    } catch {
      missing.push(`${slug}: no snapshot at ${repo.gitDir} (fetch it with the search tool's fetch)`);
      continue;
    }
    const licenceText = await repo.licenceFile(commit);
    const ctx: Ctx = { cacheDir: options.cacheDir, repo, commit, licence: licenceText === null ? 'unknown (no licence file)' : detectLicence(licenceText), corpus, count: { malicious: 0, benign: 0 } };
    await BUILDERS[corpus](ctx);
    log(`${slug}@${commit.slice(0, 12)}: ${ctx.count.malicious} malicious, ${ctx.count.benign} benign samples`);
    built.push({ corpus, source: `${slug}@${commit}`, ...ctx.count });
  }
  return { built, missing };
}

