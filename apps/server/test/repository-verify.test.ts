import { startTestApp } from '../src/test-support/test-app.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import { closedAfterEach } from '../src/test-support/closed-after-each.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { publishLiveVerdicts } from '../src/test-support/fixtures.js';

const FIXTURES = new URL('../../../packages/lockfiles/test/fixtures/', import.meta.url).pathname;
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

interface Server {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

const servers = closedAfterEach<Server>();

/** The eight packages the npm fixtures (package-lock v3, pnpm 9) install. */
const NPM_PACKAGES = [
  'pkg:npm/%40types/ms@0.7.34',
  'pkg:npm/is-number@6.0.0',
  'pkg:npm/is-number@7.0.0',
];

describeEachDialect('POST /v1/repositories/verify', (ctx) => {
  async function start(): Promise<Server> {
    const { app, url, close } = await startTestApp({ database: ctx, config: { adminAllowlist: ['127.0.0.1'] } });
    const server: Server = { app, url, close };
    servers.push(server);
    return server;
  }

  async function verify(server: Server, token: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
    const response = await fetch(`${server.url}/v1/repositories/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  const requests = async () => (await ctx.db().selectFrom('package_requests').select(['purl', 'request_count']).orderBy('purl').execute()).map((r) => `${r.purl} ×${Number(r.request_count)}`);

  it('answers a lockfile with no registry package (one unpinned line, 20,000 of them, one long comment) on every dialect', async () => {
    const server = await start();
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'repositories']);
    // Issue 23: on PostgreSQL each answered 500 (a query built from an empty list).
    for (const content of ['numpy>=1.26\n', Array.from({ length: 20_000 }, (_, i) => `pkg-${i}>=1`).join('\n'), `# ${'x'.repeat(1_000_000)}\n`]) {
      const answer = await verify(server, token, { lockfiles: [{ path: 'requirements.txt', content }] });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ verdict: 'ALLOW', summary: { packages: 0 }, dependencies: [] });
    }
  });

  it('reads lockfiles of several formats: per file what was read, which were direct, what was skipped and why', async () => {
    const server = await start();
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'repositories']);
    const answer = await verify(server, token, {
      lockfiles: [
        { path: 'web/package-lock.json', content: fixture('npm-v3/package-lock.json') },
        { path: 'api/pnpm-lock.yaml', content: fixture('pnpm-v9/pnpm-lock.yaml') },
        { path: 'docs/requirements.txt', content: fixture('requirements-unpinned/requirements.txt') },
        { path: 'tools/poetry.lock', content: fixture('poetry-2.0/poetry.lock') },
      ],
    });
    expect(answer.status).toBe(200);
    const files = answer.body.files as Record<string, any>[];
    // In path order whatever the posted order (outsider finding: the posted order was kept).
    expect(files.map((f) => [f.path, f.format, f.format_version, f.packages, f.direct, f.dev, f.error])).toEqual([
      ['api/pnpm-lock.yaml', 'pnpm-lock', '9.0', 8, 6, 2, null],
      ['docs/requirements.txt', 'requirements-txt', null, 0, 0, 0, null],
      ['tools/poetry.lock', 'poetry-lock', '2.0', 5, 0, 0, null],
      ['web/package-lock.json', 'package-lock', '3', 8, 6, 2, null],
    ]);
    expect(files[3]!.skipped).toEqual([
      { name: 'local-lib', line: 24, reason: 'local path dependency: not a registry package' },
      { name: '@fixture/util', line: 95, reason: 'workspace package: part of this repository, not a registry package' },
    ]);
    // A file nothing could be read from says why for every entry: never a silent "no issues".
    expect(files[1]!.skipped).toEqual([
      { name: 'furo', line: 1, reason: 'unpinned requirement: no exact == version' },
      { name: 'myst-parser', line: 2, reason: 'unpinned requirement: no exact == version' },
      { name: 'setuptools-scm', line: 3, reason: 'unpinned requirement: no exact == version' },
      { name: 'sphinx', line: 4, reason: 'unpinned requirement: no exact == version' },
    ]);
    // The two npm files install the same eight packages: each is one dependency listed with both files.
    const dependencies = answer.body.dependencies as Record<string, any>[];
    expect(dependencies).toHaveLength(13);
    const isNumber = dependencies.find((d) => d.purl === 'pkg:npm/is-number@7.0.0')!;
    expect(isNumber.files).toEqual(['api/pnpm-lock.yaml', 'web/package-lock.json']);
    expect(answer.body.summary).toEqual({ packages: 13, direct: 6, allowed: 0, warned: 0, blocked: 0, pending: 13, skipped: 2 + 2 + 4 + 1, unreadable_files: 0 });
    expect(answer.body).toMatchObject({ id: null, repository: null, ref: null, commit: null, verdict: 'WARN', complete: false, changes: null });
    expect(answer.body.policy).toEqual({ id: 'pol_default', name: 'default', version: 1, builtin: true });
  });

  it('counts what Vigil has not seen as pending (requested, never allowed), and decided packages by their verdict', async () => {
    const server = await start();
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'repositories']);
    const account = await ctx.db().selectFrom('accounts').select('account_id').executeTakeFirstOrThrow();
    await publishLiveVerdicts(ctx.db(), {
      uploadedBy: account.account_id,
      verdicts: new Map([
        [NPM_PACKAGES[0]!, 'ALLOW'],
        [NPM_PACKAGES[1]!, 'BLOCK'],
        [NPM_PACKAGES[2]!, 'WARN'],
      ]),
    });
    const answer = await verify(server, token, { lockfiles: [{ path: 'package-lock.json', content: fixture('npm-v3/package-lock.json') }] });
    expect(answer.status).toBe(200);
    const byPurl = new Map((answer.body.dependencies as Record<string, any>[]).map((d) => [d.purl, d]));
    expect(byPurl.get(NPM_PACKAGES[0]!)).toMatchObject({ state: 'decided', queued: null, verdict: 'ALLOW', published_verdict: 'ALLOW', direct: true, dev: true, failed: [], warnings: [] });
    expect(byPurl.get(NPM_PACKAGES[1]!)).toMatchObject({ state: 'decided', verdict: 'BLOCK', published_verdict: 'BLOCK', failed: ['vigil-block'] });
    expect(byPurl.get(NPM_PACKAGES[2]!)).toMatchObject({ state: 'decided', verdict: 'WARN', published_verdict: 'WARN', warnings: ['vigil-warn'] });
    const pending = [...byPurl.values()].filter((d) => d.state === 'pending');
    expect(pending).toHaveLength(5);
    for (const d of pending) expect(d).toMatchObject({ queued: 'requested', published_verdict: null });
    expect(answer.body.summary).toMatchObject({ packages: 8, allowed: 1, warned: 1, blocked: 1, pending: 5 });
    expect(answer.body.verdict).toBe('BLOCK');
    // Blocked first, then warned, pending, allowed.
    expect((answer.body.dependencies as Record<string, any>[]).map((d) => d.purl).slice(0, 2)).toEqual([NPM_PACKAGES[1], NPM_PACKAGES[2]]);
    expect((answer.body.dependencies as Record<string, any>[]).at(-1)!.purl).toBe(NPM_PACKAGES[0]);
    // The five Vigil holds no bytes for are requested, once each; asking again counts again.
    expect(await requests()).toHaveLength(5);
    await verify(server, token, { lockfiles: [{ path: 'package-lock.json', content: fixture('npm-v3/package-lock.json') }] });
    expect((await requests()).every((r) => r.endsWith('×2'))).toBe(true);
  });

  it('lists requested packages for the operator until a trusted upload brings their bytes, which makes them evaluating', async () => {
    const server = await start();
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'repositories,upload']);
    const globex = await operatorKey(ctx.db(), ['--org', 'globex', '--plan', 'paid', '--scopes', 'repositories']);
    const admin = await operatorKey(ctx.db(), ['--org', 'ops', '--scopes', 'admin,upload']);
    await runKeysCommand(ctx.db(), 'accounts', ['trust', 'ops'], Date.now());
    const lockfiles = [{ path: 'poetry.lock', content: fixture('poetry-2.0/poetry.lock') }];
    await verify(server, token, { lockfiles });
    await verify(server, token, { lockfiles });
    const list = async () => {
      const response = await fetch(`${server.url}/v1/admin/package-requests`, { headers: { authorization: `Bearer ${admin}` } });
      return (await response.json()) as { package_requests: Record<string, unknown>[] };
    };
    const before = await list();
    expect(before.package_requests).toHaveLength(5);
    expect(before.package_requests[0]).toMatchObject({ purl: 'pkg:pypi/certifi@2022.12.7', ecosystem: 'pypi', name: 'certifi', version: '2022.12.7', requests: 2 });
    const upload = (key: string, bytes: string) =>
      fetch(`${server.url}/v1/artifacts?track=packages&package=pypi:certifi@2022.12.7`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
    const certifiOf = async (key: string) =>
      ((await verify(server, key, { lockfiles })).body.dependencies as Record<string, any>[]).find((d) => d.purl === 'pkg:pypi/certifi@2022.12.7');
    // A customer's own upload answers for that customer: the operator still has to bring bytes for everyone.
    expect((await upload(token, 'certifi-2022.12.7 wheel bytes, from acme')).status).toBe(201);
    expect(await certifiOf(token)).toMatchObject({ state: 'pending', queued: 'evaluating', published_verdict: null });
    expect(await certifiOf(globex)).toMatchObject({ state: 'pending', queued: 'requested' });
    expect((await list()).package_requests.map((r) => r.purl)).toContain('pkg:pypi/certifi@2022.12.7');
    // The operator's trusted upload takes it off the list and makes it evaluating for every account.
    expect((await upload(admin, 'certifi-2022.12.7 wheel bytes')).status).toBe(201);
    expect((await list()).package_requests.map((r) => r.purl)).not.toContain('pkg:pypi/certifi@2022.12.7');
    expect(await certifiOf(globex)).toMatchObject({ state: 'pending', queued: 'evaluating', published_verdict: null });
  });

  it('a malformed lockfile is 422 naming the file and line, and nothing is stored', async () => {
    const server = await start();
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'repositories']);
    const broken = fixture('pnpm-v9/pnpm-lock.yaml').replace('packages:', 'packages: [');
    const answer = await verify(server, token, {
      lockfiles: [
        { path: 'package-lock.json', content: fixture('npm-v3/package-lock.json') },
        { path: 'api/pnpm-lock.yaml', content: broken },
      ],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toMatch(/^api\/pnpm-lock\.yaml: line \d+: /);
    expect(await requests()).toEqual([]);
  });

  it('refuses a file Vigil does not read, an empty or doubled list, both or neither source, and free plans', async () => {
    const server = await start();
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'repositories']);
    const gemfile = await verify(server, token, { lockfiles: [{ path: 'Gemfile.lock', content: 'GEM\n' }] });
    expect(gemfile.status).toBe(422);
    expect(gemfile.body.detail).toMatch(/^Gemfile\.lock: /);
    expect((await verify(server, token, { lockfiles: [] })).body.errors[0].path).toBe('body.lockfiles');
    const doubled = await verify(server, token, { lockfiles: [{ path: 'a/uv.lock', content: '' }, { path: 'a/uv.lock', content: '' }] });
    expect(doubled.body.errors[0]).toEqual({ path: 'body.lockfiles.1.path', message: 'a/uv.lock is given twice' });
    expect((await verify(server, token, { lockfiles: [{ path: '../uv.lock', content: '' }] })).body.errors[0].path).toBe('body.lockfiles.0.path');
    expect((await verify(server, token, {})).body.errors[0]).toEqual({ path: 'body', message: 'expected exactly one of lockfiles and repository' });
    expect((await verify(server, token, { repository: 'repo_0123456789abcdef', lockfiles: [{ path: 'uv.lock', content: '' }] })).status).toBe(422);
    const free = await operatorKey(ctx.db(), ['--org', 'globex', '--scopes', 'repositories']);
    expect(await verify(server, free, { lockfiles: [{ path: 'uv.lock', content: '' }] })).toEqual({ status: 403, body: { detail: 'this endpoint requires a paid plan', code: 'paid_plan_required' } });
  });

  it('applies the named policy of the organization, refuses an unknown one, and gives a personal key the default', async () => {
    const server = await start();
    const org = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'repositories,policies']);
    const created = await fetch(`${server.url}/v1/policies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'no-dev-tools', rules: [{ name: 'prod-only', expression: 'pkg.environment != "development"', action: 'block' }] }),
    });
    expect(created.status).toBe(201);
    const lockfiles = [{ path: 'package-lock.json', content: fixture('npm-v3/package-lock.json') }];
    const strict = await verify(server, org, { lockfiles, policy: 'no-dev-tools' });
    expect(strict.body.policy).toMatchObject({ name: 'no-dev-tools', builtin: false });
    expect(strict.body.summary.blocked).toBe(2);
    expect((await verify(server, org, { lockfiles, policy: 'nope' })).body).toEqual({ detail: 'policy not found', code: 'policy_not_found' });
    const personal = await operatorKey(ctx.db(), ['--personal', 'alice', '--plan', 'paid', '--scopes', 'repositories']);
    expect((await verify(server, personal, { lockfiles, policy: 'no-dev-tools' })).body.policy.name).toBe('default');
  });

  it("verifies a registered repository's last push, and says when there is none yet", async () => {
    const server = await start();
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'repositories']);
    const registered = await fetch(`${server.url}/v1/repositories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://github.com/acme/widgets', provider: 'github' }),
    });
    const id = ((await registered.json()) as { data: { id: string } }).data.id;
    const early = await verify(server, token, { repository: id });
    expect(early).toEqual({ status: 409, body: { detail: `repository: ${id} has no verified push yet (its last push is queued)`, code: 'repository_not_verified' } });
    await ctx.db()
      .insertInto('source_repository_lockfiles')
      .values({ repository_id: id, path: 'package-lock.json', blob_sha: 'a'.repeat(40), content: fixture('npm-v3/package-lock.json'), commit_sha: 'c'.repeat(40), fetched_at: 0 })
      .execute();
    const answer = await verify(server, token, { repository: id });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: null, repository: id, commit: 'c'.repeat(40), summary: { packages: 8 } });
    const other = await operatorKey(ctx.db(), ['--org', 'globex', '--plan', 'paid', '--scopes', 'repositories']);
    expect(await verify(server, other, { repository: id })).toEqual({ status: 404, body: { detail: 'repository not found', code: 'repository_not_found' } });
  });
});
