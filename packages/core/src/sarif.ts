import type { Verdict } from './enums.js';

// SARIF 2.1.0 logs of a verification, for GitHub code scanning (`upload-sarif`). The server answers
// one for an SBOM (`POST /v1/sboms/verify?format=sarif`) and the CLI writes one for lockfiles
// (`vigil verify-repo --sarif`): both are built here so a dependency is the same rule, message and
// fingerprint in either, and code scanning keeps one alert per package whichever wrote it.

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

/** A SARIF `reportingDescriptor`: one kind of finding, with the texts code scanning shows for it. */
export interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown?: string };
  defaultConfiguration: { level: 'error' | 'warning' | 'note' };
  properties: { tags: string[]; precision: string; 'security-severity'?: string };
}

/** What differs between the dependency rules of an SBOM log and a lockfile log. */
export interface DependencyRuleTexts {
  /** The blocked rule's `fullDescription`, which names where the package was found (the SBOM, the lockfile). */
  blockedDescription: string;
  /** Repeat each rule's help text as `help.markdown` (code scanning shows the markdown when it is given). */
  helpMarkdown: boolean;
}

const BLOCKED_HELP = 'Remove the dependency or move to a version Vigil allows; `vigil verify <purl>` shows the verdict and its attestations.';
const WARNED_HELP = 'Review the warning; a pending package gets a verdict once a round has evaluated it.';

/**
 * The two dependency rules, blocked (index 0) and warned or pending (index 1). Code scanning groups
 * alerts by rule and ranks them by `security-severity` (a CVSS-like score: 9.0 is "critical", 5.0 "medium").
 */
export function dependencyRules(texts: DependencyRuleTexts): [SarifRule, SarifRule] {
  const help = (text: string) => (texts.helpMarkdown ? { text, markdown: text } : { text });
  return [
    {
      id: 'vigil/blocked-dependency',
      name: 'BlockedDependency',
      shortDescription: { text: 'A dependency the Vigil policy blocks' },
      fullDescription: { text: texts.blockedDescription },
      help: help(BLOCKED_HELP),
      defaultConfiguration: { level: 'error' },
      properties: { tags: ['security', 'supply-chain'], precision: 'high', 'security-severity': '9.0' },
    },
    {
      id: 'vigil/warned-dependency',
      name: 'WarnedDependency',
      shortDescription: { text: 'A dependency the Vigil policy warns about, or not yet evaluated' },
      fullDescription: { text: 'The applied Vigil policy warns about this package, or Vigil has no published verdict for it yet (pending packages are never counted as allowed).' },
      help: help(WARNED_HELP),
      defaultConfiguration: { level: 'warning' },
      properties: { tags: ['security', 'supply-chain'], precision: 'medium', 'security-severity': '5.0' },
    },
  ];
}

/** What a dependency result needs of a verified dependency (the lockfile and SBOM verifications both have it). */
export interface SarifDependency {
  purl: string;
  ecosystem: string;
  direct: boolean | null;
  dev: boolean | null;
  state: 'decided' | 'pending';
  queued: string | null;
  verdict: Verdict;
  published_verdict: string | null;
  failed: string[];
  warnings: string[];
}

/**
 * A dependency the SARIF, VEX and table reports show: one the policy warns about or blocks, or one
 * still pending. A pending package's own verdict is whatever the policy's rules give it (ALLOW under
 * a policy none of whose rules fail), but it is never counted as allowed: it makes the overall
 * verdict WARN, so a report that left it out would show no finding under a WARN gate.
 */
export function notAllowed(dependency: Pick<SarifDependency, 'verdict' | 'state'>): boolean {
  return dependency.verdict !== 'ALLOW' || dependency.state === 'pending';
}

/**
 * The result for a dependency the caller reports (the caller chooses which): the blocked rule for a
 * BLOCK, else the warned one. The fingerprint is the purl, so one package is one alert however often
 * and wherever it is found. `properties` are added after the dependency's own.
 */
export function dependencyResult(d: SarifDependency, policy: { name: string; version: number }, locations: object[], properties: Record<string, unknown> = {}) {
  const ruleIndex = d.verdict === 'BLOCK' ? 0 : 1;
  const why = [
    d.state === 'pending' ? `pending: Vigil has no published verdict yet (${d.queued === 'evaluating' ? 'its bytes are queued for evaluation' : 'requested'})` : `Vigil's verdict ${d.published_verdict ?? '-'}`,
    d.failed.length > 0 ? `failed: ${d.failed.join(', ')}` : null,
    d.warnings.length > 0 ? `warnings: ${d.warnings.join(', ')}` : null,
  ].filter((x) => x !== null);
  return {
    ruleId: ruleIndex === 0 ? 'vigil/blocked-dependency' : 'vigil/warned-dependency',
    ruleIndex,
    level: ruleIndex === 0 ? ('error' as const) : ('warning' as const),
    message: { text: `${d.purl}: ${d.verdict} under policy ${policy.name} v${policy.version}; ${why.join('; ')}` },
    locations,
    partialFingerprints: { 'vigilDependency/v1': d.purl },
    properties: { purl: d.purl, ecosystem: d.ecosystem, direct: d.direct, dev: d.dev, state: d.state, verdict: d.verdict, ...properties },
  };
}

export interface SarifLogInput {
  /** The tool's `semanticVersion`, when the writer knows its own version. */
  semanticVersion?: string;
  rules: SarifRule[];
  /** What `%SRCROOT%`, the base of every result's location, stands for. */
  sourceRoot: string;
  results: object[];
  /** The run's `properties`: the verification's verdict and whatever else the writer adds. */
  properties: object;
}

/** A SARIF 2.1.0 log of one run of the tool `vigil`. */
export function sarifLog(input: SarifLogInput): object {
  const driver = input.semanticVersion === undefined ? { name: 'vigil', rules: input.rules } : { name: 'vigil', semanticVersion: input.semanticVersion, rules: input.rules };
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: input.sourceRoot } } },
        results: input.results,
        properties: input.properties,
      },
    ],
  };
}
