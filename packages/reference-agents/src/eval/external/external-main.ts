import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TRACKS, type Track } from '@vigil/core';
import { BENIGN_LIST_FILES, loadBenignLists } from './benign-lists.js';
import { buildPublicCorpora } from './build-public-corpora.js';
import { compareOutcomes, formatComparison } from './compare-reports.js';
import { fetchBenign } from './fetch-benign.js';
import { pinNpmList } from './pin-npm-list.js';
import { formatExternalReport } from './format-external-report.js';
import { runExternalEval, type ExternalReport } from './run-external-eval.js';

// dist/eval/external/external-main.js → the package directory three levels up.
const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const USAGE = `usage: pnpm --filter @vigil/reference-agents eval:external [build|fetch|run|all|pin] [options]
  build         build the public corpora's samples from the fetched snapshots into the cache
  fetch         fetch the pinned real benign set into the cache (npm pack; skills and repositories from snapshots)
  run           run the reference agents over what the cache holds and write the report (default)
  all           build, fetch, run
  pin           re-pin the committed npm lists (eval/external/npm-top.json, mcp-servers-npm.json) to each name's latest version
options:
  --cache <dir>     the eval cache (default $VIGIL_EVAL_CACHE or ~/.cache/vigil-eval)
  --mirrors <dir>   fetched snapshots, <dir>/<owner>+<name>/repo bare git dirs (default $VIGIL_EVAL_MIRRORS or <cache>/mirrors)
  --track <track>   only this track (repeatable)
  --group <group>   run: only public or real (repeatable)
  --corpus <name>   run: only this corpus (guarddog, skill-scanner, mcp-scanner, mcp-scan, real-npm, real-mcp-npm, real-skills, real-repositories; repeatable)
  --md <file>       run: where the Markdown report goes (default <cache>/reports/external-<time>.md)
  --json <file>     run: where the JSON report goes (default next to the Markdown, .json)
  --concurrency <n> fetch: npm processes at once (default 2)
  --compare <json>  run: also list every sample whose verdict changed against an earlier JSON report
  --check           run: exit 1 when a track misses a target`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      cache: { type: 'string' },
      mirrors: { type: 'string' },
      track: { type: 'string', multiple: true },
      group: { type: 'string', multiple: true },
      corpus: { type: 'string', multiple: true },
      md: { type: 'string' },
      json: { type: 'string' },
      concurrency: { type: 'string' },
      compare: { type: 'string' },
      check: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const command = positionals[0] ?? 'run';
  if (!['build', 'fetch', 'run', 'all', 'pin'].includes(command) || positionals.length > 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const tracks = (values.track ?? [...TRACKS]) as Track[];
  for (const t of tracks) {
    if (!(TRACKS as readonly string[]).includes(t)) {
      process.stderr.write(`unknown track: ${t}\n${USAGE}\n`);
      return 2;
    }
  }
  const groups = (values.group ?? ['public', 'real']) as ('public' | 'real')[];
  if (groups.some((g) => g !== 'public' && g !== 'real')) {
    process.stderr.write(`--group is public or real\n${USAGE}\n`);
    return 2;
  }
  const cacheDir = resolve(values.cache ?? process.env.VIGIL_EVAL_CACHE ?? join(homedir(), '.cache', 'vigil-eval'));
  const mirrorsDir = resolve(values.mirrors ?? process.env.VIGIL_EVAL_MIRRORS ?? join(cacheDir, 'mirrors'));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  let problems = 0;
  if (command === 'pin') {
    for (const file of [BENIGN_LIST_FILES.npm, BENIGN_LIST_FILES.mcpNpm]) {
      const dropped = await pinNpmList(join(PACKAGE_DIR, 'eval', 'external', file), join(cacheDir, 'tarballs', 'npm'), log);
      for (const d of dropped) log(`${file}: ${d} could not be packed and was left out`);
    }
    return 0;
  }
  if (command === 'build' || command === 'all') {
    const { built, missing } = await buildPublicCorpora({ mirrorsDir, cacheDir, log });
    for (const m of missing) log(`missing: ${m}`);
    process.stdout.write(`built ${built.map((b) => `${b.corpus} (${b.malicious} malicious, ${b.benign} benign)`).join(', ')} into ${join(cacheDir, 'public')}\n`);
    problems += missing.length;
  }
  if (command === 'fetch' || command === 'all') {
    const lists = await loadBenignLists(join(PACKAGE_DIR, 'eval', 'external'));
    const failed = await fetchBenign({ cacheDir, mirrorsDir, lists, concurrency: Number(values.concurrency ?? 2), log });
    for (const f of failed) log(`not fetched: ${f}`);
    process.stdout.write(`fetched the real benign set into ${join(cacheDir, 'real')} (${failed.length} not fetched)\n`);
    problems += failed.length;
  }
  if (command === 'run' || command === 'all') {
    const report = await runExternalEval({ cacheDir, tracks, groups, ...(values.corpus === undefined ? {} : { corpora: values.corpus }), log });
    const md = resolve(values.md ?? join(cacheDir, 'reports', `external-${report.generatedAt.replace(/[:.]/g, '-')}.md`));
    const json = resolve(values.json ?? md.replace(/\.md$/, '') + '.json');
    await mkdir(dirname(md), { recursive: true });
    await mkdir(dirname(json), { recursive: true });
    let text = formatExternalReport(report);
    if (values.compare !== undefined) {
      const earlier = JSON.parse(await readFile(values.compare, 'utf8')) as ExternalReport;
      text = `${text}\n${formatComparison(compareOutcomes(earlier.outcomes, report.outcomes), values.compare)}`;
    }
    await writeFile(md, text);
    await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
    const changes = values.compare === undefined ? '' : `\n## Changes${text.split('\n## Changes')[1] ?? ''}`;
    process.stdout.write(`${text.split('\n## ')[0]}${changes}\nreport: ${md}\njson: ${json}\n`);
    if (values.check && !report.met) return 1;
  }
  return problems > 0 && command !== 'run' ? 1 : 0;
}

process.exitCode = await main();
