import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ColumnNode, type Kysely, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { Watch, WatcherSummary } from '@vigil/core';
import { createFileBlobStore } from '../src/platform/blobs/index.js';
import { loadConfig } from '../src/config.js';
import { startTestApp } from '../src/test-support/test-app.js';
import { createFetchWorker, createRegistryConnectors, createWatcher, runRegistriesCommand, WATCH_WRITE_RETRY_MS, type CreateWatcherOptions, RegistriesCommandError, WATCH_LEASE_MS, type FetchWorker, type RegistryConnectors, type Watcher } from '../src/features/registries/index.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { T0 } from '../src/test-support/fixtures.js';
// The registries package's test support (a real Verdaccio, the fault proxy): read from its sources, never published.
import { startFaultProxy, type FaultProxy } from '../../../packages/registries/src/test-support/fault-proxy.js';
import { publishNpmFixtures } from '../../../packages/registries/src/test-support/npm-fixtures.js';
import { startPypiStandIn, writePypiProject, type PypiStandIn } from '../../../packages/registries/src/test-support/pypi-stand-in.js';
import { startVerdaccio, writePackage, type Verdaccio } from '../../../packages/registries/src/test-support/verdaccio.js';
import { zipOf } from '../../../packages/registries/src/test-support/zip.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import type { Database } from '../src/platform/db/schema.js';

let verdaccio: Verdaccio;
let proxy: FaultProxy;
let standIn: PypiStandIn;
const wheelOf = (version: string) => zipOf({ 'demo_pkg/__init__.py': `x = ${JSON.stringify(version)}\n`, [`demo_pkg-${version}.dist-info/METADATA`]: `Metadata-Version: 2.1\nName: demo-pkg\nVersion: ${version}\n\nA demo.\n` });
const work = mkdtempSync(join(tmpdir(), 'vigil-watches-'));
let published = 0;

/** Publishes `name@version` into the Verdaccio with the real npm (a fresh directory each time). */
async function publish(name: string, version: string, tag?: string): Promise<void> {
  published += 1;
  await verdaccio.publish(await writePackage(join(work, `pub-${published}`), { name, version }, { 'index.js': `module.exports = ${JSON.stringify(version)};\n` }), tag === undefined ? [] : ['--tag', tag]);
}

beforeAll(async () => {
  verdaccio = await startVerdaccio();
  await publishNpmFixtures(verdaccio, join(work, 'npm'));
  proxy = await startFaultProxy(verdaccio.url);
  standIn = await startPypiStandIn(join(work, 'pypi'));
}, 180_000);

afterAll(async () => {
  await standIn?.close();
  await proxy?.close();
  await verdaccio?.stop();
  rmSync(work, { recursive: true, force: true });
});

const INTERVAL_MS = 60_000;

/**
 * The soak run's fault, on the one statement it hit: the watcher's final write of a poll (the only
 * update that sets last_polled_at) fails as a dropped connection fails it, either before the
 * statement reached the database ('before': nothing written) or after it committed ('after': the
 * row changed, the answer lost).
 */
function dropFinalWrites(db: Kysely<Database>) {
  const pending: ('before' | 'after')[] = [];
  const lostAnswers = new Set<string>();
  const connectionReset = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
      const finalWrite = node.kind === 'UpdateQueryNode' && (node.updates ?? []).some((u) => ColumnNode.is(u.column) && u.column.column.name === 'last_polled_at');
      const fault = finalWrite ? pending.shift() : undefined;
      if (fault === 'before') throw connectionReset();
      if (fault === 'after') lostAnswers.add(queryId.queryId);
      return node;
    },
    async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (lostAnswers.delete(queryId.queryId)) throw connectionReset();
      return result;
    },
  };
  return { db: db.withPlugin(plugin), drop: (...faults: ('before' | 'after')[]) => pending.push(...faults), pending };
}

interface Setup {
  app: FastifyInstance;
  url: string;
  clock: { now: number };
  worker: FetchWorker;
  fetchConnectors: RegistryConnectors;
  watchConnectors: RegistryConnectors[];
  /** A watcher as the server makes it; `db` and `logger` stand in for the test's fault injection. */
  watcher(overrides?: Partial<Pick<CreateWatcherOptions, 'db' | 'logger'>>): Watcher;
  token: string;
  other: string;
  free: string;
  admin: string;
  close(): Promise<void>;
}

