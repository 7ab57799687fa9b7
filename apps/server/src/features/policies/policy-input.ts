import type { EvaluationProvenance, EvaluationVulnerability, Finding, RiskLevel, VerifyResult } from '@vigil/core';
import { policyInputObject } from './cel/cel-environment.js';
import type { KnownVulnerability, PackageFacts } from './input-sources.js';
import { describeLicense, type DeclaredLicense } from './cel/spdx-licenses.js';

/**
 * The longest lists a rule sees (docs/policies.md, "Limits"): they bound what a comprehension can
 * cost, which the save-time cost estimate (rule-cost.ts) relies on. Longer lists are cut, the worst
 * entries kept.
 */
export const INPUT_LIST_CAPS = {
  findings: 200,
  vulnerabilities: 100,
  aliases: 20,
  fixed_in: 20,
  install_scripts: 20,
  ids: 20,
} as const;

/**
 * The longest string a rule sees, in UTF-16 code units: longer ones (an advisory's summary) are
 * cut. A finding's texts are at most as long already (LIMITS.maxFindingTextLength). The cost estimate (rule-cost.ts) bounds what a rule builds from them.
 */
export const INPUT_STRING_CAP = 1_024;

function cut(text: string): string {
  return text.length > INPUT_STRING_CAP ? text.slice(0, INPUT_STRING_CAP) : text;
}

function cutAll(texts: readonly string[]): string[] {
  return texts.map(cut);
}

const MS_PER_DAY = 86_400_000;

/** A package to evaluate: a lockfile entry, or the one package reference of `POST /v1/policies/evaluate`. */
export interface PolicyPackage {
  coordinates: {
    /** The purl type: `npm`, `pypi`, … (only npm and pypi have advisories). */
    ecosystem: string;
    /** As the ecosystem writes it (`@scope/name` for a scoped npm package). */
    name: string;
    /** Empty when the reference names no version. */
    version: string;
    /** Canonical, without qualifiers. */
    purl: string;
  };
  /** Direct dependency (true), transitive (false), unknown (null). */
  direct: boolean | null;
  /** Development-only dependency (true), production (false), unknown (null). */
  dev: boolean | null;
  /** The reference verified, when it is not `coordinates.purl` (one with qualifiers, as uploaded). */
  reference?: string;
}

/** Everything evaluation knows about one package before any rule runs. */
export interface PackageSignals {
  verification: VerifyResult;
  findings: readonly Finding[];
  vulnerabilities: readonly KnownVulnerability[];
  /** Undefined when Vigil holds no artifact for it, or could not read the artifact. */
  facts: PackageFacts | undefined;
}

/** The values of the CEL variables (cel-environment.ts declares their types; ints are bigint). */
export type CelInput = Record<string, unknown>;

export interface PackageInput {
  cel: CelInput;
  state: 'decided' | 'pending';
  score: number;
  risk: RiskLevel;
  /** The `include` sections of the evaluation answer. */
  sections: {
    vulnerabilities: EvaluationVulnerability[];
    licenses: DeclaredLicense;
    provenance: EvaluationProvenance;
    findings: Finding[];
  };
}

const FINDING_SEVERITY_ORDER: Record<string, number> = { CRIT: 0, HIGH: 1, MED: 2, LOW: 3 };
const VULNERABILITY_SEVERITY_ORDER: Record<string, number> = { critical: 0, high: 1, unknown: 2, moderate: 3, low: 4 };

/** The score a known vulnerability's severity stands for (docs/policies.md, "Score and risk"). */
export const VULNERABILITY_SCORES: Record<KnownVulnerability['severity'], number> = { critical: 90, high: 70, moderate: 40, unknown: 40, low: 10 };

/** Risk bands over the score: 0 none, 1–29 low, 30–59 medium, 60–79 high, 80–100 critical. */
export function riskOf(score: number): RiskLevel {
  if (score <= 0) return 'none';
  if (score < 30) return 'low';
  if (score < 60) return 'medium';
  if (score < 80) return 'high';
  return 'critical';
}

