import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AgentBundle, TRACKS, type AgentResult, type Track, type Verdict } from '@vigil/core';
import { runAgent, UnpackError, unpackArchive } from '@vigil/sandbox';
import { analyzerForTrack } from '../reference/analyzer-for-track.js';
import { loadCorpus, type CorpusSample } from './corpus.js';
import { realBenignPackages, type RealPackage } from './real-packages.js';

/** The targets of issue 12, per track. */
export const EVAL_TARGETS = { minDetectionRate: 0.95, maxBenignBlockRate: 0.02, maxBenignWarnRate: 0.1 } as const;

export interface EvalOptions {
  /** `packages/reference-agents/eval/corpus`. */
  corpusRoot: string;
  /** The workspace root whose `node_modules/.pnpm` holds the real benign packages. */
  repoRoot: string;
  /** An npm cache (`~/.npm/_cacache`). */
  npmCacheDir: string;
  tracks?: readonly Track[];
  /** Run the built bundles (`<bundlesDir>/<track>.bundle.json`) in the sandbox instead of in-process. */
  sandboxBundlesDir?: string | null;
  /** Include the real benign packages (packages track). Default true. */
  real?: boolean;
  /** At most this many of the npm cache's tarballs in the real set, evenly spaced by name (default: all). */
  maxNpmCacheTarballs?: number;
  /** At most this many of the workspace's installed packages in the real set, evenly spaced by name (default: all). */
  maxWorkspacePackages?: number;
  log?: (line: string) => void;
}

export interface ArtifactOutcome {
  id: string;
  group: 'corpus' | 'real';
  label: 'malicious' | 'benign';
  technique: string;
  verdict: Verdict | 'ERROR';
  riskScore: number;
  ms: number;
  /** The most severe findings, `SEVERITY category: title @ file:line`. */
  top: string[];
  expected: Verdict | null;
  error?: string;
}

export interface RateCounts {
  samples: number;
  block: number;
  warn: number;
  blockRate: number;
  /** WARN verdicts only. */
  warnRate: number;
  /** WARN or BLOCK: what the WARN target is checked against (the stricter reading). */
  flaggedRate: number;
}

export interface TrackReport {
  track: Track;
  mode: 'in-process' | 'sandbox';
  samples: { malicious: number; benignCorpus: number; benignReal: number };
  detectionRate: number;
  benign: { corpus: RateCounts; real: RateCounts; combined: RateCounts };
  precision: number;
  techniques: Record<string, { samples: number; flagged: number; recall: number }>;
  timeMs: { mean: number; p95: number; max: number; total: number; realSetTotal: number };
  /** The five slowest artifacts. */
  slowest: { id: string; ms: number }[];
  missed: string[];
  belowExpected: string[];
  benignFlagged: { id: string; verdict: string; top: string[] }[];
  errors: string[];
  targets: { detection: boolean; benignBlock: boolean; benignWarn: boolean };
  met: boolean;
}

export interface EvalReport {
  format: 'vigil-agents-eval/1';
  generatedAt: string;
  node: string;
  targets: typeof EVAL_TARGETS;
  tracks: TrackReport[];
  met: boolean;
  skipped: string[];
}

type Runner = (dir: string, track: Track) => Promise<AgentResult>;

function rank(v: Verdict | 'ERROR'): number {
  return v === 'BLOCK' ? 2 : v === 'WARN' ? 1 : 0;
}

function topFindings(result: AgentResult): string[] {
  return result.findings.slice(0, 4).map((f) => `${f.severity} ${f.category}: ${f.title} @ ${f.file}${f.line === undefined ? '' : `:${f.line}`}`);
}

