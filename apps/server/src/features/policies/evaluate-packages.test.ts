import type { PolicyRule } from '@vigil/core';
import { expect, it } from 'vitest';
import type { PackageCoordinates, PackageFacts, PolicyInputSources } from './input-sources.js';
import { compiledPolicy } from './cel/compiled-policy-cache.js';
import { compilePolicy } from './cel/compile-policy.js';
import { OPERATOR } from '../../platform/audit-log.js';
import { describeEachDialect } from '../../test-support/databases.js';
import { DAY, HOUR, T0, publishLiveVerdict } from '../../test-support/fixtures.js';
import { createAccount } from '../accounts/accounts.js';
import { evaluatePackages, packageOfReference, type PolicyPackage } from './evaluate-packages.js';
import { TRUSTED_CLAIMS_ONLY } from '../artifacts/references/reference-claims.js';

/** Test data standing in for the advisory feed and archive facts, counting the calls made to it. */
function recordingSources(facts: Map<number, PackageFacts>) {
  const calls = { vulnerabilities: [] as PackageCoordinates[][], facts: [] as number[][] };
  const sources: PolicyInputSources = {
    vulnerabilities: async (packages) => {
      calls.vulnerabilities.push([...packages]);
      const found = new Map();
      for (const p of packages) {
        if (p.name === 'vulnerable') found.set(p.purl, [{ id: 'GHSA-test-0001', aliases: [], summary: 'bad', severity: 'critical', fixed_in: ['2.0.0'] }]);
      }
      return found;
    },
    facts: async (ids) => {
      calls.facts.push([...ids]);
      return new Map([...facts].filter(([id]) => ids.includes(id)));
    },
  };
  return { sources, calls };
}

const npm = (name: string, version: string, direct: boolean | null, dev: boolean | null): PolicyPackage => ({
  coordinates: { ecosystem: 'npm', name, version, purl: `pkg:npm/${name}@${version}` },
  direct,
  dev,
});

const policy = (rules: PolicyRule[]) => compilePolicy({ id: 'pol_00000000000000aa', name: 'lockfile', version: 1, builtin: false, rules });
const rule = (name: string, expression: string, action: PolicyRule['action']): PolicyRule => ({ name, expression, action, description: null });

