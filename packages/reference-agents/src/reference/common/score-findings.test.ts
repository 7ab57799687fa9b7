import { describe, expect, it } from 'vitest';
import { referenceFinding } from './reference-finding.js';
import { resultFromFindings } from './score-findings.js';

const f = (severity: 'CRIT' | 'HIGH' | 'MED' | 'LOW', title: string, file = 'index.js') =>
  referenceFinding({ category: 'exfiltration', severity, title, file });

describe('resultFromFindings', () => {
  it('allows an artifact with no findings', () => {
    expect(resultFromFindings([])).toEqual({ verdict: 'ALLOW', risk_score: 0, findings: [] });
  });
  it('blocks on one critical finding and on two distinct high ones, warns on one high', () => {
    expect(resultFromFindings([f('CRIT', 'a')]).verdict).toBe('BLOCK');
    expect(resultFromFindings([f('HIGH', 'a'), f('HIGH', 'b')]).verdict).toBe('BLOCK');
    expect(resultFromFindings([f('HIGH', 'a')])).toMatchObject({ verdict: 'WARN', risk_score: 50 });
  });
  it('counts one pattern matched in many files once', () => {
    const many = Array.from({ length: 30 }, (_, i) => f('HIGH', 'same', `f${i}.js`));
    const r = resultFromFindings(many);
    expect(r.verdict).toBe('WARN');
    expect(r.findings).toHaveLength(30);
  });
  it('never lets low findings alone warn, and sorts the most severe first', () => {
    const r = resultFromFindings([f('LOW', 'a'), f('LOW', 'b'), f('LOW', 'c'), f('MED', 'd')]);
    expect(r.verdict).toBe('ALLOW');
    expect(r.findings[0]?.severity).toBe('MED');
  });
  it('keeps at most 200 findings and clips long evidence', () => {
    const many = Array.from({ length: 250 }, (_, i) => f('LOW', `t${i}`));
    expect(resultFromFindings(many).findings).toHaveLength(200);
    const long = referenceFinding({ category: 'x', severity: 'LOW', title: 't', file: 'a', evidence: 'y'.repeat(5000), line: 0 });
    expect(long.evidence).toHaveLength(1024);
    expect(long.line).toBeUndefined();
  });
});

describe('resultFromFindings corroboration', () => {
  const g = (category: string, severity: 'HIGH' | 'MED' | 'LOW', title: string) => referenceFinding({ category, severity, title, file: 'f' });
  it('blocks one HIGH finding with a MED step of an attack of another category', () => {
    expect(resultFromFindings([g('malware', 'HIGH', 'a'), g('obfuscation', 'MED', 'b')])).toMatchObject({ verdict: 'BLOCK', risk_score: 70 });
    expect(resultFromFindings([g('tool_poisoning', 'HIGH', 'a'), g('exfiltration', 'MED', 'b')]).verdict).toBe('BLOCK');
  });
  it('leaves it at WARN when the second finding is of the same category, not a step of an attack, or only LOW', () => {
    expect(resultFromFindings([g('exfiltration', 'HIGH', 'a'), g('exfiltration', 'MED', 'b')]).verdict).toBe('WARN');
    expect(resultFromFindings([g('malware', 'HIGH', 'a'), g('metadata', 'MED', 'b')]).verdict).toBe('WARN');
    expect(resultFromFindings([g('malware', 'HIGH', 'a'), g('credential_access', 'LOW', 'b')]).verdict).toBe('WARN');
  });
  it('leaves it at WARN when the HIGH is a flaw (a vulnerability), not a step the artifact takes', () => {
    // An SQLite server: "writes its input into a database query (injection)" beside a MED network step.
    const injection = g('vulnerability', 'HIGH', 'tool writes its input into the text of a database, directory or XPath query (injection)');
    expect(resultFromFindings([injection, g('exfiltration', 'MED', 'tool makes network calls its description does not mention')])).toMatchObject({ verdict: 'WARN', risk_score: 62 });
    // The flaw still counts as the MED step of another HIGH's attack.
    expect(resultFromFindings([g('malware', 'HIGH', 'a'), g('vulnerability', 'HIGH', 'b')]).verdict).toBe('BLOCK');
  });
});

describe('resultFromFindings rounding', () => {
  it('does not let a low finding tip two medium ones into WARN', () => {
    const r = resultFromFindings([
      referenceFinding({ category: 'a', severity: 'MED', title: 'x', file: 'f' }),
      referenceFinding({ category: 'b', severity: 'MED', title: 'y', file: 'f' }),
      referenceFinding({ category: 'tool_manifest', severity: 'LOW', title: 'z', file: 'f' }),
    ]);
    expect(r).toMatchObject({ verdict: 'ALLOW', risk_score: 39 });
  });
});
