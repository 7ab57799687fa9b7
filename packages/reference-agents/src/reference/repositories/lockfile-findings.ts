import type { AgentFinding, ParsedLockfile } from '@vigil/core';
import { LockfileError, parseLockfile, SKIP_REASONS } from '@vigil/lockfiles';
import { knownCompromisedVersion } from '../known/known-compromised.js';
import { referenceFinding } from '../common/reference-finding.js';
import { lineOfPackage } from './package-line.js';
import { imitatedRegistry } from './lookalike-host.js';
import { POPULAR_NPM } from '../known/popular-names.js';
import { typosquatOf, type TyposquatMatch } from '../known/typosquat.js';
import { strayRegistryHostFindings } from './stray-registry-hosts.js';

/** A verdict the network already holds for a package version (see `RepositoryAnalyzerOptions`). */
export interface KnownPackageVerdict {
  verdict: 'BLOCK' | 'WARN';
  /** Why, shown in the finding. */
  reason: string;
}

/** Looks up what Vigil knows of a package version; null when nothing. */
export type KnownPackageLookup = (ecosystem: string, name: string, version: string) => KnownPackageVerdict | null;

// Hosts a URL dependency commonly comes from: a tarball on the registry itself or a code host.
const FAMILIAR_HOSTS = /^(registry\.npmjs\.org|registry\.yarnpkg\.com|files\.pythonhosted\.org|pypi\.org|codeload\.github\.com|github\.com|gitlab\.com|bitbucket\.org|objects\.githubusercontent\.com)$/i;
// Dependency confusion (Alex Birsan, 2021) publishes the internal name at an absurd version so the
// resolver prefers it; real packages rarely reach major 99.
const CONFUSION_MAJOR = 99;
const MAX_LISTED = 10;

function listed(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED).join(', ');
  return names.length > MAX_LISTED ? `${shown} and ${names.length - MAX_LISTED} more` : shown;
}

function urlIn(line: string): URL | null {
  const match = /(?:git\+)?(?:https?|git|ssh):\/\/[^\s"'#,)]+/i.exec(line);
  if (!match) return null;
  try {
    return new URL(match[0].replace(/^git\+/, ''));
  } catch {
    return null;
  }
}

function urlDependencyFinding(path: string, name: string | null, lineNo: number | null, line: string): AgentFinding {
  const url = urlIn(line);
  const host = url?.hostname ?? '';
  const ipHost = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  const unusual = url !== null && (url.protocol === 'http:' || ipHost || !FAMILIAR_HOSTS.test(host));
  return referenceFinding({
    category: 'dependency_confusion',
    severity: unusual ? 'MED' : 'LOW',
    title: unusual ? 'dependency downloaded from an unfamiliar URL instead of the registry' : 'dependency downloaded from a URL instead of the registry',
    file: path,
    line: lineNo ?? undefined,
    evidence: `${name ?? '(unnamed)'}: ${url ? `${url.protocol}//${url.host}${url.pathname}` : line.trim()}`,
  });
}

/** What the package-lock records as running install scripts (`"hasInstallScript": true`), by package name. */
function installScriptPackages(lines: readonly string[]): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = [];
  let current: { name: string; line: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const key = /^\s*"((?:[^"]*\/)?node_modules\/[^"]+)":\s*\{/.exec(lines[i]!);
    if (key) current = { name: key[1]!.slice(key[1]!.lastIndexOf('node_modules/') + 'node_modules/'.length), line: i + 1 };
    else if (current && /^\s*"hasInstallScript":\s*true/.test(lines[i]!)) found.push(current);
  }
  return found;
}

function compromisedFindings(path: string, parsed: ParsedLockfile, lines: readonly string[], known: KnownPackageLookup | undefined): AgentFinding[] {
  const findings: AgentFinding[] = [];
  for (const p of parsed.packages) {
    const incident = knownCompromisedVersion(p.ecosystem, p.name, p.version);
    if (incident) {
      findings.push(
        referenceFinding({
          category: 'malware',
          severity: 'CRIT',
          title: `lockfile installs a known-compromised package version: ${p.name}@${p.version}`,
          file: path,
          line: lineOfPackage(lines, p.name, p.version) ?? undefined,
          evidence: `${incident.incident} (${incident.source_url})`,
        }),
      );
      continue;
    }
    const verdict = known?.(p.ecosystem, p.name, p.version);
    if (verdict) {
      findings.push(
        referenceFinding({
          category: 'malware',
          severity: verdict.verdict === 'BLOCK' ? 'CRIT' : 'MED',
          title: `lockfile installs a package version Vigil ${verdict.verdict === 'BLOCK' ? 'blocks' : 'warns about'}: ${p.name}@${p.version}`,
          file: path,
          line: lineOfPackage(lines, p.name, p.version) ?? undefined,
          evidence: verdict.reason,
        }),
      );
    }
  }
  return findings;
}