describeEachDialect('batch policy evaluation', (ctx) => {
  it('evaluates 2,000 lockfile packages with one verification query set and one call per source', async () => {
    const db = ctx.db();
    const account = await createAccount(db, { name: 'acme', kind: 'organization', plan: 'paid', now: T0, actor: OPERATOR });
    const artifactId = await publishLiveVerdict(db, { purl: 'pkg:npm/warned@1.0.0', verdict: 'WARN', riskScore: 40, uploadedBy: account.account_id });
    const { sources, calls } = recordingSources(
      new Map([[artifactId, { license: 'GPL-3.0-only', install_scripts: ['postinstall'], registry_provenance: 'verified', published_at: T0 - 2 * DAY }]]),
    );

    const packages = [
      npm('warned', '1.0.0', true, false),
      npm('vulnerable', '1.0.0', false, true),
      ...Array.from({ length: 1_998 }, (_, i) => npm(`dep-${i}`, '1.0.0', null, null)),
    ];
    let statements = 0;
    const counted = db.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const compiled = policy([
      rule('vigil', 'artifact.verdict != "BLOCK" && artifact.verdict != "WARN"', 'warn'),
      rule('critical', '!vulnerabilities.exists(v, v.severity == "critical")', 'block'),
      rule('copyleft', '!license_denied(license.expression, ["GPL-3.0-only"])', 'monitor'),
      rule('fresh-direct', 'pkg.dependency != "direct" || pkg.age_days < 0 || pkg.age_days >= 7', 'warn'),
      rule('dev-only', 'pkg.environment != "development"', 'monitor'),
    ]);
    const result = await evaluatePackages({ db: counted, sources }, compiled, packages, { now: T0 + 4 * HOUR, view: { accountId: account.account_id } });

    // verifyReferences' queries (candidates, backing attestations) and nothing per package.
    expect(statements).toBe(2);
    expect(calls.vulnerabilities).toHaveLength(1);
    expect(calls.vulnerabilities[0]).toHaveLength(2_000);
    expect(calls.facts).toEqual([[artifactId]]);

    expect(result.verdict).toBe('block');
    expect(result.packages).toHaveLength(2_000);
    const [warned, vulnerable, plain] = result.packages;
    expect(warned).toMatchObject({ purl: 'pkg:npm/warned@1.0.0', state: 'decided', verdict: 'warn', score: 40, risk: 'medium', warnings: ['vigil', 'fresh-direct'], failed: [] });
    expect(warned!.checks.find((c) => c.name === 'copyleft')).toMatchObject({ outcome: 'failed' });
    expect(vulnerable).toMatchObject({ state: 'pending', verdict: 'block', failed: ['critical'], score: 90, risk: 'critical' });
    expect(vulnerable!.checks.find((c) => c.name === 'dev-only')).toMatchObject({ outcome: 'failed' });
    expect(plain).toMatchObject({ state: 'pending', verdict: 'allow', score: 0, risk: 'none', passed: ['vigil', 'critical', 'copyleft', 'fresh-direct', 'dev-only'] });
  });

  it("reads verdicts from the evaluating account's own and trusted claims only", async () => {
    const db = ctx.db();
    const acme = await createAccount(db, { name: 'acme', kind: 'organization', plan: 'paid', now: T0, actor: OPERATOR });
    const mallory = await createAccount(db, { name: 'mallory', kind: 'organization', plan: 'free', now: T0, actor: OPERATOR });
    await publishLiveVerdict(db, { purl: 'pkg:npm/react@18.2.0', verdict: 'BLOCK', riskScore: 95, uploadedBy: mallory.account_id });
    const { sources } = recordingSources(new Map());
    const compiled = policy([rule('vigil', 'artifact.verdict != "BLOCK"', 'block')]);
    const evaluate = (accountId: string) => evaluatePackages({ db, sources }, compiled, [npm('react', '18.2.0', true, false)], { now: T0 + 4 * HOUR, view: { accountId } });

    // Mallory's claim speaks for Mallory only.
    expect((await evaluate(acme.account_id)).packages[0]).toMatchObject({ state: 'pending', verdict: 'allow' });
    expect((await evaluate(mallory.account_id)).packages[0]).toMatchObject({ state: 'decided', verdict: 'block' });
    // Once the operator trusts Mallory's account, its claim counts for everyone.
    await db.updateTable('accounts').set({ trusted: 1 }).where('account_id', '=', mallory.account_id).execute();
    expect((await evaluate(acme.account_id)).packages[0]).toMatchObject({ state: 'decided', verdict: 'block' });
  });

  it('asks no source anything for packages it has nothing to ask about', async () => {
    const { sources, calls } = recordingSources(new Map());
    const cargo = packageOfReference('pkg:cargo/serde@1.0.0');
    const versionless = packageOfReference('npm:left-pad');
    const result = await evaluatePackages({ db: ctx.db(), sources }, policy([rule('ok', 'pkg.version == "" || pkg.ecosystem == "cargo"', 'block')]), [cargo, versionless], { now: T0, view: TRUSTED_CLAIMS_ONLY });
    expect(calls).toEqual({ vulnerabilities: [], facts: [] });
    expect(result.packages.map((p) => p.verdict)).toEqual(['allow', 'allow']);
  });
});

it('compiles a policy version once per process', () => {
  const definition = { id: 'pol_00000000000000bb', name: 'p', version: 3, builtin: false, rules: [rule('a', 'true', 'warn')] };
  expect(compiledPolicy(definition)).toBe(compiledPolicy({ ...definition }));
  expect(compiledPolicy({ ...definition, version: 4 })).not.toBe(compiledPolicy(definition));
});

it('names a scoped npm package as npm writes it and strips qualifiers for advisories', () => {
  expect(packageOfReference('pkg:npm/%40scope/name@1.0.0?checksum=sha256:ab')).toEqual({
    reference: 'pkg:npm/%40scope/name@1.0.0?checksum=sha256:ab',
    coordinates: { ecosystem: 'npm', name: '@scope/name', version: '1.0.0', purl: 'pkg:npm/%40scope/name@1.0.0' },
    direct: true,
    dev: null,
  });
});
