import { describe, expect, it } from 'vitest';
import { corpusRates } from '../../test-support/corpus-rates.js';
import { analyzeSkill } from './analyze-skill.js';

describe('skills corpus (packages/reference-agents/eval/corpus/skills)', () => {
  it('flags ≥ 95% of the malicious samples, WARNs ≤ 10% and BLOCKs ≤ 2% of the benign look-alikes', async () => {
    const rates = await corpusRates('skills', analyzeSkill);
    expect(rates.malicious).toBeGreaterThanOrEqual(25);
    expect(rates.benign).toBeGreaterThanOrEqual(15);
    expect(rates.missed, 'malicious samples left ALLOW').toEqual([]);
    expect(rates.detectionRate).toBeGreaterThanOrEqual(0.95);
    expect(rates.benignWarnRate).toBeLessThanOrEqual(0.1);
    expect(rates.benignBlockRate).toBeLessThanOrEqual(0.02);
    expect(rates.belowExpected, 'samples below their expected verdict').toEqual([]);
  });
});
