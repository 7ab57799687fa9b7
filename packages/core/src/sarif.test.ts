import { describe, expect, it } from 'vitest';
import { SARIF_SCHEMA_URI, dependencyResult, dependencyRules, sarifLog, type SarifDependency } from './sarif.js';

const dependency = (over: Partial<SarifDependency>): SarifDependency => ({
  purl: 'pkg:npm/debug@4.3.7',
  ecosystem: 'npm',
  direct: true,
  dev: false,
  state: 'decided',
  queued: null,
  verdict: 'BLOCK',
  published_verdict: 'BLOCK',
  failed: [],
  warnings: [],
  ...over,
});

describe('SARIF builder', () => {
  it('gives the two dependency rules with the texts of the caller, help repeated as markdown only when asked', () => {
    const [blocked, warned] = dependencyRules({ blockedDescription: 'The lockfile installs it.', helpMarkdown: true });
    expect([blocked.id, warned.id]).toEqual(['vigil/blocked-dependency', 'vigil/warned-dependency']);
    expect(blocked.fullDescription.text).toBe('The lockfile installs it.');
    expect(blocked.help.markdown).toBe(blocked.help.text);
    const [plain] = dependencyRules({ blockedDescription: 'The SBOM lists it.', helpMarkdown: false });
    expect(Object.keys(plain.help)).toEqual(['text']);
  });

  it('reports a BLOCK under the blocked rule and anything else under the warned one, saying why, fingerprinted by purl', () => {
    const policy = { name: 'default', version: 2 };
    const blocked = dependencyResult(dependency({ failed: ['no-critical'] }), policy, []);
    expect(blocked).toMatchObject({ ruleId: 'vigil/blocked-dependency', ruleIndex: 0, level: 'error', partialFingerprints: { 'vigilDependency/v1': 'pkg:npm/debug@4.3.7' } });
    expect(blocked.message.text).toBe("pkg:npm/debug@4.3.7: BLOCK under policy default v2; Vigil's verdict BLOCK; failed: no-critical");
    const pending = dependencyResult(dependency({ state: 'pending', queued: 'evaluating', verdict: 'ALLOW', published_verdict: null }), policy, [], { components: ['c1'] });
    expect(pending).toMatchObject({ ruleId: 'vigil/warned-dependency', ruleIndex: 1, level: 'warning' });
    expect(pending.message.text).toBe('pkg:npm/debug@4.3.7: ALLOW under policy default v2; pending: Vigil has no published verdict yet (its bytes are queued for evaluation)');
    expect(Object.keys(pending.properties)).toEqual(['purl', 'ecosystem', 'direct', 'dev', 'state', 'verdict', 'components']);
  });

  it('writes one run of the tool vigil, its semanticVersion only when given', () => {
    const input = { rules: [], sourceRoot: 'The repository', results: [], properties: { verdict: 'ALLOW' } };
    const withVersion = sarifLog({ ...input, semanticVersion: '1.2.3' }) as { $schema: string; runs: { tool: { driver: object } }[] };
    expect(withVersion.$schema).toBe(SARIF_SCHEMA_URI);
    expect(withVersion.runs[0]!.tool.driver).toEqual({ name: 'vigil', semanticVersion: '1.2.3', rules: [] });
    const without = sarifLog(input) as { runs: { tool: { driver: object } }[] };
    expect(Object.keys(without.runs[0]!.tool.driver)).toEqual(['name', 'rules']);
  });
});
