import { dependencyResult, dependencyRules, notAllowed, sarifLog } from '@vigil/core';
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

// The rules of `POST /v1/sboms/verify?format=sarif` (@vigil/core builds both), so a package blocked
// in a lockfile and in an SBOM is one rule in code scanning.
const RULES = dependencyRules({
  blockedDescription: 'The lockfile installs a package that the applied Vigil policy blocks: Vigil published a BLOCK verdict for it, or a blocking check of the policy failed.',
  helpMarkdown: true,
});

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
 * A SARIF 2.1.0 log of a repository verification: one result per dependency that is not allowed
 * (warned, blocked, or pending whatever its verdict),
 * located in each lockfile that installs it, for GitHub code scanning (`upload-sarif`).
 */
export function toSarif(verification: VerificationForSarif, lockfiles: FoundLockfile[], tool: { version: string }): object {
  const contents = new Map(lockfiles.map((f) => [f.path, f.content]));
  const results = verification.dependencies
    .filter(notAllowed)
    .map((d) =>
      dependencyResult(
        d,
        verification.policy,
        d.files.map((file) => ({
          physicalLocation: {
            artifactLocation: { uri: file, uriBaseId: '%SRCROOT%' },
            region: { startLine: lineOf(contents.get(file) ?? '', d.name, d.version) },
          },
        })),
      ),
    );
  return sarifLog({
    semanticVersion: tool.version,
    rules: RULES,
    sourceRoot: 'The directory vigil verify-repo scanned',
    results,
    properties: { verdict: verification.verdict, policy: verification.policy },
  });
}
