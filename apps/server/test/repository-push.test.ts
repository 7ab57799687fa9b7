import { startTestApp, type TestApp } from '../src/test-support/test-app.js';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RepositoryVerification, RepositoryVerifiedEvent } from '@vigil/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createFileBlobStore } from '../src/platform/blobs/index.js';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import { createPolicyInputSources } from '../src/features/policies/create-input-sources.js';
import type { RepositoryWorker } from '../src/features/repositories/worker/create-repository-worker.js';
import { repositoryWorkerSettingsFromEnv } from '../src/features/repositories/worker/settings.js';
import { createPushWorker } from '../src/features/repositories/worker/start-push-worker.js';
import { claimDueJob, JOB_LEASE_MS } from '../src/features/repositories/repository-jobs.js';
import { processRepositoryJob } from '../src/features/repositories/repository-push.js';
import { createGithubProvider } from '../src/features/repositories/providers/github-provider.js';
import { githubSettingsFromEnv } from '../src/features/repositories/providers/github-settings.js';
import { startStandInGithub, type StandInGithub } from '../src/features/repositories/providers/test-support/stand-in-github.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { DAY, publishLiveVerdicts, T0 } from '../src/test-support/fixtures.js';
import { watchRepositoryDependencies } from '../src/features/registries/index.js';
import { lockfileFormatOf } from '@vigil/lockfiles';

const FIXTURES = new URL('../../../packages/lockfiles/test/fixtures/', import.meta.url).pathname;
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');
const NPM_PACKAGES = [
  'pkg:npm/%40types/ms@0.7.34',
  'pkg:npm/is-number@6.0.0',
  'pkg:npm/is-number@7.0.0',
  'pkg:npm/is-odd@3.0.1',
  'pkg:npm/left-pad@1.3.0',
  'pkg:npm/ms@2.0.0',
  'pkg:npm/ms@2.1.2',
  'pkg:npm/ms@2.1.3',
];