/**
 * `dtslint` and `tslint`, `httpx2` and `httpx`, `sqlite` and `sqlite3`: one name is the other with
 * one letter in front or one digit behind, how sibling projects are named (either way round).
 */
function isSiblingName(name: string, popular: string): boolean {
  const [short, long] = name.length < popular.length ? [name.toLowerCase(), popular.toLowerCase()] : [popular.toLowerCase(), name.toLowerCase()];
  return long.length === short.length + 1 && ((long.endsWith(short) && /^[a-z]/.test(long)) || (long.startsWith(short) && /\d$/.test(long)));
}

function typosquatFindings(path: string, parsed: ParsedLockfile, lines: readonly string[], withScripts: ReadonlySet<string>): AgentFinding[] {
  // Only what the repository names itself: a mistyped `npm install` leaves a direct dependency,
  // while a transitive one was chosen by another package's author (enquirer, safer-buffer are real
  // packages one edit from inquirer, safe-buffer). Formats that do not record directness count.
  const hits = parsed.packages
    .filter((p) => p.direct !== false && knownCompromisedVersion(p.ecosystem, p.name, p.version) === null)
    .map((p) => ({ p, match: typosquatOf(p.name, p.ecosystem) }))
    .filter((h): h is { p: ParsedLockfile['packages'][number]; match: TyposquatMatch } => h.match !== null)
    .map((h) => ({ ...h, target: h.match.imitates }));
  if (hits.length === 0) return [];
  // A popular name with a letter in front or a digit behind (dtslint, httpx2) is a sibling project's
  // naming more often than a typo; without an install script it is only possible.
  const direct = hits.filter((h) => h.p.direct === true && (!isSiblingName(h.p.name, h.target) || withScripts.has(h.p.name)));
  // A package-lock records install scripts: a sibling name that runs none there is only a curiosity.
  const recordsScripts = parsed.format === 'package-lock' || parsed.format === 'npm-shrinkwrap';
  if (direct.length === 0 && recordsScripts && hits.every((h) => isSiblingName(h.p.name, h.target) && !withScripts.has(h.p.name))) {
    return [
      referenceFinding({
        category: 'typosquat',
        severity: 'LOW',
        title: 'dependency named like a popular package with a prefix or a version digit (no install script)',
        file: path,
        line: lineOfPackage(lines, hits[0]!.p.name, hits[0]!.p.version) ?? undefined,
        evidence: listed(hits.map((h) => `${h.p.name}@${h.p.version} (like ${h.target})`)),
      }),
    ];
  }
  const lead = direct[0] ?? hits[0]!;
  return [
    referenceFinding({
      category: 'typosquat',
      severity: direct.length > 0 ? 'HIGH' : 'MED',
      title: direct.length > 0 ? 'direct dependency named like a popular package (likely typosquat)' : 'dependency named like a popular package (possible typosquat)',
      file: path,
      line: lineOfPackage(lines, lead.p.name, lead.p.version) ?? undefined,
      evidence: listed((direct.length > 0 ? direct : hits).map((h) => `${h.p.name}@${h.p.version} (like ${h.target})`)),
    }),
  ];
}

function confusionVersionFindings(path: string, parsed: ParsedLockfile, lines: readonly string[], withScripts: ReadonlySet<string>): AgentFinding[] {
  // npm only: PyPI projects commonly version by year (certifi 2024.8.30), which would read as 2024.
  // A name the public registry is known for (googleapis@140, @types/geojson@7946 after its RFC) is
  // not an internal name a squatter could shadow.
  const hits = parsed.packages.filter(
    (p) => p.ecosystem === 'npm' && Number.parseInt(p.version, 10) >= CONFUSION_MAJOR && !p.name.startsWith('@types/') && !POPULAR_NPM.includes(p.name),
  );
  if (hits.length === 0) return [];
  // Birsan's proof-of-concept packages ran a preinstall script: a high version plus a script is the pattern.
  const scripted = hits.some((p) => withScripts.has(p.name));
  // A package-lock records install scripts: there, a high version that runs none is only a curiosity.
  const recordsScripts = parsed.format === 'package-lock' || parsed.format === 'npm-shrinkwrap';
  return [
    referenceFinding({
      category: 'dependency_confusion',
      severity: scripted ? 'HIGH' : recordsScripts ? 'LOW' : 'MED',
      title: 'dependency resolved at an implausibly high version (dependency confusion)',
      file: path,
      line: lineOfPackage(lines, hits[0]!.name, hits[0]!.version) ?? undefined,
      evidence: listed(hits.map((p) => `${p.name}@${p.version}`)),
    }),
  ];
}

