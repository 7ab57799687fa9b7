import type { RateCounts } from '../run-eval.js';
import type { DetectionCounts, ExternalOutcome, ExternalReport } from './run-external-eval.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const det = (d: DetectionCounts) => (d.samples === 0 ? '–' : `${pct(d.rate)} (${d.flagged}/${d.samples}; ${d.block} BLOCK, ${d.warn} WARN)`);
const fp = (r: RateCounts) => (r.samples === 0 ? '–' : `${pct(r.blockRate)} BLOCK (${r.block}), ${pct(r.flaggedRate)} WARN or BLOCK (${r.block + r.warn}) of ${r.samples}`);
const ok = (b: boolean) => (b ? 'met' : '**missed**');
// Table cells and list items hold sample text: keep a `|` or a line break from breaking the table.
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

function outcomeLine(o: ExternalOutcome): string {
  const why = o.standing === 'clear' ? '' : ` — *${o.standing}: ${cell(o.reason ?? '')}*`;
  return `- \`${o.id}\` ${o.verdict} ${o.riskScore} · ${o.technique}${o.rule === undefined ? '' : ` (${o.rule})`} · ${o.source}${why}`;
}

/**
 * The external eval as Markdown: a summary table, then per track the corpora, the technique
 * families, every false positive with its top findings and every missed malicious sample, so a
 * person can check each one.
 */
export function formatExternalReport(report: ExternalReport): string {
  const lines: string[] = [];
  lines.push('# External eval of the reference agents');
  lines.push('');
  lines.push(`Generated ${report.generatedAt} with Node ${report.node} by \`pnpm --filter @vigil/reference-agents eval:external\` (in-process analyzers).`);
  lines.push(
    `Targets per track: ≥ ${pct(report.targets.minPublicDetectionRate)} of the public corpora's malicious samples flagged (clear labels; doubtful labels and out-of-scope samples apart), ≤ ${pct(report.targets.maxBenignBlockRate)} of the real benign set BLOCKed, ≤ ${pct(report.targets.maxBenignWarnRate)} WARNed or BLOCKed.`,
  );
  lines.push('');
  lines.push('| track | public malicious flagged (clear) | doubtful labels flagged | out of scope flagged | public benign flagged | real benign | time per artifact mean / p95 (real set) | targets |');
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const t of report.tracks) {
    lines.push(
      `| ${t.track} | ${det(t.detection.clear)} | ${det(t.detection.doubtful)} | ${det(t.detection.outOfScope)} | ${fp(t.publicBenign)} | ${fp(t.realBenign)} | ${t.timeMs.mean.toFixed(0)} / ${t.timeMs.p95.toFixed(0)} ms (${t.timeMs.realMean.toFixed(0)} / ${t.timeMs.realP95.toFixed(0)} ms) | detection ${ok(t.targets.publicDetection)}, BLOCK ${ok(t.targets.realBlock)}, WARN ${ok(t.targets.realWarn)} |`,
    );
  }
  for (const t of report.tracks) {
    lines.push('');
    lines.push(`## ${t.track}`);
    lines.push('');
    lines.push('| corpus | malicious flagged (clear) | doubtful labels flagged | benign samples flagged |');
    lines.push('|---|---|---|---|');
    for (const [corpus, c] of Object.entries(t.corpora)) lines.push(`| ${corpus} | ${det(c.detection)} | ${det(c.doubtful)} | ${fp(c.benign)} |`);
    lines.push(`| real benign set | – | – | ${fp(t.realBenign)} |`);
    lines.push('');
    lines.push('| technique family | clear labels flagged | doubtful labels flagged | out of scope flagged |');
    lines.push('|---|---|---|---|');
    for (const [family, f] of Object.entries(t.families)) lines.push(`| ${family} | ${det(f.clear)} | ${det(f.doubtful)} | ${det(f.outOfScope)} |`);
    lines.push('');
    lines.push('| public corpus: rule or category | clear labels flagged | doubtful labels flagged | out of scope flagged |');
    lines.push('|---|---|---|---|');
    for (const [rule, f] of Object.entries(t.rules)) lines.push(`| ${rule} | ${det(f.clear)} | ${det(f.doubtful)} | ${det(f.outOfScope)} |`);
    lines.push('');
    lines.push(`Time per artifact: mean ${t.timeMs.mean.toFixed(1)} ms, p95 ${t.timeMs.p95.toFixed(1)} ms, max ${t.timeMs.max.toFixed(0)} ms, total ${(t.timeMs.total / 1000).toFixed(1)} s; real set mean ${t.timeMs.realMean.toFixed(1)} ms, p95 ${t.timeMs.realP95.toFixed(1)} ms. Slowest: ${t.slowest.map((s) => `\`${s.id}\` ${s.ms} ms`).join(', ')}.`);
    lines.push('');
    lines.push(`### False positives (${t.falsePositives.length}): every benign sample flagged`);
    lines.push('');
    if (t.falsePositives.length === 0) lines.push('None.');
    for (const o of t.falsePositives) {
      lines.push(outcomeLine(o));
      for (const f of o.top) lines.push(`  - ${cell(f)}`);
    }
    lines.push('');
    const clearMissed = t.missed.filter((o) => o.standing === 'clear');
    const otherMissed = t.missed.filter((o) => o.standing !== 'clear');
    lines.push(`### Missed malicious samples, clear labels (${clearMissed.length})`);
    lines.push('');
    if (clearMissed.length === 0) lines.push('None.');
    for (const o of clearMissed) lines.push(outcomeLine(o));
    lines.push('');
    lines.push(`### Missed malicious samples, doubtful labels or out of scope (${otherMissed.length})`);
    lines.push('');
    if (otherMissed.length === 0) lines.push('None.');
    for (const o of otherMissed) lines.push(outcomeLine(o));
    if (t.errors.length > 0) {
      lines.push('');
      lines.push(`### Errors (${t.errors.length})`);
      lines.push('');
      for (const e of t.errors) lines.push(`- ${cell(e)}`);
    }
  }
  lines.push('');
  return lines.join('\n');
}