function dependencyOf(direct: boolean | null): string {
  return direct === null ? 'unknown' : direct ? 'direct' : 'transitive';
}

function environmentOf(dev: boolean | null): string {
  return dev === null ? 'unknown' : dev ? 'development' : 'production';
}

/**
 * The input of one package: what rules see (`cel`), what the answer shows (`sections`), and the
 * score and risk, which depend on the package and never on the rules.
 */
export function buildPackageInput(pkg: PolicyPackage, signals: PackageSignals, now: number): PackageInput {
  const { verification, facts } = signals;
  const decided = verification.state === 'decided';
  const findings = [...signals.findings]
    .sort((a, b) => (FINDING_SEVERITY_ORDER[a.severity] ?? 9) - (FINDING_SEVERITY_ORDER[b.severity] ?? 9))
    .slice(0, INPUT_LIST_CAPS.findings);
  const vulnerabilities: EvaluationVulnerability[] = [...signals.vulnerabilities]
    .sort((a, b) => (VULNERABILITY_SEVERITY_ORDER[a.severity] ?? 9) - (VULNERABILITY_SEVERITY_ORDER[b.severity] ?? 9))
    .slice(0, INPUT_LIST_CAPS.vulnerabilities)
    .map((v) => ({
      id: v.id,
      aliases: v.aliases.slice(0, INPUT_LIST_CAPS.aliases),
      summary: v.summary,
      severity: v.severity,
      fixed_in: v.fixed_in.slice(0, INPUT_LIST_CAPS.fixed_in),
    }));
  const licenses = describeLicense(facts?.license ?? null);
  const provenance: EvaluationProvenance = {
    vigil_attested: decided && verification.attestations.length > 0,
    attestations: verification.attestations,
    registry: facts?.registry_provenance ?? 'unknown',
  };
  const riskScore = decided ? (verification.risk_score ?? 0) : 0;
  const score = Math.max(riskScore, ...vulnerabilities.map((v) => VULNERABILITY_SCORES[v.severity]));
  const risk = riskOf(score);
  const publishedAt = facts?.published_at ?? null;
  const cel: CelInput = {
    artifact: policyInputObject('Artifact', {
      purl: cut(verification.artifact),
      state: verification.state,
      known: verification.artifact_id !== null,
      queued: verification.queued,
      verdict: verification.verdict ?? '',
      risk_score: BigInt(riskScore),
    }),
    pkg: policyInputObject('Package', {
      purl: cut(pkg.coordinates.purl),
      ecosystem: cut(pkg.coordinates.ecosystem),
      name: cut(pkg.coordinates.name),
      version: cut(pkg.coordinates.version),
      dependency: dependencyOf(pkg.direct),
      environment: environmentOf(pkg.dev),
      inspected: facts !== undefined,
      install_scripts: cutAll((facts?.install_scripts ?? []).slice(0, INPUT_LIST_CAPS.install_scripts)),
      age_days: BigInt(publishedAt === null ? -1 : Math.max(0, Math.floor((now - publishedAt) / MS_PER_DAY))),
    }),
    findings: findings.map((f) =>
      policyInputObject('Finding', { type: cut(f.type), category: cut(f.category), severity: f.severity, title: cut(f.title), file: cut(f.file) }),
    ),
    vulnerabilities: vulnerabilities.map((v) =>
      policyInputObject('Vulnerability', { id: cut(v.id), aliases: cutAll(v.aliases), summary: cut(v.summary), severity: v.severity, fixed_in: cutAll(v.fixed_in) }),
    ),
    license: policyInputObject('License', {
      declared: licenses.declared !== null,
      expression: cut(licenses.declared ?? ''),
      valid: licenses.valid,
      ids: cutAll(licenses.ids.slice(0, INPUT_LIST_CAPS.ids)),
    }),
    provenance: policyInputObject('Provenance', {
      vigil_attested: provenance.vigil_attested,
      attestations: BigInt(provenance.attestations.length),
      registry: provenance.registry,
    }),
    score: BigInt(score),
    risk,
  };
  return { cel, state: verification.state, score, risk, sections: { vulnerabilities, licenses, provenance, findings } };
}
