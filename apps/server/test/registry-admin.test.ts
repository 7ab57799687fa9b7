import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { formatOffsetTimestamp, RegistryFetchList, VerifyResult } from '@vigil/core';
import { createFileBlobStore } from '../src/platform/blobs/index.js';
import { loadConfig } from '../src/config.js';
import { startTestApp } from '../src/test-support/test-app.js';
import {
  createFetchWorker,
  createRegistryConnectors,
  RegistriesCommandError,
  runRegistriesCommand,
  type FetchWorker,
  type RegistryConnectors,
} from '../src/features/registries/index.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { T0 } from '../src/test-support/fixtures.js';
import { operatorKey } from '../src/test-support/operator-key.js';
// The registries package's test support (a real Verdaccio and the fault proxy), read from its sources.
import { startFaultProxy, type FaultProxy } from '../../../packages/registries/src/test-support/fault-proxy.js';
import { publishNpmFixtures } from '../../../packages/registries/src/test-support/npm-fixtures.js';
import { startVerdaccio, type Verdaccio } from '../../../packages/registries/src/test-support/verdaccio.js';

let verdaccio: Verdaccio;
let proxy: FaultProxy;
const work = mkdtempSync(join(tmpdir(), 'vigil-registry-admin-'));

beforeAll(async () => {
  verdaccio = await startVerdaccio();
  await publishNpmFixtures(verdaccio, join(work, 'npm'));
  proxy = await startFaultProxy(verdaccio.url);
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await verdaccio?.stop();
  rmSync(work, { recursive: true, force: true });
});

interface Setup {
  app: FastifyInstance;
  url: string;
  worker: FetchWorker;
  connectors: RegistryConnectors;
  clock: { now: number };
  /** A customer key (verify, read). */
  customer: string;
  /** An operator's key with the `admin` scope. */
  admin: string;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, any>;
}

const setups: Setup[] = [];
afterEach(async () => {
  proxy.setFault(null);
  for (const setup of setups.splice(0)) await setup.close();
});

const TAMPERED = 'pkg:npm/tampered-pkg@1.0.0';
const PLAIN = 'pkg:npm/plain-pkg@1.0.0';
const OLD = 'pkg:npm/old-pkg@2.0.0';

