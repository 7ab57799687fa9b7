import { describe, expect, it } from 'vitest';
import { groupFindings, type ReportedFinding } from './findings.js';

const finding = (severity: ReportedFinding['severity'], title: string, canonical_hash: string, file = 'index.js'): ReportedFinding => ({
  type: 'static',
  category: 'exfiltration',
  severity,
  title,
  file,
  canonical_hash,
});

describe('groupFindings', () => {
  it('one line per finding however many validators reported it, most severe first', () => {
    const grouped = groupFindings([
      finding('LOW', 'Telemetry call', 'a'),
      finding('HIGH', 'Reads ~/.ssh', 'a'),
      finding('CRIT', 'Posts env to a remote host', 'a'),
      finding('HIGH', 'Reads ~/.ssh', 'b'),
      finding('CRIT', 'Posts env to a remote host', 'b'),
      finding('CRIT', 'Posts env to a remote host', 'c'),
      finding('MED', 'Obfuscated string', 'b'),
      finding('HIGH', 'Reads ~/.ssh', 'b', 'lib/ssh.js'),
    ]);
    expect(grouped.map((f) => [f.severity, f.title, f.file, f.reports])).toEqual([
      ['CRIT', 'Posts env to a remote host', 'index.js', 3],
      ['HIGH', 'Reads ~/.ssh', 'index.js', 2],
      ['HIGH', 'Reads ~/.ssh', 'lib/ssh.js', 1],
      ['MED', 'Obfuscated string', 'index.js', 1],
      ['LOW', 'Telemetry call', 'index.js', 1],
    ]);
  });

  it('the same finding twice in one attestation is one report', () => {
    expect(groupFindings([finding('HIGH', 'x', 'a'), finding('HIGH', 'x', 'a')]).map((f) => f.reports)).toEqual([1]);
    expect(groupFindings([])).toEqual([]);
  });
});
