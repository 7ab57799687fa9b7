import type { Verdict } from './verdict-source.js';

/** The body of a refused tarball or packument (docs/firewall.md "The 403"): `error` is the line npm prints. */
export interface BlockBody {
  error: string;
  package: string;
  version: string | null;
  purl: string;
  decision: 'block';
  reason: string;
  verdict: 'ALLOW' | 'WARN' | 'BLOCK' | null;
  risk_score: number | null;
  findings: { total: number; by_severity: Record<string, number>; top_categories: { category: string; count: number }[] } | null;
  dashboard_url: string;
  request_id: string;
}

/** `1 CRIT, 2 HIGH; install_script ×2, network ×1`: the findings in one clause, most severe first. */
function findingsClause(findings: NonNullable<Verdict['findings']>): string {
  const severities = ['CRIT', 'HIGH', 'MED', 'LOW']
    .filter((s) => (findings.bySeverity[s] ?? 0) > 0)
    .map((s) => `${findings.bySeverity[s]} ${s}`)
    .join(', ');
  const categories = findings.byCategory
    .slice(0, 3)
    .map((c) => `${c.category} ×${c.count}`)
    .join(', ');
  return [`${findings.total} finding${findings.total === 1 ? '' : 's'}${severities ? ` (${severities})` : ''}`, categories].filter(Boolean).join(': ');
}

export function blockBody(input: { name: string; version: string | null; purl: string; reason: string; verdict: Verdict | null; dashboardUrl: string; requestId: string }): BlockBody {
  const v = input.verdict;
  const dashboardUrl = `${input.dashboardUrl}/artifacts?purl=${encodeURIComponent(input.purl)}`;
  const what = input.version === null ? input.name : `${input.name}@${input.version}`;
  const facts = [input.reason, v?.riskScore != null ? `risk ${v.riskScore}` : null, v?.findings && v.findings.total > 0 ? findingsClause(v.findings) : null].filter(Boolean).join('; ');
  return {
    error: `Vigil firewall refused ${what}: ${facts}. Details: ${dashboardUrl} (request ${input.requestId})`,
    package: input.name,
    version: input.version,
    purl: input.purl,
    decision: 'block',
    reason: input.reason,
    verdict: v?.verdict ?? null,
    risk_score: v?.riskScore ?? null,
    findings: v?.findings ? { total: v.findings.total, by_severity: v.findings.bySeverity, top_categories: v.findings.byCategory.slice(0, 3) } : null,
    dashboard_url: dashboardUrl,
    request_id: input.requestId,
  };
}
