import type { Finding, PolicyRule, VerifyResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { compilePolicy } from './cel/compile-policy.js';
import type { KnownVulnerability, PackageFacts } from './input-sources.js';
import { buildPackageInput, type PolicyPackage } from './policy-input.js';
import { runPolicy } from './cel/run-policy.js';

const NOW = Date.UTC(2026, 10, 21);

const decided: VerifyResult = {
  artifact: 'pkg:npm/left-pad@1.3.0',
  state: 'decided',
  queued: false,
  artifact_id: 'art_12',
  sha256: `sha256:${'ab'.repeat(32)}`,
  verdict: 'WARN',
  risk_score: 40,
  round_id: null,
  decided_at: null,
  findings_summary: null,
  attestations: [],
};

const FINDINGS: Finding[] = [
  { type: 'behaviour', category: 'install_script', severity: 'HIGH', title: 'postinstall fetches a script', file: 'package.json' },
  { type: 'behaviour', category: 'exfiltration', severity: 'CRIT', title: 'reads ~/.npmrc', file: 'index.js' },
];

const VULNERABILITIES: KnownVulnerability[] = [
  { id: 'GHSA-aaaa-bbbb-cccc', aliases: ['CVE-2026-0001', 'CVE-2026-0002'], summary: 'prototype pollution', severity: 'high', fixed_in: ['1.3.1', '2.0.0'] },
  { id: 'GHSA-dddd-eeee-ffff', aliases: [], summary: 'redos', severity: 'critical', fixed_in: [] },
];

const FACTS: PackageFacts = { license: 'MIT OR Apache-2.0', install_scripts: ['preinstall', 'postinstall'], registry_provenance: 'verified', published_at: NOW - 3 * 86_400_000 };

const PACKAGE: PolicyPackage = {
  coordinates: { ecosystem: 'npm', name: 'left-pad', version: '1.3.0', purl: 'pkg:npm/left-pad@1.3.0' },
  direct: true,
  dev: null,
};

function input(overrides: { findings?: Finding[]; vulnerabilities?: KnownVulnerability[]; facts?: PackageFacts } = {}) {
  return buildPackageInput(
    PACKAGE,
    { verification: decided, findings: overrides.findings ?? FINDINGS, vulnerabilities: overrides.vulnerabilities ?? VULNERABILITIES, facts: overrides.facts ?? FACTS },
    NOW,
  ).cel;
}

/** Every rule's check on the input: outcome and error, by rule name. */
function checks(expressions: string[], cel = input()) {
  const rules: PolicyRule[] = expressions.map((expression, i) => ({ name: `r${i}`, expression, action: 'block', description: null }));
  const outcome = runPolicy(compilePolicy({ id: 'pol_00000000000000aa', name: 'p', version: 1, builtin: false, rules }), cel);
  return outcome.checks.map(({ outcome: result, error }, i) => ({ expression: expressions[i], outcome: result, error }));
}

const passing = (expression: string) => ({ expression, outcome: 'passed', error: null });

describe('the input rules read', () => {
  it('gives every list of the input as typed values: indexing reads the same elements as the macros', () => {
    const expressions = [
      // findings: list<Finding>
      'findings[0].severity == "CRIT" && findings[1].category == "install_script"',
      'findings[0].title == findings.filter(f, f.severity == "CRIT")[0].title',
      'findings.map(f, f.file) == ["index.js", "package.json"]',
      'findings.exists(f, f.severity == "CRIT") && findings.all(f, f.type == "behaviour") && findings.exists_one(f, f.file == "index.js")',
      'size(findings) == 2 && findings[size(findings) - 1].file == "package.json"',
      // vulnerabilities: list<Vulnerability>, and their lists
      'vulnerabilities[0].id == "GHSA-dddd-eeee-ffff" && vulnerabilities[1].severity == "high"',
      'vulnerabilities[1].aliases[1] == "CVE-2026-0002" && vulnerabilities[1].fixed_in[0] == "1.3.1"',
      'vulnerabilities.map(v, v.id) == ["GHSA-dddd-eeee-ffff", "GHSA-aaaa-bbbb-cccc"]',
      'vulnerabilities.exists(v, v.aliases.exists(a, a.startsWith("CVE-")) && size(v.fixed_in) == 2)',
      'vulnerabilities.filter(v, size(v.fixed_in) == 0)[0].summary == "redos"',
      'vulnerabilities[1].aliases.map(a, a.substring(4)) == ["2026-0001", "2026-0002"]',
      'vulnerabilities.all(v, v.fixed_in.all(f, f.contains(".")))',
      // pkg.install_scripts and license.ids: list<string>
      'pkg.install_scripts[0] == "preinstall" && pkg.install_scripts.exists(s, s == "postinstall")',
      'pkg.install_scripts.filter(s, s.endsWith("install")) == pkg.install_scripts',
      'license.ids[0] == "MIT" && license.ids[1] == "Apache-2.0" && license.ids.all(id, id != "GPL-3.0-only")',
      'license.ids.map(id, id.lowerAscii()) == ["mit", "apache-2.0"]',
      // the typed objects themselves
      'artifact.verdict == "WARN" && pkg.age_days == 3 && provenance.registry == "verified"',
      'has(pkg.name) && findings.all(f, has(f.title))',
    ];
    expect(checks(expressions)).toEqual(expressions.map(passing));
  });

  it('orders what it caps most severe first, so index 0 is the worst', () => {
    expect(checks(['findings[0].severity == "CRIT"', 'vulnerabilities[0].severity == "critical"'])).toEqual([
      passing('findings[0].severity == "CRIT"'),
      passing('vulnerabilities[0].severity == "critical"'),
    ]);
  });

  it('says which index and what size when an index is out of range, empty lists included', () => {
    const empty = input({ findings: [], vulnerabilities: [], facts: { ...FACTS, install_scripts: [], license: null } });
    expect(checks(['findings[0].severity == "CRIT"', 'vulnerabilities[0].id != ""', 'pkg.install_scripts[0] == ""', 'license.ids[0] == ""'], empty).map((c) => c.error)).toEqual([
      'line 1, column 1: No such key: index out of bounds, index 0 >= size 0',
      'line 1, column 1: No such key: index out of bounds, index 0 >= size 0',
      'line 1, column 1: No such key: index out of bounds, index 0 >= size 0',
      'line 1, column 1: No such key: index out of bounds, index 0 >= size 0',
    ]);
    expect(checks(['findings[2].file == ""', 'vulnerabilities[1].aliases[5] == ""', 'findings[-1].file == ""']).map((c) => c.error)).toEqual([
      'line 1, column 1: No such key: index out of bounds, index 2 >= size 2',
      'line 1, column 1: No such key: index out of bounds, index 5 >= size 2',
      'line 1, column 1: No such key: index out of bounds, index -1 < 0',
    ]);
  });
});
