import { TRACKS, type AgentResult, type Track, type Verdict } from '@vigil/core';
import { analyzerForTrack } from '../../reference/analyzer-for-track.js';
import type { RateCounts } from '../run-eval.js';
import { loadExternalSamples, type ExternalSample } from './external-sample.js';

/** The targets of issue 24 on the external eval, per track. */
export const EXTERNAL_TARGETS = { minPublicDetectionRate: 0.85, maxBenignBlockRate: 0.02, maxBenignWarnRate: 0.1 } as const;

export interface ExternalOutcome {
  id: string;
  group: 'public' | 'real';
  corpus: string;
  label: 'malicious' | 'benign';
  technique: string;
  rule?: string;
  source: string;
  /** `clear`, `doubtful` (with the reason) or `out-of-scope` (with the reason). */
  standing: 'clear' | 'doubtful' | 'out-of-scope';
  reason?: string;
  verdict: Verdict | 'ERROR';
  riskScore: number;
  ms: number;
  /** The most severe findings, `SEVERITY category: title @ file:line`. */
  top: string[];
  error?: string;
}

export interface DetectionCounts {
  samples: number;
  /** WARN or BLOCK. */
  flagged: number;
  block: number;
  warn: number;
  /** flagged ÷ samples (0 with no samples). */
  rate: number;
}

export interface ExternalTrackReport {
  track: Track;
  /** Malicious samples of the public corpora: clear labels, doubtful labels, out of scope. */
  detection: { clear: DetectionCounts; doubtful: DetectionCounts; outOfScope: DetectionCounts };
  /** Per technique family: the same three counts. */
  families: Record<string, { clear: DetectionCounts; doubtful: DetectionCounts; outOfScope: DetectionCounts }>;
  /** Per label of the public corpus (`<corpus>:<rule or category>`): the same three counts. */
  rules: Record<string, { clear: DetectionCounts; doubtful: DetectionCounts; outOfScope: DetectionCounts }>;
  /** Per public corpus: detection on clear labels and the rates on its benign samples. */
  corpora: Record<string, { detection: DetectionCounts; doubtful: DetectionCounts; benign: RateCounts }>;
  /** The public corpora's benign samples (test look-alikes, example servers and skills). */
  publicBenign: RateCounts;
  /** The real benign set of the track. */
  realBenign: RateCounts;
  timeMs: { mean: number; p95: number; max: number; total: number; realMean: number; realP95: number };
  slowest: { id: string; ms: number }[];
  /** Every malicious sample not flagged. */
  missed: ExternalOutcome[];
  /** Every benign sample flagged WARN or BLOCK (public look-alikes and the real set). */
  falsePositives: ExternalOutcome[];
  errors: string[];
  targets: { publicDetection: boolean; realBlock: boolean; realWarn: boolean };
  met: boolean;
}

export interface ExternalReport {
  format: 'vigil-agents-external-eval/1';
  generatedAt: string;
  node: string;
  cacheDir: string;
  targets: typeof EXTERNAL_TARGETS;
  tracks: ExternalTrackReport[];
  outcomes: ExternalOutcome[];
  met: boolean;
}

const rank = (v: Verdict | 'ERROR') => (v === 'BLOCK' ? 2 : v === 'WARN' ? 1 : 0);

export function detectionCounts(outcomes: readonly ExternalOutcome[]): DetectionCounts {
  const block = outcomes.filter((o) => o.verdict === 'BLOCK').length;
  const warn = outcomes.filter((o) => o.verdict === 'WARN').length;
  return { samples: outcomes.length, flagged: block + warn, block, warn, rate: outcomes.length === 0 ? 0 : (block + warn) / outcomes.length };
}

