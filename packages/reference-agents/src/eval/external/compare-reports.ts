import type { ExternalOutcome } from './run-external-eval.js';

export interface OutcomeChange {
  id: string;
  label: 'malicious' | 'benign';
  standing: ExternalOutcome['standing'];
  before: ExternalOutcome['verdict'];
  after: ExternalOutcome['verdict'];
}

export interface ReportComparison {
  /** Malicious samples now flagged that were not. */
  caught: OutcomeChange[];
  /** Malicious samples no longer flagged. */
  lost: OutcomeChange[];
  /** Benign samples now flagged (new false positives) or flagged more severely. */
  newFalsePositives: OutcomeChange[];
  /** Benign samples no longer flagged. */
  clearedFalsePositives: OutcomeChange[];
  /** Samples in only one of the two runs. */
  onlyBefore: string[];
  onlyAfter: string[];
}

const rank = (v: ExternalOutcome['verdict']) => (v === 'BLOCK' ? 2 : v === 'WARN' ? 1 : 0);

/**
 * What changed between two runs of the external eval, sample by sample: the run of a rule change
 * against the baseline, so a person sees each sample it fixed or broke rather than a rate alone.
 */
export function compareOutcomes(before: readonly ExternalOutcome[], after: readonly ExternalOutcome[]): ReportComparison {
  const prev = new Map(before.map((o) => [o.id, o]));
  const next = new Map(after.map((o) => [o.id, o]));
  const out: ReportComparison = { caught: [], lost: [], newFalsePositives: [], clearedFalsePositives: [], onlyBefore: [], onlyAfter: [] };
  for (const o of after) {
    const p = prev.get(o.id);
    if (p === undefined) {
      out.onlyAfter.push(o.id);
      continue;
    }
    const change: OutcomeChange = { id: o.id, label: o.label, standing: o.standing, before: p.verdict, after: o.verdict };
    const was = rank(p.verdict);
    const is = rank(o.verdict);
    if (o.label === 'malicious') {
      if (was === 0 && is >= 1) out.caught.push(change);
      else if (was >= 1 && is === 0) out.lost.push(change);
    } else if (is > was) out.newFalsePositives.push(change);
    else if (was >= 1 && is === 0) out.clearedFalsePositives.push(change);
  }
  for (const o of before) if (!next.has(o.id)) out.onlyBefore.push(o.id);
  return out;
}

/** The comparison as Markdown, one line per changed sample. */
export function formatComparison(c: ReportComparison, against: string): string {
  const lines = [`## Changes against ${against}`, ''];
  const section = (title: string, xs: OutcomeChange[]) => {
    lines.push(`### ${title} (${xs.length})`, '');
    for (const x of xs) lines.push(`- \`${x.id}\` ${x.before} → ${x.after}${x.standing === 'clear' ? '' : ` (${x.standing})`}`);
    if (xs.length === 0) lines.push('None.');
    lines.push('');
  };
  section('Malicious samples now flagged', c.caught);
  section('Malicious samples no longer flagged', c.lost);
  section('Benign samples newly flagged or flagged more severely', c.newFalsePositives);
  section('Benign samples no longer flagged', c.clearedFalsePositives);
  lines.push(`Samples only in the earlier run: ${c.onlyBefore.length}; only in this run: ${c.onlyAfter.length}.`, '');
  return lines.join('\n');
}
