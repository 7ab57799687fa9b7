import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVAL_TARGETS, runEval, type EvalReport } from './run-eval.js';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// The measured run: the packages corpus, WORKSPACE_SAMPLE of the real packages installed for this
// workspace, and at most NPM_CACHE_SAMPLE tarballs of this machine's npm cache. The cache grows with everything
// the machine ever installed (thousands of tarballs on a developer's machine, each unpacked and
// analyzed): unbounded, the test's time depended on the machine, not on the code. The workspace
// part (about 1,000 packages) is fixed by the lockfile. `pnpm … eval` still reads the whole cache.
// Rates only — never times, which depend on the machine. 20, not the 100 it was: a machine whose
// cache had gained 60 bundled MCP servers (several seconds each) took this test past 600 s in a full
// `pnpm test`; the bound is there so the code, not the machine, sets the test's time.
const NPM_CACHE_SAMPLE = 20;
// The workspace's installed packages (about 1,030, fixed by the lockfile), evenly spaced by
// name@version: the small form of the eval that `pnpm test` runs (issue 24: the whole benign runs
// belong to `pnpm --filter @vigil/reference-agents eval`, which reads every one). A third of them:
// this file alone took about 90 s of CPU less, and the reference agents' suite 150 s less in a whole
// `pnpm test` on two cores (docs/benchmarks.md, "Test suite time", tenth step), with still several
// hundred widely used packages for the false-positive targets.
const WORKSPACE_SAMPLE = 350;
// A hang guard, not a time target: with the whole workspace set it took about 240 s alone on two idle
// cores (about 70 s with the sample), 450 to 600 s in a full `pnpm test` here, and past 900 s in one CI run on a machine of the same kind that ran everything at
// about half speed (the whole suite 1,373 s against 662 s). Half an hour still ends a real hang well
// inside CI's 90 minutes.
const EVAL_HANG_GUARD_MS = 1_800_000;
describe('reference agents meet the issue-12 targets', () => {
  let report: EvalReport;
  it('runs the packages track over its corpus and the real benign set', { timeout: EVAL_HANG_GUARD_MS }, async () => {
    report = await runEval({
      corpusRoot: join(PACKAGE_DIR, 'eval', 'corpus'),
      repoRoot: resolve(PACKAGE_DIR, '..', '..'),
      npmCacheDir: process.env.VIGIL_EVAL_NPM_CACHE ?? join(homedir(), '.npm', '_cacache'),
      tracks: ['packages'],
      maxNpmCacheTarballs: NPM_CACHE_SAMPLE,
      maxWorkspacePackages: WORKSPACE_SAMPLE,
    });
    const packages = report.tracks.find((t) => t.track === 'packages');
    expect(packages).toBeDefined();
    expect(packages!.samples.malicious).toBeGreaterThanOrEqual(30);
    expect(packages!.samples.benignCorpus).toBeGreaterThanOrEqual(20);
    expect(packages!.samples.benignReal).toBeGreaterThanOrEqual(300);
    expect(packages!.errors).toEqual([]);
  });

  it('flags ≥ 95% of malicious samples, each at least at its expected verdict', () => {
    const t = report.tracks.find((x) => x.track === 'packages')!;
    expect(t.missed).toEqual([]);
    expect(t.detectionRate).toBeGreaterThanOrEqual(EVAL_TARGETS.minDetectionRate);
    expect(t.belowExpected).toEqual([]);
  });

  it('blocks ≤ 2% and flags ≤ 10% of benign packages (look-alikes and the real set)', () => {
    const t = report.tracks.find((x) => x.track === 'packages')!;
    expect(t.benign.corpus.flaggedRate).toBe(0);
    expect(t.benign.combined.blockRate).toBeLessThanOrEqual(EVAL_TARGETS.maxBenignBlockRate);
    expect(t.benign.combined.flaggedRate).toBeLessThanOrEqual(EVAL_TARGETS.maxBenignWarnRate);
    expect(t.met).toBe(true);
  });

  it('reports recall for every technique in the corpus', () => {
    const t = report.tracks.find((x) => x.track === 'packages')!;
    expect(Object.keys(t.techniques).length).toBeGreaterThanOrEqual(25);
    for (const r of Object.values(t.techniques)) expect(r.recall).toBe(1);
  });
});
