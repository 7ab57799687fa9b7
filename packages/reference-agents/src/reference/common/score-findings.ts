import { LIMITS, type AgentFinding, type AgentResult, type Severity, type Verdict } from '@vigil/core';

/** What one distinct finding adds to the risk score before diminishing (docs/agents.md, "Reference agents"). */
export const SEVERITY_WEIGHT: Readonly<Record<Severity, number>> = { CRIT: 85, HIGH: 50, MED: 25, LOW: 8 };
/** risk_score at or above which the verdict is BLOCK. */
export const BLOCK_AT = 70;
/** risk_score at or above which the verdict is WARN (below BLOCK_AT). */
export const WARN_AT = 40;

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { CRIT: 0, HIGH: 1, MED: 2, LOW: 3 };

/**
 * Categories that are one step of a theft or an intrusion: data leaving (network send), code run from
 * derived data, credentials read, writes outside the artifact that persist, hidden code. A HIGH finding
 * is one suspicion; a second step of another kind in the same artifact is what an attack needs and a
 * benign tool rarely has, so the two together block (docs/agents.md, "How a verdict is computed").
 */
export const CORROBORATING_CATEGORIES: ReadonlySet<string> = new Set(['exfiltration', 'remote_code_execution', 'credential_access', 'obfuscation', 'persistence']);

export function verdictForRisk(risk: number): Verdict {
  if (risk >= BLOCK_AT) return 'BLOCK';
  if (risk >= WARN_AT) return 'WARN';
  return 'ALLOW';
}

/**
 * The result of a reference agent from its findings. Identical findings (all fields but line and
 * evidence) collapse to the first. The score counts each distinct (category, title) once — fifty
 * matches of one pattern are one signal — sorted by weight, the k-th counting 1/2^k of its weight:
 * one CRIT (85) blocks, two HIGH (50 + 25) block, one HIGH warns, three MED (25 + 12.5 + 6.25)
 * warn, LOW findings alone never do. Rounded down, so LOW findings never tip two MED into WARN.
 * One HIGH finding corroborated by a MED-or-worse finding of another category that is a step of an
 * attack (`CORROBORATING_CATEGORIES`) scores BLOCK_AT, unless the HIGH is a flaw (`FLAW_CATEGORIES`).
 */
export function resultFromFindings(findings: readonly AgentFinding[]): AgentResult {
  const seen = new Set<string>();
  const unique: AgentFinding[] = [];
  for (const f of findings) {
    const key = JSON.stringify([f.type, f.category, f.severity, f.title, f.file]);
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(f);
  }
  unique.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
  const signals = new Map<string, number>();
  for (const f of unique) {
    const key = `${f.category}\u0000${f.title}`;
    signals.set(key, Math.max(signals.get(key) ?? 0, SEVERITY_WEIGHT[f.severity]));
  }
  const weights = [...signals.values()].sort((a, b) => b - a);
  let risk = 0;
  weights.forEach((w, k) => {
    risk += w / 2 ** k;
  });
  let riskScore = Math.min(100, Math.floor(risk));
  if (riskScore >= WARN_AT && riskScore < BLOCK_AT && corroborated(unique)) riskScore = BLOCK_AT;
  return { verdict: verdictForRisk(riskScore), risk_score: riskScore, findings: unique.slice(0, LIMITS.maxFindingsPerAttestation) };
}

/**
 * Categories of a flaw an attacker could use, not of a step the artifact takes: a tool that writes its
 * input into a SQL query is exploitable, not hostile, so such a HIGH is not one of the two steps.
 */
export const FLAW_CATEGORIES: ReadonlySet<string> = new Set(['vulnerability']);

/** A HIGH finding that is itself an attack step and, in another category, a MED-or-worse step of an attack (network send, run of derived data, credential read, persistence, obfuscation). */
function corroborated(findings: readonly AgentFinding[]): boolean {
  const high = findings.filter((f) => f.severity === 'HIGH' && !FLAW_CATEGORIES.has(f.category));
  if (high.length === 0) return false;
  return findings.some((c) => (c.severity === 'HIGH' || c.severity === 'MED') && CORROBORATING_CATEGORIES.has(c.category) && high.some((h) => h.category !== c.category));
}
