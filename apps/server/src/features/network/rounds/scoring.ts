import type { Verdict } from '@vigil/core';

/** One validator's tallies of an agent's verdicts on labeled artifacts. */
export interface LabeledTally {
  /** Labeled artifacts whose ground truth is WARN or BLOCK. */
  malicious: number;
  /** ...of which the agent answered WARN or BLOCK. */
  maliciousFlagged: number;
  /** Labeled artifacts whose ground truth is ALLOW. */
  benign: number;
  /** ...of which the agent answered ALLOW. */
  benignAllowed: number;
}

export function emptyTally(): LabeledTally {
  return { malicious: 0, maliciousFlagged: 0, benign: 0, benignAllowed: 0 };
}

export function isFlagged(verdict: Verdict): boolean {
  return verdict !== 'ALLOW';
}

export function addToTally(tally: LabeledTally, groundTruth: Verdict, verdict: Verdict): void {
  if (isFlagged(groundTruth)) {
    tally.malicious += 1;
    if (isFlagged(verdict)) tally.maliciousFlagged += 1;
  } else {
    tally.benign += 1;
    if (!isFlagged(verdict)) tally.benignAllowed += 1;
  }
}

/**
 * max(0, 2 × balanced accuracy − 1), balanced accuracy being the mean of the recall on malicious and
 * the recall on benign artifacts. Answering one verdict for everything scores 0, a perfect agent 1.
 * Null when the tally lacks either class: the score would then reward exactly that constant answer.
 */
export function balancedAccuracyScore(tally: LabeledTally): number | null {
  if (tally.malicious === 0 || tally.benign === 0) return null;
  const balanced = (tally.maliciousFlagged / tally.malicious + tally.benignAllowed / tally.benign) / 2;
  return Math.max(0, 2 * balanced - 1);
}

/** Median of a non-empty list (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('values: median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const SEVERITY_ORDER: Record<Verdict, number> = { ALLOW: 0, WARN: 1, BLOCK: 2 };

/**
 * The verdict published for a live artifact from the winners' attestations: the most frequent
 * verdict, a tie going to the more severe one; its risk score is the rounded median of the risk
 * scores of the attestations that gave it.
 */
export function publishedVerdict(votes: readonly { verdict: Verdict; riskScore: number }[]): {
  verdict: Verdict;
  riskScore: number;
} {
  if (votes.length === 0) throw new RangeError('votes: no attestations to publish from');
  const counts = new Map<Verdict, number>();
  for (const v of votes) counts.set(v.verdict, (counts.get(v.verdict) ?? 0) + 1);
  let best: Verdict = 'ALLOW';
  let bestCount = -1;
  for (const [verdict, count] of counts) {
    if (count > bestCount || (count === bestCount && SEVERITY_ORDER[verdict] > SEVERITY_ORDER[best])) {
      best = verdict;
      bestCount = count;
    }
  }
  const risk = median(votes.filter((v) => v.verdict === best).map((v) => v.riskScore));
  return { verdict: best, riskScore: Math.round(risk) };
}
