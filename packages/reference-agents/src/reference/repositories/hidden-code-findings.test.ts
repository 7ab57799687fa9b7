import { describe, expect, it } from 'vitest';
import { hiddenCodeFindings } from './hidden-code-findings.js';

describe('hiddenCodeFindings', () => {
  it('reports a loader pushed off-screen by whitespace, at LOW in test paths or when it runs nothing', () => {
    const text = `const a = 1;\nmodule.exports = a;${' '.repeat(200)}eval(atob('Y29uc29sZS5sb2coMSk='))\n`;
    expect(hiddenCodeFindings('vite.config.js', text, false)).toMatchObject([{ severity: 'HIGH', line: 2, title: 'code that loads or runs code is hidden after a long run of whitespace' }]);
    expect(hiddenCodeFindings('tests/x.js', text, true)[0]!.severity).toBe('LOW');
    expect(hiddenCodeFindings('a.js', `x = 1;${' '.repeat(200)}counter.increment(2);\n`, false)).toMatchObject([{ severity: 'LOW', title: 'code is hidden after a long run of whitespace' }]);
  });

  it('ignores padding that ends in a comment and short runs', () => {
    expect(hiddenCodeFindings('t.js', `[1, 2],${' '.repeat(200)}// note\n`, false)).toEqual([]);
    expect(hiddenCodeFindings('t.js', `a;${' '.repeat(40)}eval(x)\n`, false)).toEqual([]);
  });
});
