import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TRACKS, type Track } from '@vigil/core';
import { formatReport } from './format-report.js';
import { runEval } from './run-eval.js';

// dist/eval/main.js → the package directory two levels up.
const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const USAGE = `usage: pnpm --filter @vigil/reference-agents eval [--check] [--sandbox] [--track <track>]... [--no-real] [--out <file>]
  --check       exit 1 when a target is missed (≥95% detection, ≤2% benign BLOCK, ≤10% benign WARN or BLOCK)
  --sandbox     run dist/bundles/<track>.bundle.json in the sandbox instead of the analyzer in-process
  --track       only these tracks (packages, skills, mcp_servers, repositories)
  --no-real     leave out the real benign npm packages
  --out         where the JSON report goes (default packages/reference-agents/eval/report.json)`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      sandbox: { type: 'boolean', default: false },
      track: { type: 'string', multiple: true },
      'no-real': { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const tracks = values.track ?? [...TRACKS];
  for (const t of tracks) {
    if (!(TRACKS as readonly string[]).includes(t)) {
      process.stderr.write(`unknown track: ${t}\n${USAGE}\n`);
      return 2;
    }
  }
  const report = await runEval({
    corpusRoot: join(PACKAGE_DIR, 'eval', 'corpus'),
    repoRoot: resolve(PACKAGE_DIR, '..', '..'),
    // pnpm rewrites npm_config_* for its own use, so the npm cache has its own variable.
    npmCacheDir: process.env.VIGIL_EVAL_NPM_CACHE ?? join(homedir(), '.npm', '_cacache'),
    tracks: tracks as Track[],
    sandboxBundlesDir: values.sandbox ? join(PACKAGE_DIR, 'dist', 'bundles') : null,
    real: !values['no-real'],
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const out = values.out ?? join(PACKAGE_DIR, 'eval', 'report.json');
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${formatReport(report)}\nreport: ${out}\n`);
  return values.check && !report.met ? 1 : 0;
}

process.exitCode = await main();