describeEachDialect('continuous verification: GitHub pushes', (ctx) => {
  let github: StandInGithub;
  let started: TestApp;
  let url: string;
  let dataDir: string;
  let clock: number;
  let worker: RepositoryWorker;
  let token: string;

  beforeEach(async () => {
    github = await startStandInGithub();
    clock = T0 + 10 * DAY;
    dataDir = mkdtempSync(join(tmpdir(), 'vigil-repository-push-'));
    const blobs = createFileBlobStore(join(dataDir, 'blobs'));
    const sources = createPolicyInputSources(ctx.db(), blobs, () => clock);
    const settings = repositoryWorkerSettingsFromEnv({ VIGIL_GITHUB_API_URL: github.url });
    worker = createPushWorker({ db: ctx.db(), settings, sources, now: () => clock });
    started = await startTestApp({ dataDir, database: ctx, overrides: { clock: () => clock, blobs } });
    url = started.url;
    const lines = await runKeysCommand(ctx.db(), 'keys', ['create', '--org', 'acme', '--plan', 'paid', '--scopes', 'repositories'], T0);
    token = lines.find((line) => line.startsWith('vgl_'))!;
  });

  afterEach(async () => {
    await worker.stop();
    await started.close();
    await github.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
    const response = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  async function register(): Promise<{ id: string; secret: string }> {
    const created = await api('POST', '/v1/repositories', { url: 'https://github.com/acme/widgets', provider: 'github' });
    expect(created.status).toBe(201);
    return { id: created.body.data.id, secret: created.body.data.webhook.secret };
  }

  async function push(secret: string, delivery: string, before: string, after: string) {
    const body = JSON.stringify({
      ref: 'refs/heads/main',
      before,
      after,
      commits: [{ id: after, added: [], modified: ['docs/requirements.txt'], removed: [] }],
      repository: { clone_url: 'https://github.com/acme/widgets.git', html_url: 'https://github.com/acme/widgets', default_branch: 'main' },
    });
    const response = await fetch(`${url}/v1/repositories/hooks/github`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-github-delivery': delivery,
        'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
      },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  const events = async () =>
    (await ctx.db().selectFrom('outbox_events').select(['kind', 'payload']).where('kind', '=', 'repository.verified').orderBy('seq').execute()).map((e) => ({
      kind: e.kind,
      payload: RepositoryVerifiedEvent.parse(JSON.parse(e.payload)),
    }));
  const contentsFetched = () => github.requests.filter((r) => r.path.includes('/contents/')).map((r) => r.path.split('?')[0]!.replace('/repos/acme/widgets/contents/', ''));
  const verificationsStored = async () => Number((await ctx.db().selectFrom('source_repository_verifications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('verifies the default branch on registration, then each push, fetching only the lockfiles that changed; record, verification and event agree', async () => {
    const first = github.commit('acme', 'widgets', {
      'package-lock.json': fixture('npm-v3/package-lock.json'),
      'docs/requirements.txt': fixture('requirements-unpinned/requirements.txt'),
      'node_modules/left-pad/package-lock.json': '{}',
      'README.md': '# widgets',
    });
    const { id, secret } = await register();
    expect(await worker.drain()).toBe(1);
    expect(contentsFetched().sort()).toEqual(['docs/requirements.txt', 'package-lock.json']);

    const record = await api('GET', `/v1/repositories/${id}`);
    expect(record.body).toMatchObject({
      verdict: 'WARN',
      last_verification: { verdict: 'WARN', previous_verdict: null, ref: 'refs/heads/main', commit: first, policy: 'default', packages: 8, pending: 8 },
      last_push: { delivery: 'initial', ref: 'refs/heads/main', commit: first, state: 'done', attempts: 1, last_error: null, next_attempt_at: null },
    });
    const full = await api('GET', `/v1/repositories/${id}/verification`);
    expect(RepositoryVerification.parse(full.body)).toMatchObject({ id: record.body.last_verification.id, repository: id, commit: first, complete: false });
    expect(full.body.files.map((f: { path: string; packages: number }) => [f.path, f.packages])).toEqual([
      ['docs/requirements.txt', 0],
      ['package-lock.json', 8],
    ]);
    const [created] = await events();
    expect(created).toMatchObject({
      kind: 'repository.verified',
      payload: { repository: id, url: 'https://github.com/acme/widgets.git', verification: record.body.last_verification.id, commit: first, verdict: 'WARN', previous_verdict: null, worse: false, changes: null },
    });

    const second = github.commit('acme', 'widgets', {
      'package-lock.json': fixture('npm-v3/package-lock.json'),
      'docs/requirements.txt': fixture('requirements-pip-compile/requirements.txt'),
      'README.md': '# widgets',
    });
    expect((await push(secret, 'd-1', first, second)).status).toBe(202);
    expect(await worker.drain()).toBe(1);
    // package-lock.json's blob did not change: it is not fetched again.
    expect(contentsFetched().sort()).toEqual(['docs/requirements.txt', 'docs/requirements.txt', 'package-lock.json']);
    const after = await api('GET', `/v1/repositories/${id}`);
    expect(after.body.last_push).toMatchObject({ delivery: 'd-1', commit: second, state: 'done' });
    expect(after.body.last_verification.packages).toBeGreaterThan(8);
    expect((await events()).map((e) => e.payload.commit)).toEqual([first, second]);
    expect(await verificationsStored()).toBe(2);
    // `POST /v1/repositories/verify {repository}` reads the lockfiles of that last push.
    const again = await api('POST', '/v1/repositories/verify', { repository: id });
    expect(again.body).toMatchObject({ id: null, repository: id, commit: second, summary: { packages: after.body.last_verification.packages } });
  });

  it('a verdict that got worse says which dependencies changed, in the record and in the event', async () => {
    const account = await ctx.db().selectFrom('accounts').select('account_id').executeTakeFirstOrThrow();
    await publishLiveVerdicts(ctx.db(), { uploadedBy: account.account_id, verdicts: new Map(NPM_PACKAGES.map((p) => [p, 'ALLOW'])) });
    const first = github.commit('acme', 'widgets', { 'package-lock.json': fixture('npm-v3/package-lock.json') });
    const { id, secret } = await register();
    await worker.drain();
    expect((await api('GET', `/v1/repositories/${id}`)).body.last_verification).toMatchObject({ verdict: 'ALLOW', pending: 0 });

    // A later round blocks one dependency; the next push (which changes no lockfile) shows it.
    await publishLiveVerdicts(ctx.db(), { uploadedBy: account.account_id, verdicts: new Map([['pkg:npm/is-number@6.0.0', 'BLOCK']]), at: T0 + DAY });
    const second = github.commit('acme', 'widgets', { 'package-lock.json': fixture('npm-v3/package-lock.json'), 'README.md': 'x' });
    await push(secret, 'd-2', first, second);
    await worker.drain();
    const changes = { previous_verdict: 'ALLOW', total: 1, dependencies: [{ purl: 'pkg:npm/is-number@6.0.0', previous_verdict: 'ALLOW', verdict: 'BLOCK', pending: false }] };
    const full = await api('GET', `/v1/repositories/${id}/verification`);
    expect(full.body).toMatchObject({ verdict: 'BLOCK', commit: second, changes });
    expect((await api('GET', `/v1/repositories/${id}`)).body.last_verification).toMatchObject({ verdict: 'BLOCK', previous_verdict: 'ALLOW' });
    const latest = (await events()).at(-1)!;
    expect(latest.payload).toMatchObject({ verdict: 'BLOCK', previous_verdict: 'ALLOW', worse: true, changes });
  });

  it('a provider that fails is retried with backoff; a new worker (a restart) picks the push up', async () => {
    github.commit('acme', 'widgets', { 'package-lock.json': fixture('npm-v3/package-lock.json') });
    github.failNext(1, 502);
    const { id } = await register();
    expect(await worker.drain()).toBe(1);
    const retrying = await api('GET', `/v1/repositories/${id}`);
    expect(retrying.body.verdict).toBeNull();
    expect(retrying.body.last_push).toMatchObject({ state: 'retrying', attempts: 1, last_error: 'GitHub GET /repos/acme/widgets: 502 Bad Gateway' });
    expect(Date.parse(retrying.body.last_push.next_attempt_at)).toBe(clock + 30_000);
    expect(await verificationsStored()).toBe(0);
    // Not before its time, and then by another process's worker as well as by this one.
    expect(await worker.drain()).toBe(0);
    await worker.stop();
    clock += 30_000;
    const restarted = createPushWorker({
      db: ctx.db(),
      settings: repositoryWorkerSettingsFromEnv({ VIGIL_GITHUB_API_URL: github.url }),
      sources: createPolicyInputSources(ctx.db(), createFileBlobStore(join(dataDir, 'blobs')), () => clock),
      now: () => clock,
    });
    expect(await restarted.drain()).toBe(1);
    expect((await api('GET', `/v1/repositories/${id}`)).body.last_push).toMatchObject({ state: 'done', attempts: 2, last_error: null });
    expect(await verificationsStored()).toBe(1);
  });

  it("watches a verified push's dependencies for the account (direct ones first), bounded by its watch limit", async () => {
    await worker.stop();
    const limit = 3;
    const watching = createPushWorker({
      db: ctx.db(),
      settings: repositoryWorkerSettingsFromEnv({ VIGIL_GITHUB_API_URL: github.url }),
      sources: createPolicyInputSources(ctx.db(), createFileBlobStore(join(dataDir, 'blobs')), () => clock),
      now: () => clock,
      onVerified: async (accountId, dependencies, now) => void (await watchRepositoryDependencies(ctx.db(), accountId, dependencies, { now, limit })),
    });
    github.commit('acme', 'widgets', { 'package-lock.json': fixture('npm-v3/package-lock.json') });
    const { id } = await register();
    expect(await watching.drain()).toBe(1);
    expect(await verificationsStored()).toBe(1);
    const watches = await ctx.db().selectFrom('watches').select(['owner', 'package_key', 'source']).orderBy('package_key').execute();
    const account = (await ctx.db().selectFrom('accounts').select('account_id').where('name', '=', 'acme').executeTakeFirstOrThrow()).account_id;
    expect(watches).toHaveLength(limit);
    expect(watches.every((w) => w.owner === account && w.source === 'repository')).toBe(true);
    // Direct dependencies first (then the others by name), as many as the limit leaves room for.
    const deps = (await api('GET', `/v1/repositories/${id}/verification`)).body.dependencies as { name: string; direct: boolean | null }[];
    const names = (direct: boolean) => [...new Set(deps.filter((d) => (d.direct === true) === direct).map((d) => d.name))].sort();
    expect(names(true).length).toBeGreaterThan(0);
    const expected = [...names(true), ...names(false).filter((n) => !names(true).includes(n))].slice(0, limit);
    expect(watches.map((w) => w.package_key)).toEqual(expected.map((name) => `npm:${name}`).sort());
    expect(await ctx.db().selectFrom('watched_packages').select('package_key').orderBy('package_key').execute()).toEqual(watches.map((w) => ({ package_key: w.package_key })));
    await watching.stop();
  });

  it('a push whose lockfiles install no registry package is done with ALLOW; an attempt that fails inside Vigil ends retrying, never stays running', async () => {
    // Issue 23: on PostgreSQL the first failed unexpectedly and stayed `running`, attempts 1, no error.
    const first = github.commit('acme', 'widgets', { 'requirements.txt': 'numpy>=1.26\n' });
    const { id, secret } = await register();
    expect(await worker.drain()).toBe(1);
    const record = await api('GET', `/v1/repositories/${id}`);
    expect(record.body.last_push).toMatchObject({ state: 'done', attempts: 1, last_error: null });
    expect(record.body.verdict).toBe('ALLOW');

    const second = github.commit('acme', 'widgets', { 'requirements.txt': 'numpy>=1.27\n' });
    expect((await push(secret, 'delivery-2', first, second)).status).toBe(202);
    const deps = {
      db: ctx.db(),
      sources: createPolicyInputSources(ctx.db(), createFileBlobStore(join(dataDir, 'blobs')), () => clock),
      provider: {
        ...createGithubProvider(githubSettingsFromEnv({ VIGIL_GITHUB_API_URL: github.url })),
        listLockfiles: async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'path')");
        },
      },
      isLockfile: (path: string) => lockfileFormatOf(path) !== null,
      now: () => clock,
    };
    const claim = (await claimDueJob(ctx.db(), clock))!;
    await expect(processRepositoryJob(deps, claim)).rejects.toThrow(TypeError);
    const failed = await api('GET', `/v1/repositories/${id}`);
    expect(failed.body.last_push).toMatchObject({ state: 'retrying', attempts: 1, last_error: 'internal error (Vigil could not finish this attempt; it is retried)' });
    expect(Date.parse(failed.body.last_push.next_attempt_at)).toBe(clock + 30_000);
  });

  it('never shows a push done beside the verification of the push before it, however the reads interleave', async () => {
    // Issue 23 (PostgreSQL, intermittent): `done` for one commit while last_verification was the previous commit's.
    let previous = github.commit('acme', 'widgets', { 'requirements.txt': 'numpy==1.0.0\n' });
    const { id, secret } = await register();
    await worker.drain();
    const seen: { commit: string | null; state: string; verified: string | null }[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const body = (await api('GET', `/v1/repositories/${id}`)).body;
        seen.push({ commit: body.last_push?.commit ?? null, state: body.last_push?.state, verified: body.last_verification?.commit ?? null });
      }
    })();
    for (let n = 1; n <= 8; n++) {
      const next = github.commit('acme', 'widgets', { 'requirements.txt': `numpy==1.${n}.0\n` });
      expect((await push(secret, `delivery-${n}`, previous, next)).status).toBe(202);
      await worker.drain();
      previous = next;
    }
    polling = false;
    await poller;
    const done = seen.filter((s) => s.state === 'done');
    expect(done.length).toBeGreaterThan(0);
    for (const snapshot of done) expect(snapshot.verified, JSON.stringify(snapshot)).toBe(snapshot.commit);
  });

  it('a lockfile that cannot be read is listed with its error, the others still verified; no lockfile at all fails the push for good', async () => {
    github.commit('acme', 'widgets', {
      'package-lock.json': fixture('npm-v3/package-lock.json'),
      'test/fixtures/broken/pnpm-lock.yaml': 'lockfileVersion: [',
    });
    const { id } = await register();
    await worker.drain();
    const full = await api('GET', `/v1/repositories/${id}/verification`);
    expect(full.body.summary).toMatchObject({ packages: 8, unreadable_files: 1 });
    expect(full.body.complete).toBe(false);
    const broken = full.body.files.find((f: { path: string }) => f.path === 'test/fixtures/broken/pnpm-lock.yaml');
    expect(broken).toMatchObject({ format: 'pnpm-lock', packages: 0 });
    expect(broken.error).toMatch(/^test\/fixtures\/broken\/pnpm-lock\.yaml: line \d+: invalid YAML: /);

    github.createRepository('acme', 'empty');
    const sha = github.commit('acme', 'empty', { 'README.md': 'nothing to install' });
    const empty = await api('POST', '/v1/repositories', { url: 'https://github.com/acme/empty', provider: 'github' });
    await worker.drain();
    const record = await api('GET', `/v1/repositories/${empty.body.data.id}`);
    expect(record.body.last_push).toMatchObject({
      state: 'failed',
      attempts: 1,
      commit: sha,
      last_error: `no lockfile Vigil reads was found at ${sha} (docs/repositories.md lists the file names)`,
    });
    expect(record.body.last_verification).toBeNull();
  });

  it('stores nothing and emits nothing when its claim was taken over, or its repository deleted, before it finished', async () => {
    github.commit('acme', 'widgets', { 'package-lock.json': fixture('npm-v3/package-lock.json') });
    const { id } = await register();
    const deps = {
      db: ctx.db(),
      sources: createPolicyInputSources(ctx.db(), createFileBlobStore(join(dataDir, 'blobs')), () => clock),
      provider: createGithubProvider(githubSettingsFromEnv({ VIGIL_GITHUB_API_URL: github.url })),
      isLockfile: (path: string) => lockfileFormatOf(path) !== null,
      now: () => clock,
    };
    const stale = (await claimDueJob(ctx.db(), clock))!;
    const current = (await claimDueJob(ctx.db(), clock + JOB_LEASE_MS))!;
    await processRepositoryJob(deps, stale);
    expect(await verificationsStored()).toBe(0);
    expect(await events()).toEqual([]);
    expect(await ctx.db().selectFrom('source_repository_lockfiles').select('path').execute()).toEqual([]);

    expect((await api('DELETE', `/v1/repositories/${id}`)).status).toBe(200);
    await processRepositoryJob(deps, current);
    expect(await verificationsStored()).toBe(0);
    expect(await events()).toEqual([]);
  });
});
