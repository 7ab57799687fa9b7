import { describe, expect, it } from 'vitest';
import { compareOutcomes, formatComparison } from './compare-reports.js';
import type { ExternalOutcome } from './run-external-eval.js';

const o = (id: string, label: 'malicious' | 'benign', verdict: ExternalOutcome['verdict']): ExternalOutcome => ({ id, group: 'public', corpus: 'guarddog', label, technique: 'obfuscation', source: 'x', standing: 'clear', verdict, riskScore: 0, ms: 1, top: [] });

describe('compareOutcomes', () => {
  it('lists each sample a change fixed or broke', () => {
    const before = [o('a', 'malicious', 'ALLOW'), o('b', 'malicious', 'WARN'), o('c', 'benign', 'ALLOW'), o('d', 'benign', 'WARN'), o('e', 'benign', 'WARN'), o('gone', 'benign', 'ALLOW')];
    const after = [o('a', 'malicious', 'BLOCK'), o('b', 'malicious', 'ALLOW'), o('c', 'benign', 'WARN'), o('d', 'benign', 'ALLOW'), o('e', 'benign', 'BLOCK'), o('new', 'malicious', 'ALLOW')];
    const c = compareOutcomes(before, after);
    expect(c.caught.map((x) => x.id)).toEqual(['a']);
    expect(c.lost.map((x) => x.id)).toEqual(['b']);
    expect(c.newFalsePositives.map((x) => `${x.id}:${x.before}->${x.after}`)).toEqual(['c:ALLOW->WARN', 'e:WARN->BLOCK']);
    expect(c.clearedFalsePositives.map((x) => x.id)).toEqual(['d']);
    expect(c.onlyBefore).toEqual(['gone']);
    expect(c.onlyAfter).toEqual(['new']);
    expect(formatComparison(c, 'baseline.json')).toContain('- `a` ALLOW → BLOCK');
  });
});
