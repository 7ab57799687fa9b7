import { SEVERITIES, type Severity } from '@vigil/core';

export interface ReportedFinding {
  type: string;
  category: string;
  severity: Severity;
  title: string;
  file: string;
  /** The attestation that reported it. */
  canonical_hash: string;
}

export interface GroupedFinding {
  type: string;
  category: string;
  severity: Severity;
  title: string;
  file: string;
  /** How many of the attestations behind the verdict reported it (each is one validator's). */
  reports: number;
}

/**
 * An artifact's findings as a reader wants them: one line per finding however many validators
 * reported it (same type, category, severity, title and file), most severe first, then by title
 * and file.
 */
export function groupFindings(findings: readonly ReportedFinding[]): GroupedFinding[] {
  const groups = new Map<string, { finding: GroupedFinding; hashes: Set<string> }>();
  for (const f of findings) {
    const key = JSON.stringify([f.severity, f.type, f.category, f.title, f.file]);
    let group = groups.get(key);
    if (!group) {
      group = { finding: { type: f.type, category: f.category, severity: f.severity, title: f.title, file: f.file, reports: 0 }, hashes: new Set() };
      groups.set(key, group);
    }
    group.hashes.add(f.canonical_hash);
    group.finding.reports = group.hashes.size;
  }
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  return [...groups.values()]
    .map((g) => g.finding)
    .sort((a, b) => rank(a.severity) - rank(b.severity) || compare(a.title, b.title) || compare(a.file, b.file) || compare(a.category, b.category) || compare(a.type, b.type));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
