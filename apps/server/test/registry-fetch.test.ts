import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type KyselyPlugin } from 'kysely';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { formatOffsetTimestamp, PolicyEvaluation, VerifyResult } from '@vigil/core';
import { createFileBlobStore } from '../src/platform/blobs/index.js';
import { loadConfig } from '../src/config.js';
import { startTestApp } from '../src/test-support/test-app.js';
import { createFetchWorker, createRegistryConnectors, FETCH_LEASE_MS, REGISTRY_ACCOUNT_ID, type CreateFetchWorkerOptions, type FetchWorker, type RegistryConnectors } from '../src/features/registries/index.js';
import { claimDueFetch } from '../src/features/registries/fetch-queue.js';
import { describeEachDialect, withSearchPath } from '../src/test-support/databases.js';
import { openDatabase } from '../src/platform/db/database.js';
import { startTcpProxy } from '../src/test-support/tcp-proxy.js';
import { databaseRegistry, refreshDatabaseGauges } from '../src/platform/metrics/database-gauges.js';
import { metricsRegistry } from '../src/platform/metrics/index.js';
import { parsePrometheusText, sampleValue } from '../src/test-support/prometheus-text.js';
import { T0 } from '../src/test-support/fixtures.js';
// The registries package's test support (a real Verdaccio, the fault proxy, the PyPI stand-in):
// read from its sources, never published (packages/registries/package.json `files`).
import { startFaultProxy, type FaultProxy } from '../../../packages/registries/src/test-support/fault-proxy.js';
import { publishNpmFixtures } from '../../../packages/registries/src/test-support/npm-fixtures.js';
import { startPypiStandIn, writePypiProject, type PypiStandIn } from '../../../packages/registries/src/test-support/pypi-stand-in.js';
import { editStoredPackument, startVerdaccio, type Verdaccio } from '../../../packages/registries/src/test-support/verdaccio.js';
import { zipOf } from '../../../packages/registries/src/test-support/zip.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import type { Database } from '../src/platform/db/schema.js';

let verdaccio: Verdaccio;
let proxy: FaultProxy;
let standIn: PypiStandIn;
const work = mkdtempSync(join(tmpdir(), 'vigil-registry-fetch-'));
const wheel = zipOf({ 'demo_pkg/__init__.py': 'x = 1\n', 'demo_pkg-1.0.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: demo-pkg\nVersion: 1.0.0\n\nA demo.\n' });

beforeAll(async () => {
  verdaccio = await startVerdaccio();
  await publishNpmFixtures(verdaccio, join(work, 'npm'));
  // As the public registry does after `npm unpublish`: the version is gone, its publish time stays.
  await verdaccio.npm(['unpublish', 'gone-pkg@1.0.0']);
  await editStoredPackument(verdaccio, 'gone-pkg', (doc) => {
    doc.time['1.0.0'] = '2020-01-01T00:00:00.000Z';
  });
  proxy = await startFaultProxy(verdaccio.url);
  await writePypiProject(join(work, 'pypi'), { name: 'Demo_Pkg', files: { '1.0.0': { 'demo_pkg-1.0.0-py3-none-any.whl': wheel } } });
  standIn = await startPypiStandIn(join(work, 'pypi'));
}, 180_000);

