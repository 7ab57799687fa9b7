import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Policy, PolicyEvaluation } from '@vigil/core';
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { readFeedFiles } from '../src/features/policies/advisories/osv-files.js';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import { tarGz } from '../src/features/artifacts/archive/tar-gz.js';
import { purlColonsMigration } from '../src/platform/db/migrations/0018-purl-colons.js';
import { importAdvisories } from '../src/features/policies/advisories/advisory-import.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { T0, finding, publishLiveVerdict } from '../src/test-support/fixtures.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';
import { doublingRule, HOSTILE_RULES } from '../src/features/policies/test-support/hostile-rules.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { call, shared } from './admin-support.js';

const SNAPSHOT = { netuid: 76, block: 1, taken_at: '2026-11-21T00:00:00Z', neurons: [] };
const OSV = join(import.meta.dirname, 'fixtures/osv');

const STRICT = {
  name: 'strict',
  description: 'Permissive licenses only',
  rules: [
    { name: 'vigil-block', expression: 'artifact.verdict != "BLOCK"', action: 'block' },
    { name: 'permissive', expression: 'license_allowed(license.expression, ["MIT", "Apache-2.0", "ISC"])', action: 'block' },
    { name: 'no-install-scripts', expression: 'size(pkg.install_scripts) == 0', action: 'warn' },
    { name: 'ratio', expression: '100 / size(findings) > 1', action: 'monitor' },
    { name: 'legacy', expression: 'pkg.name.startsWith("legacy-")', action: 'ignore' },
  ],
};

const apps: NetworkApp[] = [];