const setups: Setup[] = [];
afterEach(async () => {
  proxy.setFault(null);
  for (const setup of setups.splice(0)) await setup.close();
});


describeEachDialect('following releases (watches)', (ctx) => {
  async function start(env: Record<string, string> = {}): Promise<Setup> {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-watch-data-'));
    const blobs = createFileBlobStore(join(dataDir, 'blobs'));
    const clock = { now: T0 };
    const config = loadConfig({ LOG_LEVEL: 'silent', VIGIL_NPM_REGISTRY_URL: proxy.url, VIGIL_PYPI_URL: proxy.url, VIGIL_WATCH_INTERVAL_S: String(INTERVAL_MS / 1000), VIGIL_ADMIN_ALLOWLIST: '127.0.0.1', ...env }, dataDir);
    const fetchConnectors = createRegistryConnectors(config.registries, { maxArtifactBytes: config.artifactLimitBytes, overrides: { retries: 0 } });
    const worker = createFetchWorker({ db: ctx.db(), blobs, settings: config.registries, connectors: fetchConnectors, maxArtifactBytes: config.artifactLimitBytes, now: () => clock.now });
    const watchConnectors: RegistryConnectors[] = [];
    const started = await startTestApp({ dataDir, config, database: ctx, overrides: { clock: () => clock.now, blobs } });
    const { app } = started;
    const watchers: Watcher[] = [];
    const setup: Setup = {
      app,
      url: started.url,
      clock,
      worker,
      fetchConnectors,
      watchConnectors,
      watcher(overrides = {}) {
        // As the server makes it: its own connectors, no packument kept in memory (the ETags are in the database).
        const connectors = createRegistryConnectors(config.registries, { maxArtifactBytes: config.artifactLimitBytes, overrides: { retries: 0, metadataCacheEntries: 0 } });
        watchConnectors.push(connectors);
        const watcher = createWatcher({ db: ctx.db(), settings: config.registries, connectors, now: () => clock.now, random: () => 0.5, ...overrides });
        watchers.push(watcher);
        return watcher;
      },
      token: await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'verify,read'], T0),
      other: await operatorKey(ctx.db(), ['--org', 'globex', '--plan', 'paid', '--scopes', 'verify'], T0),
      free: await operatorKey(ctx.db(), ['--org', 'freeloader', '--scopes', 'verify'], T0),
      admin: await operatorKey(ctx.db(), ['--org', 'vigil-ops', '--scopes', 'admin'], T0),
      close: async () => {
        for (const watcher of watchers) await watcher.stop();
        await worker.stop();
        fetchConnectors.close();
        for (const connectors of watchConnectors) connectors.close();
        await started.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    setups.push(setup);
    return setup;
  }

  const call = async (setup: Setup, method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(setup.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? null : (JSON.parse(text) as Record<string, any>) };
  };
  const watched = (name: string) => ctx.db().selectFrom('watched_packages').selectAll().where('package_key', '=', name).executeTakeFirstOrThrow();
  const fetches = async () => (await ctx.db().selectFrom('registry_fetches').select('purl').orderBy('purl').execute()).map((r) => r.purl);
  const packumentRequests = (name: string) => proxy.seen.filter((s) => s.path === `/${name.replace('/', '%2f')}`).length;

  it('creates, lists and removes an account\'s watches, with every refusal', async () => {
    const setup = await start({ VIGIL_WATCH_MAX_PER_ACCOUNT: '2' });
    const created = await call(setup, 'POST', '/v1/watches', setup.token, { package: 'npm:plain-pkg' });
    expect(created.status).toBe(201);
    const watch = Watch.parse(created.body!.data);
    expect(watch).toMatchObject({ package: 'npm:plain-pkg', ecosystem: 'npm', name: 'plain-pkg', source: 'api', poll: { last_polled_at: null, latest: null, versions: null, last_error: null, failures: 0 } });
    expect(watch.id).toMatch(/^wat_[0-9a-f]{24}$/);
    // The same name again, in purl form: the watch the account already has (200).
    const again = await call(setup, 'POST', '/v1/watches', setup.token, { package: 'pkg:npm/plain-pkg' });
    expect(again.status).toBe(200);
    expect(again.body!.data.id).toBe(watch.id);
    // Legacy capitals are the registry's spelling and are kept; PyPI names are PEP 503-normalised.
    setup.clock.now += 1000;
    expect((await call(setup, 'POST', '/v1/watches', setup.token, { package: 'npm:JSONStream' })).body!.data).toMatchObject({ package: 'npm:JSONStream', name: 'JSONStream' });
    const over = await call(setup, 'POST', '/v1/watches', setup.token, { package: 'pypi:Demo_Pkg' });
    expect(over).toMatchObject({ status: 409, body: { code: 'watch_limit_reached', detail: 'watch limit reached: remove a watch to add another' } });
    // Another account has its own list and its own limit; one name watched by both is polled once.
    expect((await call(setup, 'POST', '/v1/watches', setup.other, { package: 'pypi:Demo_Pkg' })).body!.data).toMatchObject({ package: 'pypi:demo-pkg', name: 'demo-pkg' });
    expect((await call(setup, 'POST', '/v1/watches', setup.other, { package: 'npm:plain-pkg' })).status).toBe(201);
    expect(await ctx.db().selectFrom('watched_packages').select('package_key').orderBy('package_key').execute()).toEqual([{ package_key: 'npm:JSONStream' }, { package_key: 'npm:plain-pkg' }, { package_key: 'pypi:demo-pkg' }]);

    const list = await call(setup, 'GET', '/v1/watches', setup.token);
    expect(list.status).toBe(200);
    expect(list.body!.data.map((w: Watch) => w.package)).toEqual(['npm:plain-pkg', 'npm:JSONStream']);
    const paged = await fetch(`${setup.url}/v1/watches`, { headers: { authorization: `Bearer ${setup.token}`, 'x-vigil-page-size': '1' } });
    expect(((await paged.json()) as { data: Watch[] }).data.map((w) => w.package)).toEqual(['npm:plain-pkg']);
    expect(paged.headers.get('x-vigil-next-page')).toBe('2');

    for (const [bad, message] of [
      ['npm:plain-pkg@1.0.0', 'names a version'],
      ['pkg:npm/plain-pkg@1.0.0', 'names a version'],
      ['pkg:github/acme/x', 'only npm and pypi packages are watched'],
      ['npm:not a name', 'is not an npm package name'],
      ['left-pad', 'expected npm:<name>'],
    ] as const) {
      const refused = await call(setup, 'POST', '/v1/watches', setup.other, { package: bad });
      expect(refused.status, bad).toBe(422);
      expect(refused.body!.errors[0].path).toBe('body.package');
      expect(refused.body!.errors[0].message).toContain(message);
    }
    expect((await call(setup, 'POST', '/v1/watches', setup.token, { package: 'npm:x', extra: 1 })).status).toBe(422);
    expect(await call(setup, 'POST', '/v1/watches', setup.free, { package: 'npm:x' })).toMatchObject({ status: 403, body: { code: 'paid_plan_required' } });
    expect(await call(setup, 'GET', '/v1/watches', setup.admin)).toMatchObject({ status: 403, body: { detail: "api key lacks 'verify' scope" } });

    // Removal: another account's watch and a malformed id are not found; the last watch of a name takes its poll state with it.
    expect(await call(setup, 'DELETE', `/v1/watches/${watch.id}`, setup.other)).toMatchObject({ status: 404, body: { code: 'watch_not_found' } });
    expect(await call(setup, 'DELETE', '/v1/watches/wat_nope', setup.token)).toMatchObject({ status: 404, body: { code: 'watch_not_found' } });
    expect((await call(setup, 'DELETE', `/v1/watches/${watch.id}`, setup.token)).status).toBe(204);
    expect((await call(setup, 'DELETE', `/v1/watches/${watch.id}`, setup.token)).status).toBe(404);
    expect(await ctx.db().selectFrom('watched_packages').select('package_key').where('package_key', '=', 'npm:plain-pkg').execute()).toHaveLength(1); // globex still watches it
    const jsonstream = (await call(setup, 'GET', '/v1/watches', setup.token)).body!.data[0] as Watch;
    // No query parameter: pagination is by headers, so a guessed `?page_size` is refused, not ignored.
    const guessed = await call(setup, 'GET', '/v1/watches?page_size=2', setup.token);
    expect(guessed.status).toBe(422);
    expect(guessed.body!.errors[0].path).toBe('query');
    // With an Idempotency-Key: the repeat (a client whose first answer was lost) is the stored 204, replayed.
    const remove = () => fetch(`${setup.url}/v1/watches/${jsonstream.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${setup.token}`, 'idempotency-key': 'rm-jsonstream' } });
    const first = await remove();
    expect([first.status, first.headers.get('idempotent-replayed'), await first.text()]).toEqual([204, null, '']);
    const replayed = await remove();
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), await replayed.text()]).toEqual([204, 'true', '']);
    expect((await call(setup, 'DELETE', `/v1/watches/${jsonstream.id}`, setup.token)).status).toBe(404); // without the key: gone
    expect(await ctx.db().selectFrom('watched_packages').select('package_key').where('package_key', '=', 'npm:JSONStream').execute()).toEqual([]);
  });

  it('refuses new watches when registry fetching is off', async () => {
    const setup = await start({ VIGIL_REGISTRY_FETCH: 'false' });
    expect(await call(setup, 'POST', '/v1/watches', setup.token, { package: 'npm:plain-pkg' })).toMatchObject({
      status: 409,
      body: { code: 'watching_off', detail: 'registry fetching is off on this server: packages cannot be watched' },
    });
    expect((await call(setup, 'GET', '/v1/watches', setup.token)).body).toEqual({ data: [] });
    // The operator's list refuses too (vigil-server passes VIGIL_REGISTRY_FETCH as `watching`): nothing would poll it.
    for (const args of [['watch', 'add', 'npm:plain-pkg'], ['watch', 'seed', join(work, 'never-read.txt')]]) {
      await expect(runRegistriesCommand(ctx.db(), args, T0, { watching: false })).rejects.toThrow('watch: registry fetching is off (VIGIL_REGISTRY_FETCH=false): no watcher runs, so nothing is added');
    }
    expect(await runRegistriesCommand(ctx.db(), ['watch', 'list'], T0, { watching: false })).toEqual(["0 name(s) on the operator's watch list"]);
  });

  // One Verdaccio serves both dialects' blocks, and a version is published once: each block has its own names.
  const follow = `follow-${ctx.dialect}`;
  const flaky = `flaky-${ctx.dialect}`;

  // Four publishes to Verdaccio and three polls: 5 to 9 s alone, 22 s and more beside a whole
  // `pnpm test` on two cores; the default 30 s is too close for a hang guard.
  it('takes the first answer as the baseline (latest only), revalidates with the stored ETag, and queues every new release at once', { timeout: 90_000 }, async () => {
    const setup = await start();
    await publish(follow, '1.0.0');
    await publish(follow, '1.1.0');
    await call(setup, 'POST', '/v1/watches', setup.token, { package: `npm:${follow}` });
    const watcher = setup.watcher();
    expect(await watcher.drain()).toBe(1);
    expect(await fetches()).toEqual([`pkg:npm/${follow}@1.1.0`]);
    const first = await watched(`npm:${follow}`);
    expect(first).toMatchObject({ latest: '1.1.0', failures: 0, last_error: null, last_polled_at: T0, last_changed_at: null, lease_owner: null, versions_queued: 1 });
    expect(JSON.parse(first.versions_seen!)).toEqual(['1.0.0', '1.1.0']);
    expect(first.etag).not.toBeNull();
    // Jitter drawn at its middle: exactly the interval.
    expect(Number(first.next_poll_at)).toBe(T0 + INTERVAL_MS);
    // Not due yet: nothing is asked.
    const asked = packumentRequests(follow);
    expect(await watcher.drain()).toBe(0);
    expect(packumentRequests(follow)).toBe(asked);

    // Due, unchanged: a 304 to the stored ETag, by a watcher that never saw the packument (a restart).
    setup.clock.now += INTERVAL_MS;
    const restarted = setup.watcher();
    expect(await restarted.drain()).toBe(1);
    expect(setup.watchConnectors[1]!.npm.counters.notModified).toBe(1);
    expect(await fetches()).toEqual([`pkg:npm/${follow}@1.1.0`]);
    expect(await watched(`npm:${follow}`)).toMatchObject({ last_polled_at: setup.clock.now, next_poll_at: setup.clock.now + INTERVAL_MS });

    // Two releases: both queued at the next poll, fetched and stored by the fetch worker.
    await publish(follow, '1.2.0');
    await publish(follow, '2.0.0-beta.1', 'beta');
    setup.clock.now += INTERVAL_MS;
    expect(await restarted.drain()).toBe(1);
    expect(await fetches()).toEqual([`pkg:npm/${follow}@1.1.0`, `pkg:npm/${follow}@1.2.0`, `pkg:npm/${follow}@2.0.0-beta.1`]);
    expect(await watched(`npm:${follow}`)).toMatchObject({ latest: '1.2.0', last_changed_at: setup.clock.now, versions_queued: 3 });
    expect(await setup.worker.drain()).toBe(3);
    expect(await ctx.db().selectFrom('registry_fetches').select(['purl', 'state']).where('state', '!=', 'stored').execute()).toEqual([]);

    // A baseline `latest` Vigil already holds bytes for (a claim names it) is not queued again.
    await ctx.db().deleteFrom('registry_fetches').where('purl', '=', `pkg:npm/${follow}@1.2.0`).execute();
    await ctx.db().deleteFrom('watched_packages').execute();
    await call(setup, 'POST', '/v1/watches', setup.other, { package: `npm:${follow}` });
    expect(await watcher.drain()).toBe(1);
    expect(await ctx.db().selectFrom('registry_fetches').select('purl').where('purl', '=', `pkg:npm/${follow}@1.2.0`).execute()).toEqual([]);
    expect(await watched(`npm:${follow}`)).toMatchObject({ latest: '1.2.0', versions_queued: 0 });

    // The answer a customer sees.
    const list = await call(setup, 'GET', '/v1/watches', setup.other);
    expect(list.body!.data[0].poll).toEqual({
      last_polled_at: expect.any(String),
      next_poll_at: expect.any(String),
      latest: '1.2.0',
      versions: 4,
      last_error: null,
      failures: 0,
    });
  });

  it('follows a PyPI project through the JSON API: the baseline, a 304, then a new release queued', async () => {
    const setup = await start({ VIGIL_PYPI_URL: standIn.url });
    const project = `Watched_${ctx.dialect}`;
    const normalised = `watched-${ctx.dialect}`;
    const files: Record<string, Record<string, Buffer>> = { '1.0.0': { [`watched_${ctx.dialect}-1.0.0-py3-none-any.whl`]: wheelOf('1.0.0') } };
    await writePypiProject(join(work, 'pypi'), { name: project, files });
    expect((await call(setup, 'POST', '/v1/watches', setup.token, { package: `pypi:${project}` })).body!.data.package).toBe(`pypi:${normalised}`);
    const watcher = setup.watcher();
    expect(await watcher.drain()).toBe(1);
    expect(await fetches()).toEqual([`pkg:pypi/${normalised}@1.0.0`]);
    expect(await watched(`pypi:${normalised}`)).toMatchObject({ latest: '1.0.0', failures: 0, last_error: null });
    setup.clock.now += INTERVAL_MS;
    expect(await setup.watcher().drain()).toBe(1);
    expect(setup.watchConnectors[1]!.pypi.counters.notModified).toBe(1);
    files['1.1.0'] = { [`watched_${ctx.dialect}-1.1.0-py3-none-any.whl`]: wheelOf('1.1.0') };
    await writePypiProject(join(work, 'pypi'), { name: project, files });
    setup.clock.now += INTERVAL_MS;
    expect(await watcher.drain()).toBe(1);
    expect(await fetches()).toEqual([`pkg:pypi/${normalised}@1.0.0`, `pkg:pypi/${normalised}@1.1.0`]);
    expect(await watched(`pypi:${normalised}`)).toMatchObject({ latest: '1.1.0', versions_queued: 2, last_changed_at: setup.clock.now });
  });

  it('backs off a name whose registry fails, and recovers', async () => {
    const setup = await start();
    await publish(flaky, '1.0.0');
    await call(setup, 'POST', '/v1/watches', setup.token, { package: `npm:${flaky}` });
    const watcher = setup.watcher();
    proxy.setFault({ kind: 'status', status: 500 }, { match: (path) => path === `/${flaky}` });
    expect(await watcher.drain()).toBe(1);
    let row = await watched(`npm:${flaky}`);
    expect(row).toMatchObject({ failures: 1, versions_seen: null, lease_owner: null });
    expect(row.last_error).toMatch(/^registry_unavailable: /);
    expect(Number(row.next_poll_at)).toBe(T0 + 2 * INTERVAL_MS);
    setup.clock.now = Number(row.next_poll_at);
    expect(await watcher.drain()).toBe(1);
    row = await watched(`npm:${flaky}`);
    expect(row.failures).toBe(2);
    expect(Number(row.next_poll_at)).toBe(setup.clock.now + 4 * INTERVAL_MS);
    const failing = WatcherSummary.parse(JSON.parse((await runRegistriesCommand(ctx.db(), ['status', '--json'], setup.clock.now))[0]!).watcher);
    expect(failing).toMatchObject({ names: 1, failing: 1, due: 0, oldest_due_at: null });
    // A customer sees it too.
    expect((await call(setup, 'GET', '/v1/watches', setup.token)).body!.data[0].poll).toMatchObject({ failures: 2, last_error: expect.stringMatching(/^registry_unavailable: /) });

    proxy.setFault(null);
    setup.clock.now = Number(row.next_poll_at);
    expect(await watcher.drain()).toBe(1);
    expect(await watched(`npm:${flaky}`)).toMatchObject({ failures: 0, last_error: null, latest: '1.0.0', next_poll_at: setup.clock.now + INTERVAL_MS });
    expect(await fetches()).toEqual([`pkg:npm/${flaky}@1.0.0`]);
  });

  it('retries the final write of a poll the database dropped, so the name is not left leased, and counts nothing twice', async () => {
    const setup = await start();
    const retried = `retried-${ctx.dialect}`;
    await publish(retried, '1.0.0');
    await runRegistriesCommand(ctx.db(), ['watch', 'add', `npm:${retried}`], T0);
    const faults = dropFinalWrites(ctx.db());
    const logged: string[] = [];
    const logger = { info: () => {}, error: (_obj: object, msg: string) => logged.push(msg) };
    const watcher = setup.watcher({ db: faults.db, logger });

    // Lost before it reached the database: written by the retry, not left to the lease.
    faults.drop('before');
    expect(await watcher.drain()).toBe(1);
    expect(faults.pending).toEqual([]);
    expect(await watched(`npm:${retried}`)).toMatchObject({ lease_owner: null, lease_expires_at: null, last_polled_at: T0, next_poll_at: T0 + INTERVAL_MS, latest: '1.0.0', versions_queued: 1, failures: 0 });
    expect(logged).toEqual(['release watcher: could not record a poll; retrying']);

    // Committed, then the answer lost: the retry matches no row (the name is no longer leased to this poll), so the new release is counted once.
    await publish(retried, '1.1.0');
    setup.clock.now += INTERVAL_MS;
    faults.drop('after');
    expect(await watcher.drain()).toBe(1);
    expect(faults.pending).toEqual([]);
    expect(await watched(`npm:${retried}`)).toMatchObject({ lease_owner: null, last_polled_at: setup.clock.now, latest: '1.1.0', last_changed_at: setup.clock.now, versions_queued: 2 });
    expect(logged).toHaveLength(2);
    expect(await fetches()).toEqual([`pkg:npm/${retried}@1.0.0`, `pkg:npm/${retried}@1.1.0`]);

    // A database that stays away: stop() ends the backoff at once and gives the name back, due as it was.
    setup.clock.now += INTERVAL_MS;
    faults.drop(...WATCH_WRITE_RETRY_MS.map(() => 'before' as const), 'before');
    const draining = watcher.drain();
    while (logged.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    const stopping = Date.now();
    await watcher.stop();
    await draining;
    expect(Date.now() - stopping).toBeLessThan(WATCH_WRITE_RETRY_MS[2]!);
    expect(logged).toHaveLength(3);
    expect(await watched(`npm:${retried}`)).toMatchObject({ lease_owner: null, lease_expires_at: null, next_poll_at: setup.clock.now });
  });

  it('never lets two watchers poll one name at once, and takes a dead watcher\'s names after the lease', async () => {
    const setup = await start();
    const names = ['plain-pkg', 'old-pkg', '@vigil-test/scoped', 'weather-mcp', 'pdf-skill', 'tampered-pkg', 'gone-pkg'];
    await runRegistriesCommand(ctx.db(), ['watch', 'add', ...names.map((n) => `npm:${n}`)], T0);
    const before = Object.fromEntries(names.map((n) => [n, packumentRequests(n)]));
    // Slow answers, so both watchers are claiming while the other polls.
    proxy.setFault({ kind: 'delay', ms: 150 });
    const [a, b] = [setup.watcher(), setup.watcher()];
    const polled = await Promise.all([a.drain(), b.drain()]);
    expect(polled[0] + polled[1]).toBe(names.length);
    for (const name of names) expect(packumentRequests(name) - before[name]!, name).toBe(1);
    proxy.setFault(null);

    // A watcher that died holding a name (its lease still running): nobody polls it until the lease runs out.
    setup.clock.now += INTERVAL_MS;
    await ctx.db().updateTable('watched_packages').set({ lease_owner: 'dead-watcher', lease_expires_at: setup.clock.now + WATCH_LEASE_MS }).where('package_key', '=', 'npm:plain-pkg').execute();
    expect(await a.drain()).toBe(names.length - 1);
    const summary = WatcherSummary.parse((await call(setup, 'GET', '/v1/admin/registries/watcher', setup.admin)).body);
    expect(summary).toMatchObject({ names: names.length, watches: { operator: names.length, api: 0, repository: 0 }, due: 0, oldest_due_at: null });
    setup.clock.now += WATCH_LEASE_MS;
    expect(await b.drain()).toBe(names.length); // the lease ran out (and the others are due again by now)
    expect(await watched('npm:plain-pkg')).toMatchObject({ lease_owner: null, last_polled_at: setup.clock.now });
  });

  it('keeps polling every other name while one registry answer hangs', async () => {
    const setup = await start({ VIGIL_WATCH_CONCURRENCY: '2' });
    const others = ['plain-pkg', '@vigil-test/scoped', 'weather-mcp', 'pdf-skill', 'tampered-pkg'];
    await runRegistriesCommand(ctx.db(), ['watch', 'add', 'npm:old-pkg', ...others.map((n) => `npm:${n}`)], T0);
    proxy.setFault({ kind: 'hang' }, { match: (path) => path === '/old-pkg' });
    // Its own connectors with a response timeout long enough that everything below happens while the
    // one answer hangs; the hang is then ended by a reset rather than waited out (the connectors'
    // own tests time hung answers out).
    const config = loadConfig({ LOG_LEVEL: 'silent', VIGIL_NPM_REGISTRY_URL: proxy.url, VIGIL_PYPI_URL: proxy.url, VIGIL_WATCH_INTERVAL_S: String(INTERVAL_MS / 1000), VIGIL_WATCH_CONCURRENCY: '2' }, work);
    const connectors = createRegistryConnectors(config.registries, { maxArtifactBytes: config.artifactLimitBytes, overrides: { retries: 0, metadataCacheEntries: 0, responseTimeoutMs: 60_000 } });
    setup.watchConnectors.push(connectors);
    const watcher = createWatcher({ db: ctx.db(), settings: config.registries, connectors, now: () => setup.clock.now, random: () => 0.5 });
    const polledAt = async (at: number) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const rows = await ctx.db().selectFrom('watched_packages').select(['package_key', 'last_polled_at']).where('package_key', 'in', others.map((n) => `npm:${n}`)).execute();
        if (rows.every((r) => Number(r.last_polled_at) === at) || Date.now() > deadline) return rows.filter((r) => Number(r.last_polled_at) !== at).map((r) => r.package_key);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const draining = watcher.drain();
    // Every other name is polled while one lane waits on old-pkg (it is the oldest due, so it is claimed first).
    expect(await polledAt(T0)).toEqual([]);
    expect(await watched('npm:old-pkg')).toMatchObject({ lease_owner: watcher.holderId, last_polled_at: null });
    // And again when they fall due again, the hang still going on.
    setup.clock.now = T0 + INTERVAL_MS * 2;
    void watcher.drain();
    expect(await polledAt(setup.clock.now)).toEqual([]);
    expect(await watched('npm:old-pkg')).toMatchObject({ lease_owner: watcher.holderId, last_polled_at: null });
    // The hung answer ends in a reset: a failed poll like any other, and the drain ends.
    proxy.releaseHung();
    expect(await draining).toBe(others.length * 2 + 1);
    expect(await watched('npm:old-pkg')).toMatchObject({ lease_owner: null, failures: 1, last_error: expect.stringMatching(/^registry_unavailable: /) });
  }, 60_000);

  it('keeps the operator\'s list with vigil-server registries watch, and shows the watcher in status', async () => {
    const setup = await start();
    const seed = join(work, 'top-packages.txt');
    writeFileSync(seed, '# the most depended-upon\nplain-pkg\nnpm:@vigil-test/scoped\n\npypi:Demo.Pkg\nJSONStream\n');
    expect(await runRegistriesCommand(ctx.db(), ['watch', 'seed', seed], T0)).toEqual(["watching 4 more name(s) (0 already on the operator's list); new names are polled at once"]);
    expect(await runRegistriesCommand(ctx.db(), ['watch', 'add', 'npm:plain-pkg', 'npm:old-pkg'], T0)).toEqual(["watching 1 more name(s) (1 already on the operator's list); new names are polled at once"]);
    writeFileSync(seed, 'plain-pkg\nnpm:x@1.0.0\nnot a name\n');
    await expect(runRegistriesCommand(ctx.db(), ['watch', 'seed', seed], T0)).rejects.toThrow(/^watch: line 2: package: "npm:x@1.0.0" names a version.*; line 3: package: /);
    await expect(runRegistriesCommand(ctx.db(), ['watch', 'seed', join(work, 'missing.txt')], T0)).rejects.toThrow('watch seed: cannot read');
    await expect(runRegistriesCommand(ctx.db(), ['watch', 'frobnicate'], T0)).rejects.toBeInstanceOf(RegistriesCommandError);

    setup.clock.now = T0 + 30_000;
    const status = await runRegistriesCommand(ctx.db(), ['status'], setup.clock.now);
    expect(status.slice(-2)).toEqual([
      'release watcher: 5 name(s) watched (5 by the operator, 0 by accounts, 0 from repositories), 0 failing',
      `watcher due now: 5, the oldest due since ${new Date(T0).toISOString().replace('Z', '+00:00')} (30 s behind)`,
    ]);
    await setup.watcher().drain();
    const list = await runRegistriesCommand(ctx.db(), ['watch', 'list'], setup.clock.now);
    expect(list[0]).toBe("5 name(s) on the operator's watch list");
    expect(list.find((line) => line.startsWith('npm:plain-pkg '))).toMatch(/latest 1\.0\.0, 2 version\(s\)/);
    expect(list.find((line) => line.startsWith('npm:JSONStream '))).toMatch(/failing \(1\): not_found: /);
    // A capitalised name is polled under its own spelling, never as the lowercased other package
    // (this registry has neither: failing above, and nothing queued under either spelling).
    expect((await fetches()).filter((purl) => purl.toLowerCase().includes('jsonstream'))).toEqual([]);
  });
});