afterAll(async () => {
  await standIn?.close();
  await proxy?.close();
  await verdaccio?.stop();
  rmSync(work, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

interface Setup {
  app: FastifyInstance;
  url: string;
  worker: FetchWorker;
  connectors: RegistryConnectors;
  blobRoot: string;
  clock: { now: number };
  token: string;
  other: string;
  close(): Promise<void>;
}

/**
 * Fails the worker's writes of a `stored` outcome as a connection reset does (the soak run's
 * ECONNRESET): the first `before` of them never reach the database, the next `after` are committed
 * and their answer is lost. Everything else goes through to the real database.
 */
function outcomeWriteFaults(db: Kysely<Database>, plan: { before: number; after: number }): KyselyPlugin {
  const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  const answerLost = new Set<unknown>();
  return {
    transformQuery(args) {
      const { sql } = db.getExecutor().compileQuery(args.node, args.queryId);
      if (!/^update "registry_fetches" set .*"stored_at"/.test(sql)) return args.node;
      if (plan.before > 0) {
        plan.before -= 1;
        throw reset();
      }
      if (plan.after > 0) {
        plan.after -= 1;
        answerLost.add(args.queryId);
      }
      return args.node;
    },
    async transformResult(args) {
      if (answerLost.delete(args.queryId)) throw reset();
      return args.result;
    },
  };
}

interface Logged {
  level: 'info' | 'error';
  msg: string;
  obj: Record<string, unknown>;
}
const loggingTo = (logs: Logged[]) => ({
  info: (obj: object, msg: string) => logs.push({ level: 'info', msg, obj: obj as Record<string, unknown> }),
  error: (obj: object, msg: string) => logs.push({ level: 'error', msg, obj: obj as Record<string, unknown> }),
});

const setups: Setup[] = [];
afterEach(async () => {
  proxy.setFault(null);
  for (const setup of setups.splice(0)) await setup.close();
});


describeEachDialect('on-demand registry fetching', (ctx) => {
  async function start(workerOptions: Partial<CreateFetchWorkerOptions> = {}): Promise<Setup> {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-fetch-data-'));
    const blobRoot = join(dataDir, 'blobs');
    const blobs = createFileBlobStore(blobRoot);
    const clock = { now: T0 };
    const config = loadConfig({ LOG_LEVEL: 'silent', VIGIL_NPM_REGISTRY_URL: proxy.url, VIGIL_PYPI_URL: standIn.url, VIGIL_REGISTRY_RETRY_S: '30' }, dataDir);
    // No retries inside the connector: the queue's own retry is what these tests look at.
    const connectors = createRegistryConnectors(config.registries, { maxArtifactBytes: config.artifactLimitBytes, overrides: { retries: 0 } });
    const worker = createFetchWorker({ db: ctx.db(), blobs, settings: config.registries, connectors, maxArtifactBytes: config.artifactLimitBytes, now: () => clock.now, ...workerOptions });
    const started = await startTestApp({ dataDir, config, database: ctx, overrides: { clock: () => clock.now, blobs } });
    const { app } = started;
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'verify,read,policies,repositories'], T0);
    const other = await operatorKey(ctx.db(), ['--org', 'globex', '--plan', 'paid', '--scopes', 'verify,read'], T0);
    const setup: Setup = {
      app,
      url: started.url,
      worker,
      connectors,
      blobRoot,
      clock,
      token,
      other,
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

  const post = async (setup: Setup, path: string, token: string, body: unknown) => {
    const response = await fetch(setup.url + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  /** A verification past the 5-second answer memory (docs/artifacts.md, "Freshness"). */
  const verify = async (setup: Setup, artifact: string, token = setup.token) => {
    setup.clock.now += 6_000;
    const answer = await post(setup, '/v1/artifacts/verify', token, { artifact });
    expect(answer.status).toBe(200);
    return VerifyResult.parse(answer.body);
  };
  const blobFiles = (setup: Setup) => (existsSync(setup.blobRoot) ? readdirSync(setup.blobRoot, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : []);
  const row = (purl: string) => ctx.db().selectFrom('registry_fetches').selectAll().where('purl', '=', purl).executeTakeFirstOrThrow();

  it('fetches an unseen npm package, stores it as a live artifact claimed by Vigil, and answers where it stands', async () => {
    const setup = await start();
    const first = await verify(setup, 'npm:plain-pkg@1.0.0');
    expect(first).toEqual({
      artifact: 'pkg:npm/plain-pkg@1.0.0',
      state: 'pending',
      queued: true,
      artifact_id: null,
      sha256: null,
      verdict: null,
      risk_score: null,
      round_id: null,
      decided_at: null,
      findings_summary: null,
      attestations: [],
      fetch: { state: 'fetching', reason: null, expected_by: null },
    });
    // Asked again before the worker ran: still one fetch.
    await verify(setup, 'pkg:npm/plain-pkg@1.0.0', setup.other);
    expect(await ctx.db().selectFrom('registry_fetches').select(['purl', 'state', 'attempts']).execute()).toEqual([{ purl: 'pkg:npm/plain-pkg@1.0.0', state: 'queued', attempts: 0 }]);

    expect(await setup.worker.drain()).toBe(1);
    const stored = await row('pkg:npm/plain-pkg@1.0.0');
    expect(stored).toMatchObject({ state: 'stored', attempts: 1, last_error: null, track: 'packages', lease_owner: null });
    const tarball = readFileSync(verdaccio.tarballPath('plain-pkg', '1.0.0'));
    const artifact = await ctx.db().selectFrom('artifacts').selectAll().where('id', '=', Number(stored.artifact_id)).executeTakeFirstOrThrow();
    expect(artifact).toMatchObject({ kind: 'live', track: 'packages', content_hash: sha256(tarball), uploaded_by: REGISTRY_ACCOUNT_ID });
    expect(blobFiles(setup)).toHaveLength(1);
    expect(await ctx.db().selectFrom('artifact_packages').select(['purl', 'uploaded_by']).execute()).toEqual([{ purl: 'pkg:npm/plain-pkg@1.0.0', uploaded_by: REGISTRY_ACCOUNT_ID }]);
    expect(await ctx.db().selectFrom('artifact_facts').select('artifact_id').execute()).toEqual([{ artifact_id: stored.artifact_id }]);
    expect(await ctx.db().selectFrom('accounts').select(['name', 'trusted']).where('account_id', '=', REGISTRY_ACCOUNT_ID).execute()).toEqual([{ name: 'vigil-registries', trusted: 1 }]);

    // No round of the track yet: the first one opens at the next step and closes a submission and an evaluation period later.
    const settings = loadConfig({}, '/tmp').scheduler;
    for (const token of [setup.token, setup.other]) {
      const answer = await verify(setup, 'npm:plain-pkg@1.0.0', token);
      expect(answer).toMatchObject({
        state: 'pending',
        queued: true,
        artifact_id: `art_${stored.artifact_id}`,
        sha256: sha256(tarball),
        fetch: { state: 'queued_for_evaluation', reason: null, expected_by: formatOffsetTimestamp(setup.clock.now + settings.submissionMs + settings.evaluationMs) },
      });
    }
    // A live artifact like any other: listed, readable and searchable by every account (a trusted claim).
    const read = await fetch(`${setup.url}/v1/artifacts/art_${stored.artifact_id}`, { headers: { authorization: `Bearer ${setup.other}` } });
    expect(read.status).toBe(200);
    const detail = (await read.json()) as { packages: { purl: string }[]; archive: { status: string; files: { name: string }[] } };
    expect(detail.packages.map((p) => p.purl)).toEqual(['pkg:npm/plain-pkg@1.0.0']);
    expect(detail.archive.status).toBe('ok');
    expect(detail.archive.files.map((f) => f.name).sort()).toEqual(['package/index.js', 'package/package.json']);
    const search = await fetch(`${setup.url}/v1/search?q=plain-pkg`, { headers: { authorization: `Bearer ${setup.other}` } });
    expect(JSON.stringify(await search.json())).toContain('pkg:npm/plain-pkg@1.0.0');

    // Policy evaluation and repository verification answer the same fetch.
    const evaluated = PolicyEvaluation.parse((await post(setup, '/v1/policies/evaluate', setup.token, { artifact: 'npm:plain-pkg@1.0.0', policy: 'default' })).body);
    expect(evaluated).toMatchObject({ state: 'pending', fetch: { state: 'queued_for_evaluation', reason: null } });
    const lockfile = {
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { 'plain-pkg': '1.0.0', 'weather-mcp': '0.1.0' } },
        'node_modules/plain-pkg': { version: '1.0.0' },
        'node_modules/weather-mcp': { version: '0.1.0' },
      },
    };
    const repository = await post(setup, '/v1/repositories/verify', setup.token, { lockfiles: [{ path: 'package-lock.json', content: JSON.stringify(lockfile) }] });
    expect(repository.status).toBe(200);
    const byPurl = new Map((repository.body.dependencies as { purl: string }[]).map((d) => [d.purl, d]));
    expect(byPurl.get('pkg:npm/plain-pkg@1.0.0')).toMatchObject({ state: 'pending', queued: 'evaluating', fetch: { state: 'queued_for_evaluation', reason: null } });
    // Unseen until now: the repository verification queued it. An MCP server goes to its track.
    expect(byPurl.get('pkg:npm/weather-mcp@0.1.0')).toMatchObject({ state: 'pending', queued: 'evaluating', fetch: { state: 'fetching', reason: null, expected_by: null } });
    expect(await setup.worker.drain()).toBe(1);
    expect(await row('pkg:npm/weather-mcp@0.1.0')).toMatchObject({ state: 'stored', track: 'mcp_servers' });
  });

  it('an SBOM verification queues the fetch of unseen npm and PyPI components and answers where each stands, as a lockfile verification does', async () => {
    const setup = await start();
    const sbom = {
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      components: [
        { type: 'library', name: 'plain-pkg', version: '1.0.0', purl: 'pkg:npm/plain-pkg@1.0.0' },
        { type: 'library', name: 'Demo_Pkg', version: '1.0.0', purl: 'pkg:pypi/Demo_Pkg@1.0.0' },
      ],
    };
    const first = await post(setup, '/v1/sboms/verify', setup.token, sbom);
    expect(first.status).toBe(200);
    const fetching = new Map((first.body.dependencies as { purl: string }[]).map((d) => [d.purl, d]));
    expect(fetching.get('pkg:npm/plain-pkg@1.0.0')).toMatchObject({ state: 'pending', queued: 'evaluating', fetch: { state: 'fetching', reason: null, expected_by: null } });
    expect(fetching.get('pkg:pypi/demo-pkg@1.0.0')).toMatchObject({ state: 'pending', queued: 'evaluating', fetch: { state: 'fetching', reason: null, expected_by: null } });
    expect(await setup.worker.drain()).toBe(2);
    setup.clock.now += 6_000;
    const second = await post(setup, '/v1/sboms/verify', setup.token, sbom);
    for (const dependency of second.body.dependencies as { fetch: unknown }[]) {
      expect(dependency).toMatchObject({ state: 'pending', queued: 'evaluating', fetch: { state: 'queued_for_evaluation', reason: null } });
    }
    expect(second.body).toMatchObject({ verdict: 'WARN', complete: false, summary: { packages: 2, pending: 2 } });
  });

  it('refuses a tarball whose bytes do not match the packument: failed with the reason, nothing stored', async () => {
    const setup = await start();
    expect((await verify(setup, 'npm:tampered-pkg@1.0.0')).fetch).toEqual({ state: 'fetching', reason: null, expected_by: null });
    await setup.worker.drain();
    expect(await row('pkg:npm/tampered-pkg@1.0.0')).toMatchObject({ state: 'failed', attempts: 1, artifact_id: null });
    const answer = await verify(setup, 'npm:tampered-pkg@1.0.0');
    expect(answer).toMatchObject({ state: 'pending', queued: false, artifact_id: null, fetch: { state: 'failed', expected_by: null } });
    expect(answer.fetch?.reason).toBe("integrity_mismatch: tampered-pkg@1.0.0: the tarball's sha512 does not match dist.integrity");
    expect(await ctx.db().selectFrom('artifacts').select('id').execute()).toEqual([]);
    expect(await ctx.db().selectFrom('artifact_packages').select('purl').execute()).toEqual([]);
    expect(blobFiles(setup)).toEqual([]);
    // Failed is final: asking again queues nothing new.
    await verify(setup, 'npm:tampered-pkg@1.0.0');
    expect(await setup.worker.drain()).toBe(0);
  });

  it('answers an unpublished version and an unknown package as failed with the registry state', async () => {
    const setup = await start();
    await verify(setup, 'npm:gone-pkg@1.0.0');
    await verify(setup, 'npm:no-such-pkg@1.0.0');
    expect(await setup.worker.drain()).toBe(2);
    expect((await verify(setup, 'npm:gone-pkg@1.0.0')).fetch).toEqual({ state: 'failed', reason: 'unpublished: gone-pkg@1.0.0: unpublished (the registry keeps its publish time, not its files)', expected_by: null });
    expect((await verify(setup, 'npm:no-such-pkg@1.0.0')).fetch?.reason).toMatch(/^not_found: /);
    expect(blobFiles(setup)).toEqual([]);
  });

  it('retries with backoff while the registry is down, then stores (and the metrics say so)', async () => {
    const attempts = async (outcome: string) => sampleValue(parsePrometheusText(await metricsRegistry.metrics()), 'vigil_registry_fetch_attempts_total', { outcome }) ?? 0;
    const before = { retry: await attempts('retry'), stored: await attempts('stored') };
    const setup = await start();
    proxy.setFault({ kind: 'status', status: 500 });
    await verify(setup, 'pkg:npm/%40vigil-test/scoped@2.0.0');
    expect(await setup.worker.drain()).toBe(1);
    const waiting = await row('pkg:npm/%40vigil-test/scoped@2.0.0');
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1, next_attempt_at: setup.clock.now + 30_000, lease_owner: null });
    expect(waiting.last_error).toMatch(/^registry_unavailable: /);
    // On scrape: one fetch queued, due 5 s ago when read 5 s after its retry time.
    expect(await refreshDatabaseGauges(ctx.db(), { now: waiting.next_attempt_at + 5_000, timeoutMs: 2_000 })).toBeNull();
    const gauges = parsePrometheusText(await databaseRegistry.metrics());
    expect(sampleValue(gauges, 'vigil_registry_fetches', { state: 'queued' })).toBe(1);
    expect(sampleValue(gauges, 'vigil_registry_fetch_overdue_seconds')).toBe(5);
    const answer = await verify(setup, 'pkg:npm/%40vigil-test/scoped@2.0.0');
    expect(answer).toMatchObject({ state: 'pending', queued: true, fetch: { state: 'fetching', reason: waiting.last_error, expected_by: null } });
    // Not due yet: nothing is tried. The second failure doubles the wait.
    expect(await setup.worker.drain()).toBe(0);
    setup.clock.now = waiting.next_attempt_at;
    expect(await setup.worker.drain()).toBe(1);
    expect(await row('pkg:npm/%40vigil-test/scoped@2.0.0')).toMatchObject({ state: 'queued', attempts: 2, next_attempt_at: setup.clock.now + 60_000 });
    proxy.setFault(null);
    setup.clock.now += 60_000;
    expect(await setup.worker.drain()).toBe(1);
    expect(await row('pkg:npm/%40vigil-test/scoped@2.0.0')).toMatchObject({ state: 'stored', attempts: 3, last_error: null });
    expect({ retry: await attempts('retry'), stored: await attempts('stored') }).toEqual({ retry: before.retry + 2, stored: before.stored + 1 });
    expect((await verify(setup, 'pkg:npm/%40vigil-test/scoped@2.0.0')).fetch?.state).toBe('queued_for_evaluation');
  });

  // docs/operations.md, "Tracing": one CLIENT span per fetch attempt, its outcome as an attribute,
  // marked failed only when the registry did not answer.
  it('traces each fetch attempt with a registry fetch span when a tracer provider is registered', async () => {
    const exporter = new InMemorySpanExporter();
    expect(trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))).toBe(true);
    try {
      const setup = await start();
      await verify(setup, 'npm:plain-pkg@1.0.0');
      await verify(setup, 'npm:no-such-pkg@1.0.0');
      expect(await setup.worker.drain()).toBe(2);
      proxy.setFault({ kind: 'status', status: 500 });
      await verify(setup, 'npm:old-pkg@2.0.0');
      expect(await setup.worker.drain()).toBe(1);

      const fetches = exporter.getFinishedSpans().filter((s) => s.name === 'registry fetch');
      const of = (purl: string) => fetches.filter((s) => s.attributes['vigil.purl'] === purl);
      expect(fetches).toHaveLength(3);
      expect(of('pkg:npm/plain-pkg@1.0.0')).toEqual([
        expect.objectContaining({ kind: SpanKind.CLIENT, attributes: { 'vigil.purl': 'pkg:npm/plain-pkg@1.0.0', 'vigil.fetch.attempt': 1, 'vigil.fetch.result': 'fetched' }, status: { code: SpanStatusCode.UNSET } }),
      ]);
      // A registry answer that is final (no such package) is not a failure of the call.
      expect(of('pkg:npm/no-such-pkg@1.0.0')).toEqual([expect.objectContaining({ attributes: expect.objectContaining({ 'vigil.fetch.result': 'not_found' }), status: { code: SpanStatusCode.UNSET } })]);
      const down = of('pkg:npm/old-pkg@2.0.0');
      expect(down).toEqual([expect.objectContaining({ kind: SpanKind.CLIENT, attributes: expect.objectContaining({ 'vigil.fetch.attempt': 1, 'vigil.fetch.result': 'registry_unavailable' }) })]);
      expect(down[0]!.status.code).toBe(SpanStatusCode.ERROR);
      expect(down[0]!.status.message).toEqual(expect.any(String));
      expect(down[0]!.status.message).not.toBe('');
    } finally {
      trace.disable();
    }
  });

  it('takes a fetch again once the lease of a worker that died runs out', async () => {
    const setup = await start();
    await verify(setup, 'npm:old-pkg@2.0.0');
    // A worker claims it and dies: the row stays `running` under its lease.
    expect(await claimDueFetch(ctx.db(), setup.clock.now)).toBeDefined();
    expect(await setup.worker.drain()).toBe(0);
    expect((await verify(setup, 'npm:old-pkg@2.0.0')).fetch?.state).toBe('fetching');
    setup.clock.now += FETCH_LEASE_MS;
    expect(await setup.worker.drain()).toBe(1);
    expect(await row('pkg:npm/old-pkg@2.0.0')).toMatchObject({ state: 'stored', attempts: 2 });
  });

  // Outsider findings: one hanging registry answer held up every other fetch for minutes, and a
  // stopped worker left its fetch `running` for the whole lease.
  it('a registry answer that hangs holds up no other fetch; stopping gives the hung fetch back at once, its attempt not counted', async () => {
    const setup = await start();
    proxy.setFault({ kind: 'hang' }, { match: (path) => path.includes('old-pkg') });
    await verify(setup, 'npm:old-pkg@2.0.0');
    await verify(setup, 'pkg:npm/%40vigil-test/scoped@2.0.0');
    const draining = setup.worker.drain();
    let other = await row('pkg:npm/%40vigil-test/scoped@2.0.0');
    for (let i = 0; i < 600 && other.state !== 'stored'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      other = await row('pkg:npm/%40vigil-test/scoped@2.0.0');
    }
    expect(other.state).toBe('stored');
    expect(await row('pkg:npm/old-pkg@2.0.0')).toMatchObject({ state: 'running', attempts: 1 });
    await setup.worker.stop();
    expect(await row('pkg:npm/old-pkg@2.0.0')).toMatchObject({ state: 'queued', attempts: 0, lease_owner: null, lease_expires_at: null, next_attempt_at: setup.clock.now });
    // The hung request ends when the connectors close; its late answer is dropped.
    proxy.setFault(null);
    setup.connectors.close();
    await draining;
    expect(await row('pkg:npm/old-pkg@2.0.0')).toMatchObject({ state: 'queued', attempts: 0 });
  });

  // Soak finding (issue 29): the database reset the connection while the worker wrote `stored`; the
  // fetch stayed `running` for its 10-minute lease, its bytes stored, and verifications said `fetching`.
  it('an outcome write that fails is tried again: stored at once, not left running under its lease', async () => {
    const logs: Logged[] = [];
    const setup = await start({ db: ctx.db().withPlugin(outcomeWriteFaults(ctx.db(), { before: 2, after: 0 })), logger: loggingTo(logs), outcomeRetryDelaysMs: [20, 40] });
    await verify(setup, 'npm:plain-pkg@1.0.0');
    expect(await setup.worker.drain()).toBe(1);
    expect(await row('pkg:npm/plain-pkg@1.0.0')).toMatchObject({ state: 'stored', attempts: 1, lease_owner: null, lease_expires_at: null });
    expect((await verify(setup, 'npm:plain-pkg@1.0.0')).fetch?.state).toBe('queued_for_evaluation');
    const failed = logs.filter((l) => l.level === 'error');
    expect(failed.map((l) => [l.msg, l.obj.attempt, l.obj.retry_in_ms, (l.obj.err as { code?: string }).code])).toEqual([
      ['registry fetch: its outcome could not be written; retried', 1, 20, 'ECONNRESET'],
      ['registry fetch: its outcome could not be written; retried', 2, 40, 'ECONNRESET'],
    ]);
  });

  it('an outcome write that committed but whose answer was lost is retried harmlessly: stored, counted once, no lease lost', async () => {
    const stored = async () => sampleValue(parsePrometheusText(await metricsRegistry.metrics()), 'vigil_registry_fetch_attempts_total', { outcome: 'stored' }) ?? 0;
    const before = await stored();
    const logs: Logged[] = [];
    const setup = await start({ db: ctx.db().withPlugin(outcomeWriteFaults(ctx.db(), { before: 0, after: 1 })), logger: loggingTo(logs), outcomeRetryDelaysMs: [20, 40] });
    await verify(setup, 'npm:plain-pkg@1.0.0');
    expect(await setup.worker.drain()).toBe(1);
    expect(await row('pkg:npm/plain-pkg@1.0.0')).toMatchObject({ state: 'stored', attempts: 1, lease_owner: null });
    expect(await stored()).toBe(before + 1);
    expect(logs.map((l) => l.msg)).toEqual(['registry fetch stored', 'registry fetch: its outcome could not be written; retried']);
  });

  it('an outcome that cannot be written in 3 attempts is left to its lease, each attempt logged; stopping ends the wait at once', async () => {
    const logs: Logged[] = [];
    const setup = await start({ db: ctx.db().withPlugin(outcomeWriteFaults(ctx.db(), { before: 3, after: 0 })), logger: loggingTo(logs), outcomeRetryDelaysMs: [20, 40] });
    await verify(setup, 'npm:plain-pkg@1.0.0');
    expect(await setup.worker.drain()).toBe(1);
    expect(await row('pkg:npm/plain-pkg@1.0.0')).toMatchObject({ state: 'running', attempts: 1 });
    expect(logs.filter((l) => l.level === 'error').map((l) => [l.msg, l.obj.attempt])).toEqual([
      ['registry fetch: its outcome could not be written; retried', 1],
      ['registry fetch: its outcome could not be written; retried', 2],
      ['registry fetch: its outcome could not be written; left running until its lease runs out', 3],
    ]);
    // The lease runs out: another attempt finds the bytes already stored and records them.
    setup.clock.now += FETCH_LEASE_MS;
    expect(await setup.worker.drain()).toBe(1);
    expect(await row('pkg:npm/plain-pkg@1.0.0')).toMatchObject({ state: 'stored', attempts: 2 });

    // A worker waiting a minute to retry: stop() ends the wait and gives the fetch back.
    const waitLogs: Logged[] = [];
    const waiting = await start({ db: ctx.db().withPlugin(outcomeWriteFaults(ctx.db(), { before: 1, after: 0 })), logger: loggingTo(waitLogs), outcomeRetryDelaysMs: [60_000] });
    await verify(waiting, 'pkg:npm/%40vigil-test/scoped@2.0.0');
    const draining = waiting.worker.drain();
    const retrying = () => waitLogs.some((l) => l.obj.retry_in_ms === 60_000);
    for (const end = Date.now() + 60_000; Date.now() < end && !retrying(); ) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(retrying()).toBe(true);
    const stopping = Date.now();
    await waiting.worker.stop();
    expect(await draining).toBe(1);
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(await row('pkg:npm/%40vigil-test/scoped@2.0.0')).toMatchObject({ state: 'queued', attempts: 0, lease_owner: null });
  });

  // The soak run's fault itself: the worker's connection to PostgreSQL is reset (RST through the TCP
  // fault proxy) while its `stored` write is on the wire, so the write never reaches the server.
  (ctx.dialect === 'postgres' ? it : it.skip)('PostgreSQL resets the connection while the worker writes `stored`: the write is tried again on a new connection', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(ctx.db());
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    const viaProxy = new URL(withSearchPath(url.toString(), rows[0]!.schema));
    viaProxy.host = proxy.address;
    const connectionErrors: Error[] = [];
    const database = await openDatabase({ url: viaProxy.toString(), onConnectionError: (error) => connectionErrors.push(error) });
    let resets = 0;
    // When the `stored` write is compiled, swallow what is sent from then on, and once it has been
    // swallowed reset every connection and let new ones through.
    const resetOnOutcome: KyselyPlugin = {
      transformQuery(args) {
        const { sql: text } = database.db.getExecutor().compileQuery(args.node, args.queryId);
        if (resets === 0 && /^update "registry_fetches" set .*"stored_at"/.test(text)) {
          resets += 1;
          proxy.stall();
          void proxy.untilSwallowed().then(() => {
            proxy.resetAll();
            proxy.resume();
          });
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    try {
      const logs: Logged[] = [];
      // The production waits (1 s, then 2 s): with 100 and 200 ms both retries failed once on a
      // loaded machine (a whole server suite beside other work) and the fetch was left `running`.
      const setup = await start({ db: database.db.withPlugin(resetOnOutcome), logger: loggingTo(logs), outcomeRetryDelaysMs: [1_000, 2_000] });
      await verify(setup, 'npm:plain-pkg@1.0.0');
      // Settled first, judged after the row: what matters most is where the fetch stands.
      const drained = await setup.worker.drain().then(
        (count) => count,
        (error: unknown) => error,
      );
      expect(resets).toBe(1);
      expect(await row('pkg:npm/plain-pkg@1.0.0')).toMatchObject({ state: 'stored', attempts: 1, lease_owner: null });
      expect(drained).toBe(1);
      const failed = logs.filter((l) => l.level === 'error');
      expect(failed.map((l) => [l.msg, l.obj.attempt])).toEqual([['registry fetch: its outcome could not be written; retried', 1]]);
      await setup.worker.stop();
    } finally {
      await database.close();
      await proxy.close();
    }
  });

  it('fetches a PyPI release (its pure-Python wheel) from the index', async () => {
    const setup = await start();
    expect((await verify(setup, 'pkg:pypi/demo-pkg@1.0.0')).fetch?.state).toBe('fetching');
    await setup.worker.drain();
    const answer = await verify(setup, 'pkg:pypi/demo-pkg@1.0.0');
    expect(answer).toMatchObject({ queued: true, sha256: sha256(wheel), fetch: { state: 'queued_for_evaluation', reason: null } });
  });

  it('leaves references it does not fetch as they were: no version, another ecosystem', async () => {
    const setup = await start();
    for (const artifact of ['pkg:cargo/serde@1.0.0', 'pkg:github/acme/tool@v1.0.0']) {
      const answer = await verify(setup, artifact);
      expect(answer.queued).toBe(false);
      expect(answer).not.toHaveProperty('fetch');
    }
    expect(await ctx.db().selectFrom('registry_fetches').select('purl').execute()).toEqual([]);
  });
});
