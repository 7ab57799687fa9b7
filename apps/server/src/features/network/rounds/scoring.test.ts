import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '@vigil/core';
import { addToTally, balancedAccuracyScore, emptyTally, median, publishedVerdict } from './scoring.js';

const VERDICTS: Verdict[] = ['ALLOW', 'WARN', 'BLOCK'];

function scoreOf(pairs: [Verdict, Verdict][]): number | null {
  const tally = emptyTally();
  for (const [truth, verdict] of pairs) addToTally(tally, truth, verdict);
  return balancedAccuracyScore(tally);
}

describe('balancedAccuracyScore', () => {
  const labeled: Verdict[] = ['BLOCK', 'WARN', 'WARN', 'ALLOW', 'ALLOW', 'ALLOW', 'ALLOW'];

  it('gives 0 to every constant answer and 1 to a perfect agent', () => {
    for (const constant of VERDICTS) expect(scoreOf(labeled.map((t) => [t, constant]))).toBe(0);
    expect(scoreOf(labeled.map((t) => [t, t]))).toBe(1);
  });

  it('counts WARN and BLOCK alike as flagging a malicious artifact', () => {
    expect(scoreOf(labeled.map((t) => [t, t === 'ALLOW' ? 'ALLOW' : t === 'BLOCK' ? 'WARN' : 'BLOCK']))).toBe(1);
  });

  it('is 2 × balanced accuracy − 1, floored at 0', () => {
    // malicious recall 2/3, benign recall 3/4 → BA 17/24 → 10/24.
    const pairs: [Verdict, Verdict][] = [
      ['BLOCK', 'BLOCK'], ['WARN', 'WARN'], ['WARN', 'ALLOW'],
      ['ALLOW', 'ALLOW'], ['ALLOW', 'ALLOW'], ['ALLOW', 'ALLOW'], ['ALLOW', 'BLOCK'],
    ];
    expect(scoreOf(pairs)).toBeCloseTo(10 / 24, 12);
    // Worse than chance (inverted answers) floors at 0.
    expect(scoreOf(labeled.map((t) => [t, t === 'ALLOW' ? 'BLOCK' : 'ALLOW']))).toBe(0);
  });

  it('is null without both classes', () => {
    expect(scoreOf([['BLOCK', 'BLOCK']])).toBeNull();
    expect(scoreOf([['ALLOW', 'ALLOW']])).toBeNull();
    expect(balancedAccuracyScore(emptyTally())).toBeNull();
  });

  it('always lies in [0, 1]', () => {
    const verdict = fc.constantFrom<Verdict>(...VERDICTS);
    fc.assert(
      fc.property(fc.array(fc.tuple(verdict, verdict), { minLength: 1, maxLength: 60 }), (pairs) => {
        const score = scoreOf(pairs);
        return score === null || (score >= 0 && score <= 1);
      }),
    );
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([0.5, 1])).toBe(0.75);
    expect(() => median([])).toThrow(/^values:/);
  });
});

describe('publishedVerdict', () => {
  it('takes the most frequent verdict and the median risk of its votes', () => {
    expect(
      publishedVerdict([
        { verdict: 'WARN', riskScore: 40 },
        { verdict: 'BLOCK', riskScore: 99 },
        { verdict: 'WARN', riskScore: 61 },
      ]),
    ).toEqual({ verdict: 'WARN', riskScore: 51 });
  });

  it('breaks ties toward the more severe verdict', () => {
    expect(publishedVerdict([{ verdict: 'ALLOW', riskScore: 1 }, { verdict: 'BLOCK', riskScore: 90 }]).verdict).toBe('BLOCK');
    expect(publishedVerdict([{ verdict: 'WARN', riskScore: 50 }, { verdict: 'ALLOW', riskScore: 2 }]).verdict).toBe('WARN');
    expect(() => publishedVerdict([])).toThrow(/^votes:/);
  });
});
