import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase, type VigilDatabase } from '../src/platform/db/database.js';
import { migrateToLatest, MIGRATIONS } from '../src/platform/db/migrate.js';
import { databaseInstrumentation, metricsRegistry, startMetricsServer, type MetricsServer } from '../src/platform/metrics/index.js';
import { withSearchPath } from '../src/test-support/databases.js';
import { parsePrometheusText, sampleValue } from '../src/test-support/prometheus-text.js';
import { startTcpProxy, type TcpProxy } from '../src/test-support/tcp-proxy.js';
import { startServer, type TestServer } from './harness.js';

const LAST_MIGRATION = Object.keys(MIGRATIONS).at(-1)!;
const silentLogger = { warn: () => undefined };

async function ready(server: TestServer): Promise<{ status: number; body: unknown; requestId: string | null }> {
  const response = await fetch(`${server.url}/v1/ready`);
  return { status: response.status, body: await response.json(), requestId: response.headers.get('x-request-id') };
}

async function metricsReady(metrics: MetricsServer): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://127.0.0.1:${metrics.address.port}/ready`);
  return { status: response.status, text: await response.text() };
}

describe('readiness: migrations', () => {
  let server: TestServer;
  let metrics: MetricsServer;

  beforeAll(async () => {
    server = await startServer();
    metrics = await startMetricsServer({ settings: { host: '127.0.0.1', port: 0, queryTimeoutMs: 2_000 }, db: server.database.db, logger: silentLogger });
  });
  afterAll(async () => {
    await metrics?.close();
    await server?.close();
  });

  it('a migrated database is ready; /v1/health never asks', async () => {
    expect(await ready(server)).toMatchObject({ status: 200, body: { status: 'ready' } });
    expect(await metricsReady(metrics)).toEqual({ status: 200, text: 'ready\n' });
    expect((await fetch(`${server.url}/v1/ready`)).headers.get('cache-control')).toBe('no-store');
  });

  it('a migration not applied makes the instance not ready (503 not_ready naming it); a database newer than the code is ready', async () => {
    const db = server.database.db;
    const [row] = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration where name = ${LAST_MIGRATION}`.execute(db).then((r) => r.rows);
    await sql`delete from kysely_migration where name = ${LAST_MIGRATION}`.execute(db);
    try {
      const reason = `migrations behind: 1 not applied (${LAST_MIGRATION}); run vigil-server migrate`;
      const answer = await ready(server);
      expect(answer).toMatchObject({ status: 503, body: { code: 'not_ready', detail: `not ready: ${reason}` } });
      expect(answer.requestId).toBeTruthy();
      expect(await metricsReady(metrics)).toEqual({ status: 503, text: `not ready: ${reason}\n` });
      // The scrape says so too, for the VigilNotReady alert: the reads succeed, a migration is pending.
      const behind = parsePrometheusText(await (await fetch(`http://127.0.0.1:${metrics.address.port}/metrics`)).text());
      expect(sampleValue(behind, 'vigil_metrics_database_up')).toBe(1);
      expect(sampleValue(behind, 'vigil_migrations_pending')).toBe(1);
      // /v1/health is liveness: the process is alive whatever its database says.
      expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${row!.name}, ${row!.timestamp})`.execute(db);
    }
    const current = parsePrometheusText(await (await fetch(`http://127.0.0.1:${metrics.address.port}/metrics`)).text());
    expect(sampleValue(current, 'vigil_migrations_pending')).toBe(0);
    // The next release migrated the database (expand/contract): this instance keeps serving.
    await sql`insert into kysely_migration (name, timestamp) values ('9999-next-release', ${new Date().toISOString()})`.execute(db);
    try {
      expect(await ready(server)).toMatchObject({ status: 200, body: { status: 'ready' } });
    } finally {
      await sql`delete from kysely_migration where name = '9999-next-release'`.execute(db);
    }
  });

  it('a database never migrated is not ready', async () => {
    const empty = await openDatabase({ url: ':memory:' });
    const emptyServer = await startServer({ database: empty });
    try {
      const answer = await ready(emptyServer);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'not_ready', detail: expect.stringMatching(/^not ready: migrations unknown: the migration table cannot be read \(.*kysely_migration/) });
    } finally {
      await emptyServer.close();
      await empty.close();
    }
  });
});

const url = process.env.TEST_DATABASE_URL;
const describePg = url ? describe : describe.skip;
if (!url) console.warn('readiness: TEST_DATABASE_URL not set; PostgreSQL readiness tests skipped');