export function rateCounts(outcomes: readonly ExternalOutcome[]): RateCounts {
  const d = detectionCounts(outcomes);
  const n = d.samples;
  return { samples: n, block: d.block, warn: d.warn, blockRate: n === 0 ? 0 : d.block / n, warnRate: n === 0 ? 0 : d.warn / n, flaggedRate: d.rate };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

function topFindings(result: AgentResult): string[] {
  return result.findings.slice(0, 4).map((f) => `${f.severity} ${f.category}: ${f.title} @ ${f.file}${f.line === undefined ? '' : `:${f.line}`}`);
}

/** The standing of a sample's label: doubtful and out-of-scope samples are counted apart. */
function standingOf(s: ExternalSample): Pick<ExternalOutcome, 'standing' | 'reason'> {
  if (s.outOfScope !== undefined) return { standing: 'out-of-scope', reason: s.outOfScope };
  if (s.doubtful === true) return { standing: 'doubtful', ...(s.doubtReason === undefined ? {} : { reason: s.doubtReason }) };
  return { standing: 'clear' };
}

/** Builds one track's report from its outcomes (pure: the tests call it on made-up outcomes). */
export function externalTrackReport(track: Track, outcomes: readonly ExternalOutcome[]): ExternalTrackReport {
  const malicious = outcomes.filter((o) => o.label === 'malicious' && o.group === 'public');
  const by = (xs: readonly ExternalOutcome[], standing: ExternalOutcome['standing']) => detectionCounts(xs.filter((o) => o.standing === standing));
  const families: ExternalTrackReport['families'] = {};
  for (const family of [...new Set(malicious.map((o) => o.technique))].sort()) {
    const xs = malicious.filter((o) => o.technique === family);
    families[family] = { clear: by(xs, 'clear'), doubtful: by(xs, 'doubtful'), outOfScope: by(xs, 'out-of-scope') };
  }
  const rules: ExternalTrackReport['rules'] = {};
  const ruleOf = (o: ExternalOutcome) => `${o.corpus}:${o.rule ?? o.technique}`;
  for (const rule of [...new Set(malicious.map(ruleOf))].sort()) {
    const xs = malicious.filter((o) => ruleOf(o) === rule);
    rules[rule] = { clear: by(xs, 'clear'), doubtful: by(xs, 'doubtful'), outOfScope: by(xs, 'out-of-scope') };
  }
  const corpora: ExternalTrackReport['corpora'] = {};
  for (const corpus of [...new Set(outcomes.filter((o) => o.group === 'public').map((o) => o.corpus))].sort()) {
    const xs = outcomes.filter((o) => o.group === 'public' && o.corpus === corpus);
    const mal = xs.filter((o) => o.label === 'malicious');
    corpora[corpus] = { detection: by(mal, 'clear'), doubtful: by(mal, 'doubtful'), benign: rateCounts(xs.filter((o) => o.label === 'benign')) };
  }
  const publicBenign = rateCounts(outcomes.filter((o) => o.group === 'public' && o.label === 'benign'));
  const real = outcomes.filter((o) => o.group === 'real');
  const realBenign = rateCounts(real);
  const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const realTimes = real.map((o) => o.ms).sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  const clear = by(malicious, 'clear');
  const targets = {
    publicDetection: clear.samples > 0 && clear.rate >= EXTERNAL_TARGETS.minPublicDetectionRate,
    // With no real benign sample of the track, its rates are not measured: not met.
    realBlock: realBenign.samples > 0 && realBenign.blockRate <= EXTERNAL_TARGETS.maxBenignBlockRate,
    realWarn: realBenign.samples > 0 && realBenign.flaggedRate <= EXTERNAL_TARGETS.maxBenignWarnRate,
  };
  const errors = outcomes.filter((o) => o.verdict === 'ERROR');
  return {
    track,
    detection: { clear, doubtful: by(malicious, 'doubtful'), outOfScope: by(malicious, 'out-of-scope') },
    families,
    rules,
    corpora,
    publicBenign,
    realBenign,
    timeMs: {
      mean: times.length === 0 ? 0 : total / times.length,
      p95: percentile(times, 0.95),
      max: times[times.length - 1] ?? 0,
      total,
      realMean: realTimes.length === 0 ? 0 : realTimes.reduce((a, b) => a + b, 0) / realTimes.length,
      realP95: percentile(realTimes, 0.95),
    },
    slowest: [...outcomes]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((o) => ({ id: o.id, ms: Math.round(o.ms) })),
    missed: malicious.filter((o) => rank(o.verdict) < 1),
    falsePositives: outcomes.filter((o) => o.label === 'benign' && rank(o.verdict) >= 1),
    errors: errors.map((o) => `${o.id}: ${o.error ?? ''}`),
    targets,
    met: targets.publicDetection && targets.realBlock && targets.realWarn && errors.length === 0,
  };
}

export interface ExternalEvalOptions {
  cacheDir: string;
  tracks?: readonly Track[];
  /** Which groups to run (default both). */
  groups?: readonly ('public' | 'real')[];
  /** Only samples of these corpora (`guarddog`, `real-npm`, …); all when absent. */
  corpora?: readonly string[];
  log?: (line: string) => void;
}

/**
 * Runs each track's reference analyzer in-process over the samples built into the cache (public
 * corpora and real benign set), one artifact at a time, and reports per track.
 */
export async function runExternalEval(options: ExternalEvalOptions): Promise<ExternalReport> {
  const log = options.log ?? (() => undefined);
  const tracks = options.tracks ?? TRACKS;
  const groups = options.groups ?? ['public', 'real'];
  const reports: ExternalTrackReport[] = [];
  const all: ExternalOutcome[] = [];
  for (const track of tracks) {
    const analyze = analyzerForTrack(track);
    if (analyze === null) continue;
    const samples: { s: ExternalSample; group: 'public' | 'real' }[] = [];
    for (const group of groups) for (const s of await loadExternalSamples(options.cacheDir, group, [track])) if (options.corpora === undefined || options.corpora.includes(s.corpus)) samples.push({ s, group });
    if (samples.length === 0) continue;
    const outcomes: ExternalOutcome[] = [];
    let done = 0;
    for (const { s, group } of samples) {
      const base = { id: s.id, group, corpus: s.corpus, label: s.label, technique: s.technique, ...(s.rule === undefined ? {} : { rule: s.rule }), source: s.source, ...standingOf(s) };
      const started = performance.now();
      try {
        const result = await analyze({ dir: s.dir, track, bundleHash: null });
        outcomes.push({ ...base, verdict: result.verdict, riskScore: result.risk_score, ms: performance.now() - started, top: topFindings(result) });
      } catch (error) {
        outcomes.push({ ...base, verdict: 'ERROR', riskScore: 0, ms: performance.now() - started, top: [], error: error instanceof Error ? error.message : String(error) });
      }
      if (++done % 100 === 0) log(`${track}: ${done}/${samples.length}`);
    }
    log(`${track}: ${samples.length} samples`);
    reports.push(externalTrackReport(track, outcomes));
    all.push(...outcomes);
  }
  return {
    format: 'vigil-agents-external-eval/1',
    generatedAt: new Date().toISOString(),
    node: process.version,
    cacheDir: options.cacheDir,
    targets: EXTERNAL_TARGETS,
    tracks: reports,
    outcomes: all,
    met: reports.length > 0 && reports.every((r) => r.met),
  };
}
