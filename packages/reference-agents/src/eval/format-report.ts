import type { EvalReport, RateCounts } from './run-eval.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const rate = (r: RateCounts) => `${pct(r.blockRate)} / ${pct(r.warnRate)} (n=${r.samples})`;

/** The eval report as the table `pnpm --filter @vigil/reference-agents eval` prints. */
export function formatReport(report: EvalReport): string {
  const lines: string[] = [];
  for (const t of report.tracks) {
    lines.push(`== ${t.track} (${t.mode}) ${t.met ? 'targets met' : 'TARGETS MISSED'}`);
    lines.push(`samples             malicious ${t.samples.malicious}, benign look-alikes ${t.samples.benignCorpus}, real benign packages ${t.samples.benignReal}`);
    lines.push(`detection rate      ${pct(t.detectionRate)} (target ≥ ${pct(report.targets.minDetectionRate)}) ${t.targets.detection ? 'ok' : 'MISSED'}`);
    lines.push(`benign BLOCK / WARN corpus ${rate(t.benign.corpus)}; real ${rate(t.benign.real)}; combined ${rate(t.benign.combined)}`);
    lines.push(`                    targets: BLOCK ≤ ${pct(report.targets.maxBenignBlockRate)} ${t.targets.benignBlock ? 'ok' : 'MISSED'}, WARN or BLOCK ≤ ${pct(report.targets.maxBenignWarnRate)} ${t.targets.benignWarn ? 'ok' : 'MISSED'}`);
    lines.push(`precision           ${pct(t.precision)}`);
    lines.push(`time per artifact   mean ${t.timeMs.mean.toFixed(1)} ms, p95 ${t.timeMs.p95.toFixed(1)} ms, max ${t.timeMs.max.toFixed(0)} ms; total ${(t.timeMs.total / 1000).toFixed(1)} s (real set ${(t.timeMs.realSetTotal / 1000).toFixed(1)} s)`);
    lines.push(`slowest             ${t.slowest.map((x) => `${x.id} ${x.ms} ms`).join(', ')}`);
    lines.push('per-technique recall');
    for (const [technique, r] of Object.entries(t.techniques).sort(([a], [b]) => (a < b ? -1 : 1))) lines.push(`  ${technique.padEnd(40)} ${r.flagged}/${r.samples}`);
    for (const m of t.missed) lines.push(`missed: ${m}`);
    for (const b of t.belowExpected) lines.push(`below expected: ${b}`);
    for (const f of t.benignFlagged) lines.push(`benign flagged: ${f.id} ${f.verdict} — ${f.top[0] ?? ''}`);
    for (const e of t.errors) lines.push(`error: ${e}`);
    lines.push('');
  }
  for (const s of report.skipped) lines.push(`skipped ${s}`);
  return lines.join('\n');
}
