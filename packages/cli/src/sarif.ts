import type { FoundLockfile } from './lockfiles.js';

/** What SARIF output needs of a repository verification (docs/repositories.md, "The verification"). */
export interface VerificationForSarif {
  policy: { name: string; version: number };
  verdict: 'ALLOW' | 'WARN' | 'BLOCK';
  dependencies: {
    purl: string;
    name: string;
    version: string;
    ecosystem: string;
    direct: boolean | null;
    dev: boolean | null;
    files: string[];
    state: 'decided' | 'pending';
    queued: string | null;
    verdict: 'ALLOW' | 'WARN' | 'BLOCK';
    published_verdict: string | null;
    failed: string[];
    warnings: string[];
  }[];
}

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

// One rule per verdict: GitHub code scanning groups alerts by rule and ranks them by
// `security-severity` (a CVSS-like score: 9.0 is "critical", 5.0 "medium").
const RULES = [
  {
    id: 'vigil/blocked-dependency',
    name: 'BlockedDependency',
    shortDescription: { text: 'A dependency the Vigil policy blocks' },
    fullDescription: { text: 'The lockfile installs a package that the applied Vigil policy blocks: Vigil published a BLOCK verdict for it, or a blocking check of the policy failed.' },
    help: { text: 'Remove the dependency or move to a version Vigil allows; `vigil verify <purl>` shows the verdict and its attestations.', markdown: 'Remove the dependency or move to a version Vigil allows; `vigil verify <purl>` shows the verdict and its attestations.' },
    defaultConfiguration: { level: 'error' as const },
    properties: { tags: ['security', 'supply-chain'], precision: 'high', 'security-severity': '9.0' },
  },
  {
    id: 'vigil/warned-dependency',
    name: 'WarnedDependency',
    shortDescription: { text: 'A dependency the Vigil policy warns about, or not yet evaluated' },
    fullDescription: { text: 'The applied Vigil policy warns about this package, or Vigil has no published verdict for it yet (pending packages are never counted as allowed).' },
    help: { text: 'Review the warning; a pending package gets a verdict once a round has evaluated it.', markdown: 'Review the warning; a pending package gets a verdict once a round has evaluated it.' },
    defaultConfiguration: { level: 'warning' as const },
    properties: { tags: ['security', 'supply-chain'], precision: 'medium', 'security-severity': '5.0' },
  },
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The 1-based line of the package's own entry in a lockfile, where the lockfile formats have one:
 * `"node_modules/<name>": {` (npm), `<name>@<version>:` (pnpm), `"<name>": ["<name>@<version>"`
 * (bun), an unindented `<name>@…` key (yarn), `name = "<name>"` followed by its `version` (poetry,
 * uv), `"<name>": {` (Pipfile.lock). -1 when none is found.
 */
function entryLine(lines: string[], version: string, nameSource: string): number {
  const v = escapeRegExp(version);
  // npm and yarn keys carry no version (several versions of a package have one entry each): the
  // entry's own `version` follows within a few lines.
  const versionBelow = new RegExp(`^\\s*"?version"?:?\\s*"?${v}"?,?\\s*$`);
  const hasVersionBelow = (at: number) => lines.slice(at + 1, at + 4).some((line) => versionBelow.test(line));
  const patterns: [RegExp, boolean][] = [
    [new RegExp(`node_modules/${nameSource}":\\s*\\{`, 'i'), true],
    [new RegExp(`^\\s*['"]?/?${nameSource}[@/]${v}(\\(.*\\))?['"]?:\\s*$`, 'i'), false],
    [new RegExp(`^\\s*"${nameSource}":\\s*\\["${nameSource}@${v}"`, 'i'), false],
    [new RegExp(`^"?${nameSource}@`, 'i'), true],
  ];
  for (const [pattern, checkVersion] of patterns) {
    const at = lines.findIndex((line, i) => pattern.test(line) && (!checkVersion || hasVersionBelow(i)));
    if (at >= 0) return at;
  }
  const nameKey = new RegExp(`^\\s*name\\s*=\\s*"${nameSource}"\\s*$`, 'i');
  const versionKey = new RegExp(`^\\s*version\\s*=\\s*"${v}"\\s*$`);
  for (let at = 0; at < lines.length; at++) {
    if (nameKey.test(lines[at]!) && lines.slice(at + 1, at + 4).some((line) => versionKey.test(line))) return at;
  }
  return lines.findIndex((line) => new RegExp(`^\\s*"${nameSource}":\\s*\\{\\s*$`, 'i').test(line));
}

/**
 * The 1-based line of a lockfile where a package appears: its own entry (above), else the first
 * line naming it with its version, else its name, else 1. The entry comes first because another
 * package's requirement (`"is-number": "^6.0.0"` under `is-odd`) also names it with its version.
 */
export function lineOf(content: string, name: string, version: string): number {
  const lines = content.split('\n');
  // PyPI names are normalized (PEP 503): the file may write `Zope.Interface` for `zope-interface`.
  const nameSource = name.split(/[-_.]/).map(escapeRegExp).join('[-_.]');
  const entry = entryLine(lines, version, nameSource);
  if (entry >= 0) return entry + 1;
  const namePattern = new RegExp(`(^|[^A-Za-z0-9_.-])${nameSource}($|[^A-Za-z0-9_-])`, 'i');
  const both = lines.findIndex((line) => namePattern.test(line) && line.includes(version));
  if (both >= 0) return both + 1;
  const nameOnly = lines.findIndex((line) => namePattern.test(line));
  return nameOnly >= 0 ? nameOnly + 1 : 1;
}

/**
 * A SARIF 2.1.0 log of a repository verification: one result per dependency that is not allowed,
 * located in each lockfile that installs it, for GitHub code scanning (`upload-sarif`).
 */
export function toSarif(verification: VerificationForSarif, lockfiles: FoundLockfile[], tool: { version: string }): object {
  const contents = new Map(lockfiles.map((f) => [f.path, f.content]));
  const results = verification.dependencies
    .filter((d) => d.verdict !== 'ALLOW')
    .map((d) => {
      const ruleIndex = d.verdict === 'BLOCK' ? 0 : 1;
      const why = [
        d.state === 'pending' ? `pending: Vigil has no published verdict yet (${d.queued === 'evaluating' ? 'its bytes are queued for evaluation' : 'requested'})` : `Vigil's verdict ${d.published_verdict ?? '-'}`,
        d.failed.length > 0 ? `failed: ${d.failed.join(', ')}` : null,
        d.warnings.length > 0 ? `warnings: ${d.warnings.join(', ')}` : null,
      ].filter((x) => x !== null);
      return {
        ruleId: RULES[ruleIndex]!.id,
        ruleIndex,
        level: d.verdict === 'BLOCK' ? ('error' as const) : ('warning' as const),
        message: { text: `${d.purl}: ${d.verdict} under policy ${verification.policy.name} v${verification.policy.version}; ${why.join('; ')}` },
        locations: d.files.map((file) => ({
          physicalLocation: {
            artifactLocation: { uri: file, uriBaseId: '%SRCROOT%' },
            region: { startLine: lineOf(contents.get(file) ?? '', d.name, d.version) },
          },
        })),
        partialFingerprints: { 'vigilDependency/v1': `${d.purl}` },
        properties: { purl: d.purl, ecosystem: d.ecosystem, direct: d.direct, dev: d.dev, state: d.state, verdict: d.verdict },
      };
    });
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'vigil', semanticVersion: tool.version, rules: RULES } },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The directory vigil verify-repo scanned' } } },
        results,
        properties: { verdict: verification.verdict, policy: verification.policy },
      },
    ],
  };
}