describePg('readiness and scrape reads when PostgreSQL stops answering', () => {
  const schema = `vigil_r_${randomBytes(6).toString('hex')}`;
  let proxy: TcpProxy;
  let database: VigilDatabase;
  let server: TestServer;
  let metrics: MetricsServer;

  async function admin(text: string): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await admin(`CREATE SCHEMA ${schema}`);
    const direct = await openDatabase({ url: withSearchPath(url!, schema) });
    try {
      await migrateToLatest(direct.db);
    } finally {
      await direct.close();
    }
    const target = new URL(url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(withSearchPath(url!, schema));
    viaProxy.host = proxy.address;
    database = await openDatabase({ url: viaProxy.toString(), connectTimeoutMs: 500, statementTimeoutMs: 500, onConnectionError: () => undefined, instrument: databaseInstrumentation });
    const config = loadConfig({}, '/tmp');
    server = await startServer({ database, config: { metrics: { ...config.metrics, queryTimeoutMs: 300 } } });
    metrics = await startMetricsServer({ settings: { host: '127.0.0.1', port: 0, queryTimeoutMs: 300 }, db: database.db, logger: silentLogger });
  });

  afterAll(async () => {
    await metrics?.close();
    await server?.close();
    await database?.close();
    await proxy?.close();
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it('ready while it answers; 503 within the bound when it stops; ready again once it answers', async () => {
    expect(await ready(server)).toMatchObject({ status: 200, body: { status: 'ready' } });
    // The scrape's reads are bounded at 300 ms here: on a loaded machine one healthy scrape can pass
    // the bound (and says so, database_up 0); a healthy database answers one within a few tries.
    let before = parsePrometheusText(await (await fetch(`http://127.0.0.1:${metrics.address.port}/metrics`)).text());
    for (let tries = 1; tries < 10 && sampleValue(before, 'vigil_metrics_database_up') !== 1; tries++) {
      before = parsePrometheusText(await (await fetch(`http://127.0.0.1:${metrics.address.port}/metrics`)).text());
    }
    expect(sampleValue(before, 'vigil_metrics_database_up')).toBe(1);
    expect(sampleValue(before, 'vigil_outbox_backlog_events')).toBe(0);
    expect(sampleValue(before, 'vigil_round_phase', { track: 'skills', phase: 'between' })).toBe(1);
    // PostgreSQL's pool is reported.
    expect(sampleValue(before, 'vigil_db_pool_connections', { state: 'total' })).toEqual(expect.any(Number));

    proxy.stall();
    try {
      const started = Date.now();
      const answer = await ready(server);
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ code: 'not_ready', detail: 'not ready: database unreachable (no answer within 300 ms)' });
      expect(await metricsReady(metrics)).toEqual({ status: 503, text: 'not ready: database unreachable (no answer within 300 ms)\n' });
      // A scrape still answers, within its bound, saying the database reads failed; the gauges read from it are absent, not stale.
      const during = parsePrometheusText(await (await fetch(`http://127.0.0.1:${metrics.address.port}/metrics`)).text());
      expect(sampleValue(during, 'vigil_metrics_database_up')).toBe(0);
      expect(sampleValue(during, 'vigil_outbox_backlog_events')).toBeUndefined();
      expect(sampleValue(during, 'vigil_round_phase', { track: 'skills', phase: 'between' })).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      proxy.resume();
      proxy.resetAll();
    }
    let after = await ready(server);
    for (let i = 0; i < 20 && after.status !== 200; i++) {
      // Real time: the pool replaces its broken connections on its own.
      await new Promise((r) => setTimeout(r, 100));
      after = await ready(server);
    }
    expect(after).toMatchObject({ status: 200, body: { status: 'ready' } });
    // The checks cut off by the reset failed, and the statement metrics say so.
    const failedQueries = parsePrometheusText(await metricsRegistry.metrics());
    expect(sampleValue(failedQueries, 'vigil_db_query_duration_seconds_count', { kind: 'raw', outcome: 'error' })).toBeGreaterThan(0);
  });

  it('concurrent probes of either readiness endpoint during a stall share one check: one statement, not one per probe', async () => {
    // The real database through the proxy, with a plugin that counts the statements sent to it.
    let statements = 0;
    const counted = database.db.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const probed = await startMetricsServer({ settings: { host: '127.0.0.1', port: 0, queryTimeoutMs: 300 }, db: counted, logger: silentLogger });
    const probedApi = await startServer({ database: { ...database, db: counted }, config: { metrics: { ...loadConfig({}, '/tmp').metrics, queryTimeoutMs: 300 } } });
    proxy.stall();
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => metricsReady(probed)));
      for (const answer of answers) expect(answer).toEqual({ status: 503, text: 'not ready: database unreachable (no answer within 300 ms)\n' });
      expect(statements).toBeLessThanOrEqual(2);
      statements = 0;
      const apiAnswers = await Promise.all(Array.from({ length: 20 }, () => ready(probedApi)));
      for (const answer of apiAnswers) expect(answer.status).toBe(503);
      expect(statements).toBeLessThanOrEqual(2);
    } finally {
      proxy.resume();
      proxy.resetAll();
      await probed.close();
      await probedApi.close();
    }
  });
});