describeEachDialect('customer API: policies', (ctx) => {
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function start() {
    const app = await startNetworkApp({ snapshot: SNAPSHOT, database: shared(ctx), config: { adminAllowlist: ['127.0.0.0/8', '::1'] } });
    apps.push(app);
    const db = ctx.db();
    return {
      app,
      acme: await operatorKey(db, ['--org', 'acme', '--plan', 'paid', '--scopes', 'policies,upload,read']),
      acmeFree: await operatorKey(db, ['--org', 'acme-free', '--scopes', 'policies']),
      globex: await operatorKey(db, ['--org', 'globex', '--plan', 'paid', '--scopes', 'policies']),
      alice: await operatorKey(db, ['--personal', 'alice', '--plan', 'paid', '--scopes', 'policies']),
      reader: await operatorKey(db, ['--org', 'initech', '--plan', 'paid', '--scopes', 'read']),
      // The operator's own account: its package references count for every account (docs/artifacts.md).
      ops: await trustedOperatorKey(db),
    };
  }

  async function trustedOperatorKey(db: Parameters<typeof operatorKey>[0]): Promise<string> {
    const token = await operatorKey(db, ['--org', 'vigil-ops', '--scopes', 'upload']);
    await runKeysCommand(db, 'accounts', ['trust', 'vigil-ops'], T0);
    return token;
  }

  /** Vigil's published BLOCK (with a finding) for `purl`, under the operator's trusted reference. */
  async function publishBlock(purl: string): Promise<void> {
    const account = await ctx.db().selectFrom('accounts').select('account_id').where('name', '=', 'vigil-ops').executeTakeFirstOrThrow();
    await publishLiveVerdict(ctx.db(), { purl, verdict: 'BLOCK', riskScore: 88, findings: [finding('exfiltration', 'HIGH')], uploadedBy: account.account_id });
  }

  /** Uploads an npm tarball declaring `license` and a postinstall script: pending (queued), with facts. */
  async function uploadPackage(app: NetworkApp, token: string, name: string, license: string): Promise<void> {
    const bytes = tarGz([
      { path: 'package/package.json', content: JSON.stringify({ name, version: '1.0.0', license, scripts: { postinstall: 'node setup.js' } }) },
      { path: 'package/index.js', content: 'module.exports = 1;' },
    ]);
    const response = await fetch(`${app.baseUrl}/v1/artifacts?track=packages&package=npm:${name}@1.0.0`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: Buffer.from(bytes),
    });
    expect(response.status).toBe(201);
  }

  it('creates, lists, reads, updates (a version each time), reads old versions and deletes a policy', async () => {
    const { app, acme, acmeFree } = await start();
    const created = await call(app, 'POST', '/v1/policies', acme, STRICT);
    expect(created.status).toBe(201);
    const policy = Policy.parse(created.body);
    expect(policy).toMatchObject({ name: 'strict', version: 1, builtin: false, description: 'Permissive licenses only' });
    expect(policy.id).toMatch(/^pol_[0-9a-f]{16}$/);
    expect(policy.rules[0]).toEqual({ name: 'vigil-block', expression: 'artifact.verdict != "BLOCK"', action: 'block', description: null });

    // Managing policies needs no paid plan.
    expect((await call(app, 'POST', '/v1/policies', acmeFree, { ...STRICT, name: 'free-strict' })).status).toBe(201);

    const updated = await call(app, 'POST', `/v1/policies/${policy.id}`, acme, { rules: [{ name: 'only', expression: 'true', action: 'warn' }] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: policy.id, name: 'strict', version: 2, description: 'Permissive licenses only', rules: [{ name: 'only' }] });
    const renamed = await call(app, 'POST', `/v1/policies/${policy.id}`, acme, { name: 'strict-v2', description: null });
    expect(renamed.body).toMatchObject({ name: 'strict-v2', version: 3, description: null, rules: [{ name: 'only' }] });

    expect((await call(app, 'GET', `/v1/policies/${policy.id}`, acme)).body).toEqual(renamed.body);
    const first = await call(app, 'GET', `/v1/policies/${policy.id}/versions/1`, acme);
    expect(first.body).toMatchObject({ version: 1, name: 'strict', rules: policy.rules });
    expect((await call(app, 'GET', `/v1/policies/${policy.id}/versions/4`, acme)).status).toBe(404);
    // A version written other than as a positive integer names no version either.
    for (const version of ['0', '01', '-1', '1.5', 'abc', '1234567890']) {
      expect(await call(app, 'GET', `/v1/policies/${policy.id}/versions/${version}`, acme)).toMatchObject({ status: 404, body: { detail: 'policy not found', code: 'policy_not_found' } });
    }

    await call(app, 'POST', '/v1/policies', acme, { ...STRICT, name: 'alpha' });
    const listed = await call(app, 'GET', '/v1/policies', acme, undefined, { 'x-vigil-page-size': '1' });
    expect(listed.status).toBe(200);
    expect((listed.body!.policies as Policy[]).map((p) => p.name)).toEqual(['alpha']);
    expect(listed.headers.get('x-vigil-next-page')).toBe('2');
    const second = await call(app, 'GET', '/v1/policies', acme, undefined, { 'x-vigil-page': '2', 'x-vigil-page-size': '1' });
    expect((second.body!.policies as Policy[]).map((p) => p.name)).toEqual(['strict-v2']);
    expect(second.headers.get('x-vigil-next-page')).toBeNull();
    // Byte order (capitals before lowercase), the organization's policies only: pol_default is not listed.
    await call(app, 'POST', '/v1/policies', acme, { ...STRICT, name: 'Zulu' });
    expect(((await call(app, 'GET', '/v1/policies', acme)).body!.policies as Policy[]).map((p) => p.name)).toEqual(['Zulu', 'alpha', 'strict-v2']);
    await call(app, 'DELETE', `/v1/policies/${((await call(app, 'GET', '/v1/policies', acme)).body!.policies as Policy[])[0]!.id}`, acme);

    const deleted = await call(app, 'DELETE', `/v1/policies/${policy.id}`, acme);
    expect(deleted).toMatchObject({ status: 200, body: { id: policy.id, version: 3 } });
    for (const [method, path, body] of [
      ['GET', `/v1/policies/${policy.id}`],
      ['GET', `/v1/policies/${policy.id}/versions/1`],
      ['POST', `/v1/policies/${policy.id}`, { description: 'again' }],
      ['DELETE', `/v1/policies/${policy.id}`],
    ] as const) {
      expect(await call(app, method, path, acme, body)).toMatchObject({ status: 404, body: { detail: 'policy not found', code: 'policy_not_found' } });
    }
    // The name is free again once its policy is deleted.
    expect((await call(app, 'POST', '/v1/policies', acme, { ...STRICT, name: 'strict-v2' })).status).toBe(201);

    // Every change is audited in its transaction, by key and address; refused ones are not.
    const audit = await ctx.db().selectFrom('audit_log').selectAll().where('target', '=', policy.id).orderBy('at').orderBy('entry_id').execute();
    expect(audit.map((e) => [e.action, e.actor, e.source_ip, JSON.parse(e.detail)])).toEqual([
      ['policy.create', `key:${acme.slice(4, 12)}`, '127.0.0.1', { name: 'strict', version: 1 }],
      ['policy.update', `key:${acme.slice(4, 12)}`, '127.0.0.1', { name: 'strict', version: 2, changed: ['rules'] }],
      ['policy.update', `key:${acme.slice(4, 12)}`, '127.0.0.1', { name: 'strict-v2', version: 3, changed: ['description', 'name'] }],
      ['policy.delete', `key:${acme.slice(4, 12)}`, '127.0.0.1', { name: 'strict-v2', version: 3 }],
    ]);
  });

  it('refuses what cannot be saved, and writes nothing', async () => {
    const { app, acme, globex, alice, reader } = await start();
    const first = Policy.parse((await call(app, 'POST', '/v1/policies', acme, STRICT)).body);

    const bad = await call(app, 'POST', '/v1/policies', acme, {
      name: 'typos',
      rules: [
        { name: 'fine', expression: 'true', action: 'warn' },
        { name: 'misspelt', expression: 'pkg.nmae == "x"', action: 'block' },
        { name: 'mistyped', expression: 'score > "x"', action: 'warn' },
      ],
    });
    expect(bad).toMatchObject({
      status: 422,
      body: {
        detail: 'policy rules do not compile', code: 'policy_rules_invalid',
        errors: [
          { path: 'body.rules.1.expression', message: 'rule misspelt at line 1, column 5: No such key: nmae' },
          { path: 'body.rules.2.expression', message: 'rule mistyped at line 1, column 1: no such overload: int > string' },
        ],
      },
    });
    const update = await call(app, 'POST', `/v1/policies/${first.id}`, acme, { rules: [{ name: 'div', expression: '1 / 0', action: 'block' }] });
    expect(update).toMatchObject({ status: 422, body: { errors: [{ path: 'body.rules.0.expression', message: expect.stringContaining('a rule must be of type bool') }] } });
    expect((await call(app, 'GET', `/v1/policies/${first.id}`, acme)).body).toMatchObject({ version: 1 });

    expect(await call(app, 'POST', '/v1/policies', acme, STRICT)).toMatchObject({ status: 409, body: { detail: 'policy name already taken', code: 'policy_name_taken' } });
    expect(await call(app, 'POST', '/v1/policies', acme, { ...STRICT, name: 'default' })).toMatchObject({ status: 409, body: { detail: 'policy name already taken', code: 'policy_name_taken' } });
    await call(app, 'POST', '/v1/policies', acme, { ...STRICT, name: 'other' });
    expect(await call(app, 'POST', `/v1/policies/${first.id}`, acme, { name: 'other' })).toMatchObject({ status: 409 });
    // Names are per organization.
    expect((await call(app, 'POST', '/v1/policies', globex, STRICT)).status).toBe(201);

    expect(await call(app, 'POST', '/v1/policies', acme, { ...STRICT, name: 'x', rules: [] })).toMatchObject({ status: 422, body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: 'body.rules' }] } });
    // 2,000 characters compile; 2,001 are refused by the schema, before any rule is compiled.
    expect((await call(app, 'POST', '/v1/policies', acme, { name: 'long', rules: [{ name: 'a', expression: `true${' '.repeat(1_996)}`, action: 'warn' }] })).status).toBe(201);
    expect(await call(app, 'POST', '/v1/policies', acme, { name: 'longer', rules: [{ name: 'a', expression: `true${' '.repeat(1_997)}`, action: 'warn' }] })).toMatchObject({
      status: 422,
      body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: 'body.rules.0.expression' }] },
    });
    expect(await call(app, 'POST', '/v1/policies', acme, { ...STRICT, name: 'x', extra: 1 })).toMatchObject({ status: 422, body: { errors: [{ path: 'body' }] } });
    expect(await call(app, 'POST', `/v1/policies/${first.id}`, acme, {})).toMatchObject({ status: 422 });
    expect(await call(app, 'POST', '/v1/policies', acme, { ...STRICT, name: 'x', rules: [{ name: 'a', expression: 'true', action: 'deny' }] })).toMatchObject({
      status: 422,
      body: { errors: [{ path: 'body.rules.0.action' }] },
    });

    // Another organization's policy does not exist for this one.
    for (const [method, path, body] of [
      ['GET', `/v1/policies/${first.id}`],
      ['POST', `/v1/policies/${first.id}`, { description: 'mine now' }],
      ['DELETE', `/v1/policies/${first.id}`],
    ] as const) {
      expect(await call(app, method, path, globex, body)).toMatchObject({ status: 404, body: { detail: 'policy not found', code: 'policy_not_found' } });
    }
    expect((await call(app, 'GET', '/v1/policies/pol_nothex', acme)).body).toEqual({ detail: 'policy not found', code: 'policy_not_found' });

    expect(await call(app, 'POST', '/v1/policies', alice, { ...STRICT, name: 'mine' })).toMatchObject({ status: 403, body: { detail: 'personal accounts cannot own policies', code: 'personal_account_policies' } });
    expect(await call(app, 'GET', '/v1/policies', alice)).toMatchObject({ status: 200, body: { policies: [] } });
    expect(await call(app, 'POST', '/v1/policies', reader, STRICT)).toMatchObject({ status: 403, body: { detail: "api key lacks 'policies' scope", code: 'scope_missing' } });
    expect(await call(app, 'GET', '/v1/policies', 'vgl_00000000_' + '0'.repeat(48))).toMatchObject({ status: 401 });

    const builtin = await call(app, 'GET', '/v1/policies/pol_default', alice);
    expect(builtin).toMatchObject({ status: 200, body: { id: 'pol_default', name: 'default', builtin: true, version: 1 } });
    expect(await call(app, 'POST', '/v1/policies/pol_default', acme, { description: 'x' })).toMatchObject({ status: 403, body: { detail: 'the built-in default policy cannot be changed', code: 'builtin_policy_readonly' } });
    expect(await call(app, 'DELETE', '/v1/policies/pol_default', acme)).toMatchObject({ status: 403 });

    const stored = await ctx.db().selectFrom('policies').select('name').where('account_id', '=', (await ctx.db().selectFrom('accounts').select('account_id').where('name', '=', 'acme').executeTakeFirstOrThrow()).account_id).orderBy('name').execute();
    expect(stored.map((r) => r.name)).toEqual(['long', 'other', 'strict']);
  });

  it("refuses the attacker's rules when saved, and bounds one saved before the estimate knew them without freezing the server", async () => {
    const { app } = await start();
    const acme = await operatorKey(ctx.db(), ['--org', 'acme-repo', '--plan', 'paid', '--scopes', 'policies,repositories']);
    for (const expression of HOSTILE_RULES.slice(0, 3)) {
      const refused = await call(app, 'POST', '/v1/policies', acme, { name: 'doubling', rules: [{ name: 'grow', expression, action: 'block' }] });
      expect(refused).toMatchObject({ status: 422, body: { detail: 'policy rules do not compile', code: 'policy_rules_invalid', errors: [{ path: 'body.rules.0.expression', message: expect.stringMatching(/estimated cost \d+ exceeds 25000/) }] } });
    }
    // A policy saved before this estimate existed: its rules are written as they were stored then.
    const saved = Policy.parse((await call(app, 'POST', '/v1/policies', acme, { name: 'legacy', rules: [{ name: 'ok', expression: 'true', action: 'block' }] })).body);
    const legacyRules = [
      // 16 million elements: far more than an evaluation thread's heap.
      { name: 'memory', expression: doublingRule(14, `"${'x'.repeat(1000)}".split("")`), action: 'block', description: null },
      // Quadratic over 38,400 elements: far past the time limit.
      { name: 'time', expression: doublingRule(7, `"${'x'.repeat(300)}".split("")`, (l) => `${l}.exists(a, ${l}.exists(b, a == b + "y"))`), action: 'warn', description: null },
      { name: 'verdict', expression: 'artifact.verdict != "BLOCK"', action: 'block', description: null },
    ];
    await ctx.db().updateTable('policy_versions').set({ rules: JSON.stringify(legacyRules) }).where('policy_id', '=', saved.id).execute();

    let settled = false;
    const evaluation = call(app, 'POST', '/v1/policies/evaluate', acme, { artifact: 'npm:left-pad@1.3.0', policy: 'legacy' }).finally(() => (settled = true));
    // The event loop stays free while the rules run: health answers before the evaluation does.
    const health = await fetch(`${app.baseUrl}/v1/health`);
    expect(health.status).toBe(200);
    expect(settled).toBe(false);
    const answer = await evaluation;
    expect(answer.status).toBe(200);
    expect(PolicyEvaluation.parse(answer.body).checks).toEqual([
      // Which budget it meets first depends on the machine's speed: either stops it.
      { name: 'memory', action: 'block', outcome: 'error', error: expect.stringMatching(/^the rule exceeded its evaluation (memory limit \(64 MB\)|time limit \(1000 ms\)) and was stopped$/) },
      { name: 'time', action: 'warn', outcome: 'error', error: 'the rule exceeded its evaluation time limit (1000 ms) and was stopped' },
      { name: 'verdict', action: 'block', outcome: 'passed', error: null },
    ]);
    expect(answer.body).toMatchObject({ verdict: 'block', details: { failed: ['memory'], warnings: ['time'] } });

    // A lockfile of 40 packages: each rule overruns once, not once per package (40 s), and counts as failed for all.
    const lockfile = {
      name: 'app',
      lockfileVersion: 3,
      packages: {
        '': { name: 'app', dependencies: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`dep-${i}`, '1.0.0'])) },
        ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`node_modules/dep-${i}`, { version: '1.0.0', resolved: `https://registry.npmjs.org/dep-${i}/-/dep-${i}-1.0.0.tgz` }])),
      },
    };
    const verified = await call(app, 'POST', '/v1/repositories/verify', acme, { lockfiles: [{ path: 'package-lock.json', content: JSON.stringify(lockfile) }], policy: 'legacy' });
    expect(verified.status).toBe(200);
    const dependencies = (verified.body as { dependencies: { failed: string[]; warnings: string[] }[] }).dependencies;
    expect(dependencies).toHaveLength(40);
    for (const dependency of dependencies) expect(dependency).toMatchObject({ failed: ['memory'], warnings: ['time'] });
  });

  it('replays a creation sent again with its Idempotency-Key', async () => {
    const { app, acme } = await start();
    const headers = { 'idempotency-key': 'create-strict-1' };
    const first = await call(app, 'POST', '/v1/policies', acme, STRICT, headers);
    const again = await call(app, 'POST', '/v1/policies', acme, STRICT, headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await ctx.db().selectFrom('policies').select('policy_id').execute()).toHaveLength(1);

    // A policy that does not compile is an answer of the endpoint: stored, and replayed as it was.
    const broken = { name: 'broken', rules: [{ name: 'typo', expression: 'pkg.nmae == ""', action: 'warn' }] };
    const refused = await call(app, 'POST', '/v1/policies', acme, broken, { 'idempotency-key': 'create-broken-1' });
    expect(refused).toMatchObject({ status: 422, body: { detail: 'policy rules do not compile', code: 'policy_rules_invalid' } });
    const replayedRefusal = await call(app, 'POST', '/v1/policies', acme, broken, { 'idempotency-key': 'create-broken-1' });
    expect(replayedRefusal).toMatchObject({ status: 422, body: refused.body });
    expect(replayedRefusal.headers.get('idempotent-replayed')).toBe('true');

    // The key's plan is checked before any replay: an evaluation replays only while the plan is paid.
    const evaluation = { artifact: 'npm:left-pad@1.3.0', policy: 'default' };
    const evaluated = await call(app, 'POST', '/v1/policies/evaluate', acme, evaluation, { 'idempotency-key': 'evaluate-1' });
    expect(evaluated.status).toBe(200);
    expect((await call(app, 'POST', '/v1/policies/evaluate', acme, evaluation, { 'idempotency-key': 'evaluate-1' })).body).toEqual(evaluated.body);
    const admin = await operatorKey(ctx.db(), ['--org', 'vigil-ops', '--scopes', 'admin']);
    const account = await ctx.db().selectFrom('accounts').select('account_id').where('name', '=', 'acme').executeTakeFirstOrThrow();
    expect(await call(app, 'POST', `/v1/admin/accounts/${account.account_id}`, admin, { plan: 'free' })).toMatchObject({ status: 200 });
    const downgraded = await call(app, 'POST', '/v1/policies/evaluate', acme, evaluation, { 'idempotency-key': 'evaluate-1' });
    expect(downgraded).toMatchObject({ status: 403, body: { detail: 'this endpoint requires a paid plan', code: 'paid_plan_required' } });
    expect(downgraded.headers.get('idempotent-replayed')).toBeNull();
    await call(app, 'POST', `/v1/admin/accounts/${account.account_id}`, admin, { plan: 'paid' });
    const upgraded = await call(app, 'POST', '/v1/policies/evaluate', acme, evaluation, { 'idempotency-key': 'evaluate-1' });
    expect(upgraded).toMatchObject({ status: 200, body: evaluated.body });
    expect(upgraded.headers.get('idempotent-replayed')).toBe('true');
  });

  it('evaluates: organization and personal keys differ on one artifact, versions are recorded, evaluations are read back by their account only', async () => {
    const { app, acme, acmeFree, globex, alice, ops } = await start();
    await importAdvisories(ctx.db(), readFeedFiles(OSV), () => T0);
    await publishBlock('pkg:npm/evil@1.0.0');
    await uploadPackage(app, ops, 'copyleft-thing', 'GPL-3.0-only');
    const strict = Policy.parse((await call(app, 'POST', '/v1/policies', acme, STRICT)).body);

    // A pending artifact Vigil holds, with facts read from its tarball.
    const org = await call(app, 'POST', '/v1/policies/evaluate', acme, { artifact: 'npm:copyleft-thing@1.0.0', policy: 'strict', include: ['licenses', 'provenance'] });
    expect(org.status).toBe(200);
    const orgEvaluation = PolicyEvaluation.parse(org.body);
    expect(orgEvaluation).toMatchObject({
      artifact: 'npm:copyleft-thing@1.0.0',
      purl: 'pkg:npm/copyleft-thing@1.0.0',
      policy: 'strict',
      verdict: 'block',
      score: 0,
      risk: 'none',
      state: 'pending',
      details: { passed: ['vigil-block'], failed: ['permissive'], warnings: ['no-install-scripts'] },
      applied_policy: { id: strict.id, name: 'strict', version: 1, builtin: false },
      licenses: { declared: 'GPL-3.0-only', valid: true, ids: ['GPL-3.0-only'] },
      provenance: { vigil_attested: false, attestations: [], registry: 'absent' },
    });
    expect(orgEvaluation.id).toMatch(/^eval_[A-Za-z0-9_-]{22}$/);
    expect(orgEvaluation.vulnerabilities).toBeUndefined();
    expect(orgEvaluation.findings).toBeUndefined();
    // 100 / size([]) divides by zero: the monitor check errs, is recorded, and changes nothing.
    expect(orgEvaluation.checks).toEqual([
      { name: 'vigil-block', action: 'block', outcome: 'passed', error: null },
      { name: 'permissive', action: 'block', outcome: 'failed', error: null },
      { name: 'no-install-scripts', action: 'warn', outcome: 'failed', error: null },
      { name: 'ratio', action: 'monitor', outcome: 'error', error: 'line 1, column 1: division by zero' },
      { name: 'legacy', action: 'ignore', outcome: 'skipped', error: null },
    ]);

    // The same artifact with a personal key: the public default policy, whatever `policy` says.
    const personal = PolicyEvaluation.parse((await call(app, 'POST', '/v1/policies/evaluate', alice, { artifact: 'npm:copyleft-thing@1.0.0', policy: 'strict' })).body);
    expect(personal).toMatchObject({
      policy: 'strict',
      verdict: 'warn',
      state: 'pending',
      applied_policy: { id: 'pol_default', name: 'default', version: 1, builtin: true },
      details: { failed: [], warnings: ['evaluated'] },
    });
    expect(personal.verdict).not.toBe(orgEvaluation.verdict);
    expect(personal.checks.find((c) => c.name === 'no-install-scripts')).toMatchObject({ action: 'monitor', outcome: 'failed' });

    // Vigil's own BLOCK, with its findings; an artifact never seen; advisories for a version.
    const blocked = PolicyEvaluation.parse((await call(app, 'POST', '/v1/policies/evaluate', acme, { artifact: 'pkg:npm/evil@1.0.0', policy: 'default', include: ['findings', 'provenance'] })).body);
    expect(blocked).toMatchObject({ verdict: 'block', score: 88, risk: 'critical', state: 'decided', details: { failed: ['vigil-block'] }, applied_policy: { builtin: true } });
    expect(blocked.findings).toEqual([{ type: 'static', category: 'exfiltration', severity: 'HIGH', title: 'exfiltration found', file: 'SKILL.md' }]);
    expect(blocked.provenance).toMatchObject({ vigil_attested: true, registry: 'unknown' });
    expect(blocked.provenance!.attestations).toHaveLength(2);
    const unseen = PolicyEvaluation.parse((await call(app, 'POST', '/v1/policies/evaluate', alice, { artifact: 'npm:minimist@1.2.5', policy: 'default', include: ['vulnerabilities'] })).body);
    expect(unseen).toMatchObject({ verdict: 'block', state: 'pending', score: 90, risk: 'critical', details: { failed: ['no-critical-vulnerabilities'], warnings: ['evaluated'] } });
    expect(unseen.vulnerabilities).toEqual([
      { id: 'GHSA-xvch-5gv4-984h', aliases: ['CVE-2021-44906'], summary: 'Prototype Pollution in minimist', severity: 'critical', fixed_in: ['0.2.4', '1.2.6'] },
    ]);

    // An update is a new version; an evaluation names the version it ran.
    await call(app, 'POST', `/v1/policies/${strict.id}`, acme, { rules: [{ name: 'anything', expression: 'true', action: 'block' }] });
    const after = PolicyEvaluation.parse((await call(app, 'POST', '/v1/policies/evaluate', acme, { artifact: 'npm:copyleft-thing@1.0.0', policy: 'strict' })).body);
    expect(after).toMatchObject({ verdict: 'allow', applied_policy: { id: strict.id, version: 2 }, details: { passed: ['anything'] } });
    const stored = await ctx.db().selectFrom('policy_evaluations').select(['evaluation_id', 'policy_id', 'policy_version']).where('policy_id', '=', strict.id).orderBy('policy_version').execute();
    expect(stored.map((r) => [r.evaluation_id, Number(r.policy_version)])).toEqual([
      [orgEvaluation.id, 1],
      [after.id, 2],
    ]);

    const fetched = await call(app, 'GET', `/v1/policies/evaluations/${orgEvaluation.id}`, acme);
    expect(fetched).toMatchObject({ status: 200, body: org.body });
    // The reference is echoed as sent, whatever its form; `purl` is what ran.
    for (const artifact of ['pkg:npm/%40scope/thing@2.0.0', 'pkg:npm/@scope/thing@2.0.0', 'npm:@scope/thing@2.0.0']) {
      expect((await call(app, 'POST', '/v1/policies/evaluate', acme, { artifact, policy: 'default' })).body).toMatchObject({ artifact, purl: 'pkg:npm/%40scope/thing@2.0.0' });
    }
    // An answer stored before `purl` existed (its `artifact` was the canonical purl) reads back with it.
    const { purl: _purl, ...older } = orgEvaluation;
    await ctx.db().updateTable('policy_evaluations').set({ body: JSON.stringify({ ...older, artifact: 'pkg:npm/copyleft-thing@1.0.0' }) }).where('evaluation_id', '=', orgEvaluation.id).execute();
    expect((await call(app, 'GET', `/v1/policies/evaluations/${orgEvaluation.id}`, acme)).body).toMatchObject({ artifact: 'pkg:npm/copyleft-thing@1.0.0', purl: 'pkg:npm/copyleft-thing@1.0.0' });
    expect(await call(app, 'GET', `/v1/policies/evaluations/${orgEvaluation.id}`, globex)).toMatchObject({ status: 404, body: { detail: 'evaluation not found', code: 'evaluation_not_found' } });
    expect(await call(app, 'GET', '/v1/policies/evaluations/eval_', acme)).toMatchObject({ status: 404, body: { detail: 'evaluation not found', code: 'evaluation_not_found' } });

    // Refusals: unknown and deleted policies, an unknown include, a free plan.
    expect(await call(app, 'POST', '/v1/policies/evaluate', acme, { artifact: 'npm:a@1.0.0', policy: 'nope' })).toMatchObject({ status: 404, body: { detail: 'policy not found', code: 'policy_not_found' } });
    expect(await call(app, 'POST', '/v1/policies/evaluate', globex, { artifact: 'npm:a@1.0.0', policy: 'strict' })).toMatchObject({ status: 404 });
    await call(app, 'DELETE', `/v1/policies/${strict.id}`, acme);
    expect(await call(app, 'POST', '/v1/policies/evaluate', acme, { artifact: 'npm:a@1.0.0', policy: 'strict' })).toMatchObject({ status: 404, body: { detail: 'policy not found', code: 'policy_not_found' } });
    expect(await call(app, 'POST', '/v1/policies/evaluate', acme, { artifact: 'npm:a@1.0.0', policy: 'default', include: ['malware'] })).toMatchObject({
      status: 422,
      body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: 'body.include.0' }] },
    });
    expect(await call(app, 'POST', '/v1/policies/evaluate', acme, { artifact: 'lodash', policy: 'default' })).toMatchObject({ status: 422, body: { errors: [{ path: 'body.artifact' }] } });
    expect(await call(app, 'POST', '/v1/policies/evaluate', acmeFree, { artifact: 'npm:a@1.0.0', policy: 'default' })).toMatchObject({ status: 403, body: { detail: 'this endpoint requires a paid plan', code: 'paid_plan_required' } });
    const count = await ctx.db().selectFrom('policy_evaluations').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(8);
  });

  it('writes the checksum qualifier with an unencoded colon everywhere, so a rule on artifact.purl sees `checksum=sha256:`; references stored encoded are still found', async () => {
    const { app } = await start();
    const token = await operatorKey(ctx.db(), ['--org', 'checksummer', '--plan', 'paid', '--scopes', 'policies,upload,read,verify']);
    const bytes = Buffer.from(tarGz([{ path: 'package/package.json', content: JSON.stringify({ name: 'sum-pad', version: '1.3.0', license: 'MIT' }) }]));
    const hex = createHash('sha256').update(bytes).digest('hex');
    const canonical = `pkg:npm/sum-pad@1.3.0?checksum=sha256:${hex}`;
    const upload = await fetch(`${app.baseUrl}/v1/artifacts?track=packages&package=${encodeURIComponent(`pkg:npm/sum-pad@1.3.0?checksum=sha256%3A${hex}`)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(upload.status).toBe(201);
    expect(((await upload.json()) as { packages: { purl: string }[] }).packages).toMatchObject([{ purl: canonical }]);
    const stored = await ctx.db().selectFrom('artifact_packages').select('purl').where('name', '=', 'sum-pad').execute();
    expect(stored.map((r) => r.purl)).toEqual([canonical]);

    // Verify finds it under either spelling and answers the canonical purl.
    for (const artifact of [canonical, canonical.replace('sha256:', 'sha256%3A')]) {
      const verified = await call(app, 'POST', '/v1/artifacts/verify', token, { artifact });
      expect(verified).toMatchObject({ status: 200, body: { artifact: canonical, state: 'pending', queued: true } });
    }

    const rule = { name: 'pinned', expression: 'artifact.purl.contains("checksum=sha256:")', action: 'block' };
    expect((await call(app, 'POST', '/v1/policies', token, { name: 'pinned', rules: [rule] })).status).toBe(201);
    const evaluated = PolicyEvaluation.parse((await call(app, 'POST', '/v1/policies/evaluate', token, { artifact: canonical.replace('sha256:', 'sha256%3A'), policy: 'pinned' })).body);
    expect(evaluated).toMatchObject({ purl: canonical, checks: [{ name: 'pinned', outcome: 'passed' }] });

    // A reference stored encoded, as before the canonical form changed: migration 0018 rewrites it.
    await ctx.db().updateTable('artifact_packages').set({ purl: canonical.replace('sha256:', 'sha256%3A') }).where('name', '=', 'sum-pad').execute();
    await purlColonsMigration.up(ctx.db());
    expect((await ctx.db().selectFrom('artifact_packages').select('purl').where('name', '=', 'sum-pad').execute()).map((r) => r.purl)).toEqual([canonical]);
    expect(await call(app, 'POST', '/v1/artifacts/verify', token, { artifact: canonical })).toMatchObject({ status: 200, body: { artifact: canonical, queued: true } });
  });

  it("leaves every account's provenance as it was when another account attaches a bundle that does not verify", async () => {
    const { app, acme } = await start();
    const globex = await operatorKey(ctx.db(), ['--org', 'globex-uploads', '--plan', 'paid', '--scopes', 'policies,upload,read']);
    const bytes = Buffer.from(tarGz([{ path: 'package/package.json', content: JSON.stringify({ name: 'shared-thing', version: '1.0.0', license: 'MIT' }) }]));
    const upload = async (token: string, reference: string) => {
      const response = await fetch(`${app.baseUrl}/v1/artifacts?track=packages&package=${encodeURIComponent(reference)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      return ((await response.json()) as { id: string }).id;
    };
    const id = await upload(acme, 'npm:shared-thing@1.0.0');
    // The same bytes under globex's own reference make globex an uploader, allowed to attach a bundle.
    expect(await upload(globex, 'npm:globex-copy@6.6.6')).toBe(id);
    const registry = async (token: string, artifact: string) =>
      PolicyEvaluation.parse((await call(app, 'POST', '/v1/policies/evaluate', token, { artifact, policy: 'default', include: ['provenance'] })).body).provenance!.registry;
    expect(await registry(acme, 'npm:shared-thing@1.0.0')).toBe('absent');

    // Real npm attestations: they verify cryptographically, but sign other bytes.
    const attestations = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/sigstore/gundam-visor-1.0.1.attestations.json'), 'utf8')) as unknown;
    const refused = await call(app, 'POST', `/v1/artifacts/${id}/provenance`, globex, attestations);
    expect(refused).toMatchObject({ status: 422, body: { detail: 'provenance bundle does not verify', code: 'provenance_unverified', errors: [{ path: 'body', message: expect.stringMatching(/^the bundle signs pkg:npm\/gundam-visor@1\.0\.1 with sha512 [0-9a-f]{128}, not these bytes/) }] } });
    expect(await ctx.db().selectFrom('artifact_provenance').selectAll().execute()).toEqual([]);
    expect(await registry(acme, 'npm:shared-thing@1.0.0')).toBe('absent');
    expect(await registry(globex, 'npm:globex-copy@6.6.6')).toBe('absent');

    // A row that did not verify, as stored before such bundles were refused, stands for nobody.
    const poster = await ctx.db().selectFrom('accounts').select('account_id').where('name', '=', 'globex-uploads').executeTakeFirstOrThrow();
    await ctx
      .db()
      .insertInto('artifact_provenance')
      .values({ artifact_id: Number(id.slice(4)), status: 'present_unverified', reason: 'junk', bundle: '{}', subject: null, source_repository: null, logged_at: null, uploaded_by: poster.account_id, created_at: T0 })
      .execute();
    expect(await registry(acme, 'npm:shared-thing@1.0.0')).toBe('absent');
    expect(await registry(globex, 'npm:globex-copy@6.6.6')).toBe('absent');
    for (const token of [acme, globex]) {
      expect((await call(app, 'GET', `/v1/artifacts/${id}/facts`, token)).body).toMatchObject({ registry_provenance: 'absent', provenance: null });
    }
  });

  it('gives concurrent updates consecutive versions, and two concurrent creations of one name one winner', async () => {
    const { app, acme } = await start();
    const policy = Policy.parse((await call(app, 'POST', '/v1/policies', acme, STRICT)).body);
    const updates = await Promise.all(Array.from({ length: 6 }, (_, i) => call(app, 'POST', `/v1/policies/${policy.id}`, acme, { description: `update ${i}` })));
    expect(updates.map((u) => u.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(updates.map((u) => (u.body as Policy).version).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
    const versions = await ctx.db().selectFrom('policy_versions').select('version').where('policy_id', '=', policy.id).orderBy('version').execute();
    expect(versions.map((v) => Number(v.version))).toEqual([1, 2, 3, 4, 5, 6, 7]);

    const creations = await Promise.all([1, 2, 3].map(() => call(app, 'POST', '/v1/policies', acme, { ...STRICT, name: 'raced' })));
    expect(creations.map((c) => c.status).sort()).toEqual([201, 409, 409]);
    expect(creations.filter((c) => c.status === 409).map((c) => c.body)).toEqual([{ detail: 'policy name already taken', code: 'policy_name_taken' }, { detail: 'policy name already taken', code: 'policy_name_taken' }]);
  });

  it('never fails on an arbitrary rule or description: saved (201) or refused (422), nothing else', async () => {
    const { app, acme } = await start();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 120, unit: 'binary' }), fc.string({ maxLength: 40, unit: 'binary' }), async (expression, description) => {
        n += 1;
        const response = await app.app.inject({
          method: 'POST',
          url: '/v1/policies',
          headers: { authorization: `Bearer ${acme}` },
          payload: { name: `fuzz-${n}`, description, rules: [{ name: 'r', expression, action: 'warn' }] },
        });
        expect([201, 422], response.body).toContain(response.statusCode);
      }),
      { numRuns: 150 },
    );
  });
});