function rates(outcomes: ArtifactOutcome[]): RateCounts {
  const block = outcomes.filter((o) => o.verdict === 'BLOCK').length;
  const warn = outcomes.filter((o) => o.verdict === 'WARN').length;
  const n = outcomes.length;
  return { samples: n, block, warn, blockRate: n === 0 ? 0 : block / n, warnRate: n === 0 ? 0 : warn / n, flaggedRate: n === 0 ? 0 : (block + warn) / n };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

async function sandboxRunner(bundleFile: string): Promise<{ runner: Runner; cleanup: () => Promise<void> }> {
  const bundle = AgentBundle.parse(JSON.parse(await readFile(bundleFile, 'utf8')));
  const bundleDir = await mkdtemp(join(tmpdir(), 'vigil-eval-bundle-'));
  for (const file of bundle.files) {
    const target = join(bundleDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, Buffer.from(file.content_base64, 'base64'));
  }
  const runner: Runner = async (dir, track) => {
    const outcome = await runAgent({ bundleDir, entrypoint: bundle.entrypoint, artifactDir: dir, metadata: { track } });
    if (!outcome.ok) throw new Error(`${outcome.failureReason}: ${outcome.detail}`);
    return outcome.result;
  };
  return { runner, cleanup: () => rm(bundleDir, { recursive: true, force: true }) };
}

async function measure(run: Runner, dir: string, track: Track, base: Omit<ArtifactOutcome, 'verdict' | 'riskScore' | 'ms' | 'top'>): Promise<ArtifactOutcome> {
  const started = performance.now();
  try {
    const result = await run(dir, track);
    return { ...base, verdict: result.verdict, riskScore: result.risk_score, ms: performance.now() - started, top: topFindings(result) };
  } catch (error) {
    return { ...base, verdict: 'ERROR', riskScore: 0, ms: performance.now() - started, top: [], error: error instanceof Error ? error.message : String(error) };
  }
}

/** Archives the product itself refuses to unpack (`vigil scan` and validators alike): not measurable. */
const REFUSED_BY_LIMITS: ReadonlySet<string> = new Set(['too_many_files', 'file_too_large', 'too_large']);

/** A real package's outcome, or the reason it was not measured (over the product's unpack limits). */
async function runReal(run: Runner, pkg: RealPackage): Promise<ArtifactOutcome | string> {
  const base = { id: `${pkg.name}@${pkg.version}`, group: 'real' as const, label: 'benign' as const, technique: `real-${pkg.origin}`, expected: null };
  if (pkg.origin === 'workspace') return measure(run, pkg.path, 'packages', base);
  const work = await mkdtemp(join(tmpdir(), 'vigil-eval-pkg-'));
  try {
    const unpacked = await unpackArchive(pkg.path, join(work, 'x'));
    return await measure(run, unpacked.root, 'packages', base);
  } catch (error) {
    if (error instanceof UnpackError && REFUSED_BY_LIMITS.has(error.code)) return `${base.id}: ${error.message}`;
    return { ...base, verdict: 'ERROR', riskScore: 0, ms: 0, top: [], error: error instanceof Error ? error.message : String(error) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function trackReport(track: Track, mode: TrackReport['mode'], outcomes: ArtifactOutcome[]): TrackReport {
  const malicious = outcomes.filter((o) => o.label === 'malicious');
  const benignCorpus = outcomes.filter((o) => o.label === 'benign' && o.group === 'corpus');
  const benignReal = outcomes.filter((o) => o.group === 'real');
  const benignAll = [...benignCorpus, ...benignReal];
  const flagged = malicious.filter((o) => rank(o.verdict) >= 1);
  const benignFlagged = benignAll.filter((o) => rank(o.verdict) >= 1);
  const techniques: TrackReport['techniques'] = {};
  for (const o of malicious) {
    const t = (techniques[o.technique] ??= { samples: 0, flagged: 0, recall: 0 });
    t.samples++;
    if (rank(o.verdict) >= 1) t.flagged++;
  }
  for (const t of Object.values(techniques)) t.recall = t.flagged / t.samples;
  const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  const combined = rates(benignAll);
  const detectionRate = malicious.length === 0 ? 0 : flagged.length / malicious.length;
  const targets = {
    detection: malicious.length > 0 && detectionRate >= EVAL_TARGETS.minDetectionRate,
    benignBlock: combined.blockRate <= EVAL_TARGETS.maxBenignBlockRate,
    benignWarn: combined.flaggedRate <= EVAL_TARGETS.maxBenignWarnRate,
  };
  return {
    track,
    mode,
    samples: { malicious: malicious.length, benignCorpus: benignCorpus.length, benignReal: benignReal.length },
    detectionRate,
    benign: { corpus: rates(benignCorpus), real: rates(benignReal), combined },
    precision: flagged.length + benignFlagged.length === 0 ? 0 : flagged.length / (flagged.length + benignFlagged.length),
    techniques,
    timeMs: { mean: times.length === 0 ? 0 : total / times.length, p95: percentile(times, 0.95), max: times[times.length - 1] ?? 0, total, realSetTotal: benignReal.reduce((a, o) => a + o.ms, 0) },
    slowest: [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 5).map((o) => ({ id: o.id, ms: Math.round(o.ms) })),
    missed: malicious.filter((o) => rank(o.verdict) < 1).map((o) => `${o.id} (${o.verdict})`),
    belowExpected: outcomes.filter((o) => o.expected !== null && rank(o.verdict) < rank(o.expected)).map((o) => `${o.id}: ${o.verdict} < ${o.expected}`),
    benignFlagged: benignFlagged.map((o) => ({ id: o.id, verdict: o.verdict, top: o.top })),
    errors: outcomes.filter((o) => o.verdict === 'ERROR').map((o) => `${o.id}: ${o.error ?? ''}`),
    targets,
    met: targets.detection && targets.benignBlock && targets.benignWarn && !outcomes.some((o) => o.verdict === 'ERROR'),
  };
}

/**
 * Runs every track that has a reference analyzer (or, with `sandboxBundlesDir`, a built bundle)
 * and a corpus over its labelled samples, plus the real benign npm packages for `packages`.
 */
export async function runEval(options: EvalOptions): Promise<EvalReport> {
  const log = options.log ?? (() => undefined);
  const tracks = options.tracks ?? TRACKS;
  const reports: TrackReport[] = [];
  const skipped: string[] = [];
  for (const track of tracks) {
    const samples: CorpusSample[] = await loadCorpus(options.corpusRoot, track);
    let run: Runner;
    let cleanup = async () => undefined as void;
    let mode: TrackReport['mode'] = 'in-process';
    if (options.sandboxBundlesDir !== undefined && options.sandboxBundlesDir !== null) {
      const bundleFile = join(options.sandboxBundlesDir, `${track}.bundle.json`);
      try {
        const s = await sandboxRunner(bundleFile);
        run = s.runner;
        cleanup = s.cleanup;
        mode = 'sandbox';
      } catch (error) {
        skipped.push(`${track}: no usable bundle at ${bundleFile} (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); build the bundles first`);
        continue;
      }
    } else {
      const analyze = analyzerForTrack(track);
      if (analyze === null) {
        skipped.push(`${track}: no reference analyzer`);
        continue;
      }
      run = (dir, t) => analyze({ dir, track: t, bundleHash: null });
    }
    if (samples.length === 0) {
      skipped.push(`${track}: no corpus under ${join(options.corpusRoot, track)}`);
      await cleanup();
      continue;
    }
    try {
      const outcomes: ArtifactOutcome[] = [];
      for (const s of samples) outcomes.push(await measure(run, s.dir, track, { id: s.id, group: 'corpus', label: s.label, technique: s.technique, expected: s.expected }));
      log(`${track}: ${samples.length} corpus samples`);
      if (track === 'packages' && options.real !== false) {
        const real = await realBenignPackages({
          npmCacheDir: options.npmCacheDir,
          repoRoot: options.repoRoot,
          ...(options.maxNpmCacheTarballs === undefined ? {} : { maxNpmCacheTarballs: options.maxNpmCacheTarballs }),
          ...(options.maxWorkspacePackages === undefined ? {} : { maxWorkspacePackages: options.maxWorkspacePackages }),
        });
        log(`${track}: ${real.length} real packages`);
        for (const pkg of real) {
          const outcome = await runReal(run, pkg);
          if (typeof outcome === 'string') skipped.push(`${track}: real package not measured, over the unpack limits every run applies: ${outcome}`);
          else outcomes.push(outcome);
        }
      }
      reports.push(trackReport(track, mode, outcomes));
    } finally {
      await cleanup();
    }
  }
  return { format: 'vigil-agents-eval/1', generatedAt: new Date().toISOString(), node: process.version, targets: EVAL_TARGETS, tracks: reports, met: reports.length > 0 && reports.every((r) => r.met), skipped };
}