function sourceFindings(path: string, parsed: ParsedLockfile, lines: readonly string[]): AgentFinding[] {
  const findings: AgentFinding[] = [];
  const gits = parsed.skipped.filter((s) => s.reason === SKIP_REASONS.git);
  if (gits.length > 0) {
    findings.push(
      referenceFinding({
        category: 'dependency_confusion',
        severity: 'LOW',
        title: 'dependency installed from a git repository instead of the registry',
        file: path,
        line: gits[0]!.line ?? undefined,
        evidence: listed(gits.map((s) => s.name ?? '(unnamed)')),
      }),
    );
  }
  for (const s of parsed.skipped.filter((entry) => entry.reason === SKIP_REASONS.url)) {
    // The entry's own lines carry its URL (`resolved`, `resolution`, `url = `…).
    const start = s.line ?? 1;
    const around = lines.slice(start - 1, start + 5).find((l) => urlIn(l) !== null) ?? lines[start - 1] ?? '';
    findings.push(urlDependencyFinding(path, s.name, s.line, around));
  }
  return findings;
}

/**
 * Entries resolved from a host that imitates a registry (`https://registry.npmjsjs.org/lodash/-/…`):
 * the lockfile keeps the registry's path layout so the diff reads as ordinary, and `npm ci`
 * downloads from wherever `resolved` points (Snyk, "lockfile injection", 2019).
 */
function lookalikeHostFindings(path: string, lines: readonly string[]): AgentFinding[] {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!/https?:\/\//.test(line)) continue;
    const url = urlIn(line);
    if (url === null) continue;
    const imitated = imitatedRegistry(url.hostname);
    if (imitated === null) continue;
    return [
      referenceFinding({
        category: 'dependency_confusion',
        severity: 'HIGH',
        title: 'dependencies resolved from a host that imitates a package registry',
        file: path,
        line: i + 1,
        evidence: `${url.host} (imitates ${imitated}): ${line.trim().slice(0, 200)}`,
      }),
    ];
  }
  return [];
}

function installScriptFindings(path: string, packages: readonly { name: string; line: number }[]): AgentFinding[] {
  if (packages.length === 0) return [];
  return [
    referenceFinding({
      category: 'install_script',
      severity: 'LOW',
      title: 'dependencies run install scripts',
      file: path,
      line: packages[0]!.line,
      evidence: listed(packages.map((p) => p.name)),
    }),
  ];
}

/**
 * The findings of one lockfile of the checkout: known-compromised versions (CRIT), typosquats,
 * non-registry sources and what npm records as running install scripts. A file the readers refuse
 * is reported at LOW (its dependencies could not be checked), never thrown.
 */
/** `registryHosts`: hosts the checkout's `.npmrc`/`.yarnrc`/`.yarnrc.yml` name as registries (see `configuredRegistryHosts`). */
export function lockfileFindings(path: string, content: string, known?: KnownPackageLookup, registryHosts: ReadonlySet<string> = new Set()): AgentFinding[] {
  let parsed: ParsedLockfile;
  try {
    parsed = parseLockfile({ path, content });
  } catch (error) {
    // A reader bug (a TypeError on a shape it did not expect) must not fail the whole verdict.
    if (!(error instanceof LockfileError)) {
      return [referenceFinding({ category: 'lockfile', severity: 'LOW', title: 'lockfile could not be read; its dependencies were not checked', file: path, evidence: `reader error: ${String((error as Error)?.message ?? error)}` })];
    }
    const line = /: line (\d+): /.exec(error.detail);
    return [
      referenceFinding({
        category: 'lockfile',
        severity: 'LOW',
        title: 'lockfile could not be read; its dependencies were not checked',
        file: path,
        line: line ? Number(line[1]) : undefined,
        evidence: error.detail,
      }),
    ];
  }
  const lines = content.split('\n');
  const scripts = parsed.format === 'package-lock' || parsed.format === 'npm-shrinkwrap' ? installScriptPackages(lines) : [];
  return [
    ...compromisedFindings(path, parsed, lines, known),
    ...typosquatFindings(path, parsed, lines, new Set(scripts.map((p) => p.name))),
    ...confusionVersionFindings(path, parsed, lines, new Set(scripts.map((p) => p.name))),
    ...sourceFindings(path, parsed, lines),
    ...lookalikeHostFindings(path, lines),
    ...(parsed.packages[0]?.ecosystem === 'npm' || parsed.packages.length === 0 ? strayRegistryHostFindings(path, content, parsed.packages.length, new Set(scripts.map((p) => p.name)), registryHosts) : []),
    ...installScriptFindings(path, scripts),
  ];
}