describeEachDialect('operating the registry fetch queue', (ctx) => {
  async function start(): Promise<Setup> {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-registry-admin-data-'));
    const blobs = createFileBlobStore(join(dataDir, 'blobs'));
    const clock = { now: T0 };
    // One attempt: a registry that answers 500 fails the fetch for good at once (as a wrong token does).
    const config = loadConfig({ LOG_LEVEL: 'silent', VIGIL_NPM_REGISTRY_URL: proxy.url, VIGIL_REGISTRY_MAX_ATTEMPTS: '1', VIGIL_ADMIN_ALLOWLIST: '127.0.0.1' }, dataDir);
    const connectors = createRegistryConnectors(config.registries, { maxArtifactBytes: config.artifactLimitBytes, overrides: { retries: 0 } });
    const worker = createFetchWorker({ db: ctx.db(), blobs, settings: config.registries, connectors, maxArtifactBytes: config.artifactLimitBytes, now: () => clock.now });
    const started = await startTestApp({ dataDir, config, database: ctx, overrides: { clock: () => clock.now, blobs } });
    const { app } = started;
    const setup: Setup = {
      app,
      url: started.url,
      worker,
      connectors,
      clock,
      customer: await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'verify,read']),
      admin: await operatorKey(ctx.db(), ['--org', 'vigil-ops', '--scopes', 'admin']),
      close: async () => {
        await worker.stop();
        connectors.close();
        await started.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    setups.push(setup);
    return setup;
  }

  async function call(setup: Setup, method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const all: Record<string, string> = { ...headers };
    if (token !== null) all.authorization = `Bearer ${token}`;
    if (body !== undefined) all['content-type'] = 'application/json';
    const response = await fetch(setup.url + path, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  }

  /** A verification past the 5-second answer memory (docs/artifacts.md, "Freshness"): queues an unseen reference. */
  async function verify(setup: Setup, artifact: string): Promise<VerifyResult> {
    setup.clock.now += 6_000;
    const answer = await call(setup, 'POST', '/v1/artifacts/verify', setup.customer, { artifact });
    expect(answer.status).toBe(200);
    return VerifyResult.parse(answer.body);
  }

  const row = (purl: string) => ctx.db().selectFrom('registry_fetches').selectAll().where('purl', '=', purl).executeTakeFirstOrThrow();

  /** Two failed fetches: the registry answered 500 for one, the other's tarball does not match its packument. */
  async function twoFailed(setup: Setup): Promise<{ plainQueuedAt: number; tamperedQueuedAt: number }> {
    proxy.setFault({ kind: 'status', status: 500 });
    await verify(setup, 'npm:plain-pkg@1.0.0');
    const plainQueuedAt = setup.clock.now;
    expect(await setup.worker.drain()).toBe(1);
    proxy.setFault(null);
    await verify(setup, 'npm:tampered-pkg@1.0.0');
    const tamperedQueuedAt = setup.clock.now;
    expect(await setup.worker.drain()).toBe(1);
    expect(await row(PLAIN)).toMatchObject({ state: 'failed', attempts: 1 });
    expect((await row(PLAIN)).last_error).toMatch(/^registry_unavailable: .*\(gave up after 1 attempts\)$/);
    expect(await row(TAMPERED)).toMatchObject({ state: 'failed', attempts: 1, last_error: "integrity_mismatch: tampered-pkg@1.0.0: the tarball's sha512 does not match dist.integrity" });
    return { plainQueuedAt, tamperedQueuedAt };
  }

  it('lists the queue: counts by state, what is due and since when, fetches newest first, filtered and keyset-paged', async () => {
    const setup = await start();
    const { plainQueuedAt, tamperedQueuedAt } = await twoFailed(setup);
    await verify(setup, 'npm:old-pkg@2.0.0');
    const oldQueuedAt = setup.clock.now;
    setup.clock.now += 45_000;

    const all = await call(setup, 'GET', '/v1/admin/registries/fetches', setup.admin);
    expect(all.status).toBe(200);
    expect(RegistryFetchList.parse(all.body)).toEqual(all.body);
    expect(all.body).toEqual({
      server_time: formatOffsetTimestamp(setup.clock.now),
      counts: { queued: 1, running: 0, stored: 0, failed: 2 },
      due: 1,
      oldest_due_at: formatOffsetTimestamp(oldQueuedAt),
      fetches: [
        {
          purl: OLD,
          ecosystem: 'npm',
          state: 'queued',
          attempts: 0,
          last_error: null,
          next_attempt_at: formatOffsetTimestamp(oldQueuedAt),
          artifact_id: null,
          track: null,
          created_at: formatOffsetTimestamp(oldQueuedAt),
          updated_at: formatOffsetTimestamp(oldQueuedAt),
          stored_at: null,
        },
        expect.objectContaining({ purl: TAMPERED, state: 'failed', attempts: 1, next_attempt_at: null, created_at: formatOffsetTimestamp(tamperedQueuedAt) }),
        expect.objectContaining({ purl: PLAIN, state: 'failed', attempts: 1, next_attempt_at: null, created_at: formatOffsetTimestamp(plainQueuedAt) }),
      ],
    });
    expect(all.headers.get('x-vigil-page')).toBe('1');
    expect(all.headers.get('x-vigil-next-page')).toBeNull();

    // Filtered by state and ecosystem; the counts stay the whole queue's.
    const failed = await call(setup, 'GET', '/v1/admin/registries/fetches?state=failed', setup.admin);
    expect(failed.body.fetches.map((f: { purl: string }) => f.purl)).toEqual([TAMPERED, PLAIN]);
    expect(failed.body.counts).toEqual(all.body.counts);
    expect((await call(setup, 'GET', '/v1/admin/registries/fetches?ecosystem=pypi', setup.admin)).body.fetches).toEqual([]);

    // Keyset pages of one: each continues from the last row of the one before, under the same filter only.
    const first = await call(setup, 'GET', '/v1/admin/registries/fetches?state=failed', setup.admin, undefined, { 'x-vigil-page-size': '1' });
    expect(first.body.fetches.map((f: { purl: string }) => f.purl)).toEqual([TAMPERED]);
    const token = first.headers.get('x-vigil-next-page');
    expect(token).toMatch(/^c1\./);
    const second = await call(setup, 'GET', '/v1/admin/registries/fetches?state=failed', setup.admin, undefined, { 'x-vigil-page-size': '1', 'x-vigil-page': token! });
    expect(second.headers.get('x-vigil-page')).toBe('2');
    expect(second.body.fetches.map((f: { purl: string }) => f.purl)).toEqual([PLAIN]);
    expect(second.headers.get('x-vigil-next-page')).toBeNull();
    const otherQuery = await call(setup, 'GET', '/v1/admin/registries/fetches', setup.admin, undefined, { 'x-vigil-page': token! });
    expect(otherQuery.status).toBe(422);
    expect(otherQuery.body.errors[0].path).toBe('headers.x-vigil-page');
    const byNumber = await call(setup, 'GET', '/v1/admin/registries/fetches', setup.admin, undefined, { 'x-vigil-page': '2' });
    expect(byNumber.status).toBe(422);
  });

  it('retries a failed fetch by purl (idempotent, audited): queued now with attempts reset, then fetched and stored', async () => {
    const setup = await start();
    await twoFailed(setup);
    const failedAnswer = await verify(setup, 'npm:plain-pkg@1.0.0');
    expect(failedAnswer).toMatchObject({ queued: false, fetch: { state: 'failed' } });

    // The registry is fixed (a token corrected, a mirror back): the operator retries the fetch.
    setup.clock.now += 1_000;
    const retriedAt = setup.clock.now;
    const headers = { 'idempotency-key': 'retry-plain-1' };
    const retried = await call(setup, 'POST', '/v1/admin/registries/fetches/retry', setup.admin, { purl: 'npm:plain-pkg@1.0.0' }, headers);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ retried: 1, purls: [PLAIN] });
    expect(await row(PLAIN)).toMatchObject({ state: 'queued', attempts: 0, last_error: null, lease_owner: null });
    expect(Number((await row(PLAIN)).next_attempt_at)).toBe(retriedAt);
    // The same key again: the stored answer, nothing done twice (one audit entry).
    const replay = await call(setup, 'POST', '/v1/admin/registries/fetches/retry', setup.admin, { purl: 'npm:plain-pkg@1.0.0' }, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(retried.body);
    const audit = await ctx.db().selectFrom('audit_log').selectAll().where('action', '=', 'registry_fetch.retry').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target: PLAIN, actor: expect.stringMatching(/^key:[0-9a-f]{8}$/) });
    expect(JSON.parse(audit[0]!.detail)).toEqual({ from: 'failed', attempts: 1, last_error: expect.stringMatching(/^registry_unavailable: /) });

    // A verification sees it fetching again; the worker takes it at once and stores it.
    expect((await verify(setup, 'npm:plain-pkg@1.0.0')).fetch).toEqual({ state: 'fetching', reason: null, expected_by: null });
    expect(await setup.worker.drain()).toBe(1);
    expect(await row(PLAIN)).toMatchObject({ state: 'stored', attempts: 1, last_error: null });
    expect(await verify(setup, 'npm:plain-pkg@1.0.0')).toMatchObject({ queued: true, fetch: { state: 'queued_for_evaluation' } });

    // A stored fetch is not retried.
    const stored = await call(setup, 'POST', '/v1/admin/registries/fetches/retry', setup.admin, { purl: PLAIN });
    expect(stored.status).toBe(409);
    expect(stored.body).toEqual({ detail: `purl: ${PLAIN} is stored; only failed or queued fetches are retried`, code: 'registry_fetch_not_retryable' });
  });

  it('retries every failed fetch at once; a tarball that still does not match fails again, nothing stored', async () => {
    const setup = await start();
    await twoFailed(setup);
    const retried = await call(setup, 'POST', '/v1/admin/registries/fetches/retry', setup.admin, { state: 'failed' });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ retried: 2, purls: [PLAIN, TAMPERED].sort() });
    expect(await setup.worker.drain()).toBe(2);
    expect(await row(PLAIN)).toMatchObject({ state: 'stored' });
    expect(await row(TAMPERED)).toMatchObject({ state: 'failed', attempts: 1, artifact_id: null });
    const audit = await ctx.db().selectFrom('audit_log').selectAll().where('action', '=', 'registry_fetch.retry').execute();
    expect(audit.map((entry) => [entry.target, JSON.parse(entry.detail)])).toEqual([['state:failed', { retried: 2 }]]);
    // None failed but the tampered one: one retried.
    expect((await call(setup, 'POST', '/v1/admin/registries/fetches/retry', setup.admin, { state: 'failed' })).body).toEqual({ retried: 1, purls: [TAMPERED] });
  });

  it('refuses a malformed purl, an unknown one, a body that is neither or both, and a caller without the admin key', async () => {
    const setup = await start();
    await twoFailed(setup);
    const retry = (body: unknown, token: string | null = setup.admin) => call(setup, 'POST', '/v1/admin/registries/fetches/retry', token, body);

    const malformed = await retry({ purl: 'npm:' });
    expect(malformed.status).toBe(422);
    expect(malformed.body).toMatchObject({ detail: 'Validation error', code: 'validation_error' });
    expect(malformed.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.purl']);
    for (const [body, path] of [
      [{}, 'body'],
      [{ purl: PLAIN, state: 'failed' }, 'body'],
      [{ state: 'queued' }, 'body.state'],
      [{ purl: PLAIN, extra: 1 }, 'body'],
    ] as const) {
      const answer = await retry(body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.errors[0].path, JSON.stringify(body)).toBe(path);
    }
    expect((await retry({ purl: 'npm:never-asked@1.0.0' })).body).toEqual({ detail: 'registry fetch not found', code: 'registry_fetch_not_found' });
    expect((await retry({ purl: 'npm:never-asked@1.0.0' })).status).toBe(404);

    expect((await retry({ purl: PLAIN }, null)).status).toBe(401);
    const customer = await retry({ purl: PLAIN }, setup.customer);
    expect(customer.status).toBe(403);
    expect(customer.body.detail).toBe("api key lacks 'admin' scope");
    expect((await call(setup, 'GET', '/v1/admin/registries/fetches', null)).status).toBe(401);
    expect((await call(setup, 'GET', '/v1/admin/registries/fetches', setup.customer)).status).toBe(403);
    const badFilter = await call(setup, 'GET', '/v1/admin/registries/fetches?state=fetching', setup.admin);
    expect(badFilter.status).toBe(422);
    expect(badFilter.body.errors[0].path).toBe('query.state');
    for (const [query, path] of [
      ['ecosystem=cargo', 'query.ecosystem'],
      ['purl=x', 'query'],
    ] as const) {
      const answer = await call(setup, 'GET', `/v1/admin/registries/fetches?${query}`, setup.admin);
      expect(answer.status, query).toBe(422);
      expect(answer.body.errors[0].path, query).toBe(path);
    }
    // Nothing was changed by any refusal.
    expect(await row(PLAIN)).toMatchObject({ state: 'failed', attempts: 1 });
    expect(await ctx.db().selectFrom('audit_log').select('entry_id').where('action', '=', 'registry_fetch.retry').execute()).toEqual([]);
    // No failed fetch left: nothing to retry, and that is no error.
    await ctx.db().updateTable('registry_fetches').set({ state: 'stored' }).execute();
    expect((await retry({ state: 'failed' })).body).toEqual({ retried: 0, purls: [] });
  });

  it('vigil-server registries status and retry: the same queue, the same rules, audited as operator', async () => {
    const setup = await start();
    await twoFailed(setup);
    await verify(setup, 'npm:old-pkg@2.0.0');
    const oldQueuedAt = setup.clock.now;
    setup.clock.now += 45_000;

    const text = await runRegistriesCommand(ctx.db(), ['status'], setup.clock.now);
    expect(text.slice(0, 2)).toEqual([
      `registry fetches at ${formatOffsetTimestamp(setup.clock.now)}: 1 queued, 0 running, 0 stored, 2 failed`,
      `due now: 1, the oldest due since ${formatOffsetTimestamp(oldQueuedAt)} (45 s behind)`,
    ]);
    expect(text.slice(2)).toEqual([
      'queued (1):',
      `  ${OLD}  attempts 0  next attempt ${formatOffsetTimestamp(oldQueuedAt)}`,
      'failed (2):',
      `  ${TAMPERED}  attempts 1  integrity_mismatch: tampered-pkg@1.0.0: the tarball's sha512 does not match dist.integrity`,
      expect.stringMatching(new RegExp(`^  ${PLAIN.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}  attempts 1  registry_unavailable: `)),
      // The release watcher's two lines close the status (docs/watches.md, "Operator").
      'release watcher: 0 name(s) watched (0 by the operator, 0 by accounts, 0 from repositories), 0 failing',
      'watcher due now: 0 (keeping up)',
    ]);
    const json = JSON.parse((await runRegistriesCommand(ctx.db(), ['status', '--json'], setup.clock.now)).join('\n'));
    const api = (await call(setup, 'GET', '/v1/admin/registries/fetches', setup.admin)).body;
    expect(json).toEqual({
      server_time: api.server_time,
      counts: api.counts,
      due: api.due,
      oldest_due_at: api.oldest_due_at,
      running: [],
      queued: [api.fetches[0]],
      failed: [api.fetches[1], api.fetches[2]],
      watcher: { server_time: api.server_time, names: 0, watches: { api: 0, repository: 0, operator: 0 }, due: 0, oldest_due_at: null, failing: 0 },
    });

    expect(await runRegistriesCommand(ctx.db(), ['retry', 'npm:tampered-pkg@1.0.0'], setup.clock.now)).toEqual([`retried ${TAMPERED}: queued to be fetched now, attempts reset`]);
    expect(await runRegistriesCommand(ctx.db(), ['retry', '--failed'], setup.clock.now)).toEqual(['retried 1 failed fetch(es): queued to be fetched now, attempts reset', `  ${PLAIN}`]);
    const audit = await ctx.db().selectFrom('audit_log').select(['actor', 'target']).where('action', '=', 'registry_fetch.retry').orderBy('entry_id').execute();
    expect(audit).toEqual([
      { actor: 'operator', target: TAMPERED },
      { actor: 'operator', target: 'state:failed' },
    ]);
    expect(await setup.worker.drain()).toBe(3);
    expect(await row(PLAIN)).toMatchObject({ state: 'stored' });
    expect(await row(OLD)).toMatchObject({ state: 'stored' });
    expect((await runRegistriesCommand(ctx.db(), ['status'], setup.clock.now)).slice(0, 2)).toEqual([
      `registry fetches at ${formatOffsetTimestamp(setup.clock.now)}: 0 queued, 0 running, 2 stored, 1 failed`,
      'due now: 0 (the workers are keeping up)',
    ]);

    // Refusals: the queue's state exits 1, wrong arguments print the usage (exit 2).
    await expect(runRegistriesCommand(ctx.db(), ['retry', PLAIN], setup.clock.now)).rejects.toThrow(new RegistriesCommandError(`retry: purl: ${PLAIN} is stored; only failed or queued fetches are retried`));
    await expect(runRegistriesCommand(ctx.db(), ['retry', 'npm:never-asked@1.0.0'], setup.clock.now)).rejects.toThrow('retry: no registry fetch of pkg:npm/never-asked@1.0.0');
    for (const args of [['retry'], ['retry', 'npm:'], ['retry', PLAIN, '--failed'], ['status', '--yaml'], []]) {
      const refused = await runRegistriesCommand(ctx.db(), args, setup.clock.now).catch((error: unknown) => error);
      expect(refused, args.join(' ')).toBeInstanceOf(RegistriesCommandError);
      expect((refused as RegistriesCommandError).usage, args.join(' ')).toBe(true);
    }
  });
});
