// Dumps what the reference agents conclude, one JSON line per artifact or file, so that a change
// meant to keep behaviour (a refactor, a dependency bump) can be checked by diffing two dumps:
//
//   node scripts/dump-findings.mjs [--dist <dir>] [--js-root <dir>]... [--real] > before.jsonl
//   (change, pnpm build)
//   node scripts/dump-findings.mjs … > after.jsonl && diff before.jsonl after.jsonl
//
// Covered: every labelled corpus sample of every track, analysed in-process (the verdict, score
// and findings; nothing timed), and `javascriptFacts` of every JavaScript and TypeScript file under
// each `--js-root` (a digest of the facts' JSON per file: node_modules holds tens of thousands).
// `--real` adds the real npm packages the eval measures (the npm cache and this workspace's).
// `--dist` reads another build of this package (default: ./dist), e.g. a copy of the one before.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { extname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { TRACKS } from '@vigil/core';
import { unpackArchive } from '@vigil/sandbox';

const PACKAGE_DIR = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { dist: { type: 'string' }, 'js-root': { type: 'string', multiple: true }, real: { type: 'boolean', default: false } } });
const dist = resolve(values.dist ?? join(PACKAGE_DIR, 'dist'));
const load = (file) => import(pathToFileURL(join(dist, file)).href);
const { analyzerForTrack } = await load('reference/analyzer-for-track.js');
const { javascriptFacts } = await load('index.js');
const { loadCorpus } = await load('eval/corpus.js');
const { realBenignPackages } = await load('eval/real-packages.js');

const line = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
// The result without what varies from run to run (timings).
const stable = (result) => ({ verdict: result.verdict, risk_score: result.risk_score, findings: result.findings });

for (const track of TRACKS) {
  const analyze = analyzerForTrack(track);
  for (const sample of await loadCorpus(join(PACKAGE_DIR, 'eval', 'corpus'), track)) {
    line({ id: sample.id, ...stable(await analyze({ dir: sample.dir, track, bundleHash: null })) });
  }
}

const JS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);
async function* jsFiles(dir) {
  let entries;
  try {
    entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* jsFiles(path);
    else if (e.isFile() && JS.has(extname(e.name)) && !e.name.endsWith('.d.ts')) yield path;
  }
}
for (const root of values['js-root'] ?? []) {
  for await (const file of jsFiles(resolve(root))) {
    const text = await readFile(file, 'utf8');
    if (text.length > 2_000_000) continue;
    const facts = javascriptFacts(text, { typescript: /\.[mc]?tsx?$/.test(file) });
    line({ file: relative(resolve(root), file), facts: createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 16) });
  }
}

if (values.real) {
  const analyze = analyzerForTrack('packages');
  const repoRoot = resolve(PACKAGE_DIR, '..', '..');
  for (const pkg of await realBenignPackages({ npmCacheDir: process.env.VIGIL_EVAL_NPM_CACHE ?? join(homedir(), '.npm', '_cacache'), repoRoot })) {
    const id = `${pkg.name}@${pkg.version}`;
    if (pkg.origin === 'workspace') {
      line({ id, ...stable(await analyze({ dir: pkg.path, track: 'packages', bundleHash: null })) });
      continue;
    }
    const work = await mkdtemp(join(tmpdir(), 'vigil-dump-'));
    try {
      const unpacked = await unpackArchive(pkg.path, join(work, 'x'));
      line({ id, ...stable(await analyze({ dir: unpacked.root, track: 'packages', bundleHash: null })) });
    } catch (error) {
      line({ id, error: error instanceof Error ? error.message : String(error) });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
}
