import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type VigilDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import { databaseRegistry, refreshDatabaseGauges } from '../src/platform/metrics/database-gauges.js';
import { metricsRegistry } from '../src/platform/metrics/index.js';
import { parsePrometheusText, sampleValue } from '../src/test-support/prometheus-text.js';
import { startTcpProxy, type TcpProxy } from '../src/test-support/tcp-proxy.js';
import { startWebhookReceiver, type WebhookReceiver } from '../src/test-support/webhook-receiver.js';
import { rawRequest, startServer } from './harness.js';
import { emit, startHarness, type Harness } from './webhooks-support.js';

/** This process's counter, read as a scrape would show it (counters are per process: tests compare before and after). */
async function counter(name: string, labels: Record<string, string>): Promise<number> {
  return sampleValue(parsePrometheusText(await metricsRegistry.metrics()), name, labels) ?? 0;
}

async function databaseGauge(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  return sampleValue(parsePrometheusText(await databaseRegistry.metrics()), name, labels);
}

describe('webhook metrics: attempts by outcome, the outbox backlog and overdue deliveries', () => {
  let database: VigilDatabase;
  let h: Harness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    database = await openDatabase({ url: ':memory:' });
    await migrateToLatest(database.db);
    h = await startHarness(database.db);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
    await database?.close();
  });

  it('a 500 then a 200: one http_error and one success; the backlog and the overdue delivery show on scrape, then clear', async () => {
    const token = await h.key('acme');
    const created = await h.call('POST', '/v1/webhooks', { token, body: { url: `${receiver.url}/hook`, events: ['verdict.changed'] } });
    expect(created.status).toBe(201);
    const before = { success: await counter('vigil_webhook_attempts_total', { outcome: 'success' }), failed: await counter('vigil_webhook_attempts_total', { outcome: 'http_error' }) };

    await emit(h);
    // Not yet fanned out: one event in the backlog, as old as the clock says.
    expect(await refreshDatabaseGauges(database.db, { now: h.clock.t + 60_000, timeoutMs: 2_000 })).toBeNull();
    expect(await databaseGauge('vigil_outbox_backlog_events')).toBe(1);
    expect(await databaseGauge('vigil_outbox_oldest_age_seconds')).toBe(60);

    receiver.script.push({ status: 500, body: 'down' });
    const worker = await h.worker();
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
    expect(await counter('vigil_webhook_attempts_total', { outcome: 'http_error' })).toBe(before.failed + 1);
    const retry = await database.db.selectFrom('webhook_deliveries').select('next_attempt_at').where('state', '=', 'pending').executeTakeFirstOrThrow();
    expect(await refreshDatabaseGauges(database.db, { now: Number(retry.next_attempt_at) + 30_000, timeoutMs: 2_000 })).toBeNull();
    expect(await databaseGauge('vigil_outbox_backlog_events')).toBe(0);
    expect(await databaseGauge('vigil_outbox_oldest_age_seconds')).toBe(0);
    expect(await databaseGauge('vigil_webhook_deliveries', { state: 'pending' })).toBe(1);
    expect(await databaseGauge('vigil_webhook_delivery_overdue_seconds')).toBe(30);

    h.clock.t = Number(retry.next_attempt_at);
    await worker.drain();
    expect(receiver.received).toHaveLength(2);
    expect(await counter('vigil_webhook_attempts_total', { outcome: 'success' })).toBe(before.success + 1);
    expect(await refreshDatabaseGauges(database.db, { now: h.clock.t, timeoutMs: 2_000 })).toBeNull();
    expect(await databaseGauge('vigil_webhook_deliveries', { state: 'pending' })).toBe(0);
    expect(await databaseGauge('vigil_webhook_delivery_overdue_seconds')).toBe(0);
    expect(sampleValue(parsePrometheusText(await metricsRegistry.metrics()), 'vigil_webhook_attempt_duration_seconds_count')).toBeGreaterThanOrEqual(2);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
const describeRedis = redisUrl ? describe : describe.skip;
if (!redisUrl) console.warn('metrics-counters: TEST_REDIS_URL not set; Redis failure counter test skipped');

describeRedis('Redis failures are counted by use', () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  });
  afterAll(async () => proxy?.close());

  it('a Redis that stops answering: the rate limit and the response cache fall back, and each fallback is counted', async () => {
    const server = await startServer({ config: { redisUrl: `redis://${proxy.address}`, redisTimeoutMs: 200 } });
    try {
      expect((await fetch(`${server.url}/v1/leaderboard`)).status).toBe(200);
      const before = { rateLimit: await counter('vigil_redis_failures_total', { use: 'rate_limit' }), cache: await counter('vigil_redis_failures_total', { use: 'response_cache' }) };
      proxy.stall();
      expect((await fetch(`${server.url}/v1/leaderboard`)).status).toBe(200);
      expect(await counter('vigil_redis_failures_total', { use: 'rate_limit' })).toBe(before.rateLimit + 1);
      // The read and the write of the cache entry each failed.
      expect(await counter('vigil_redis_failures_total', { use: 'response_cache' })).toBeGreaterThanOrEqual(before.cache + 1);
    } finally {
      proxy.resume();
      await server.close();
    }
  });
});

describe('vigil_http_requests_total counts requests refused before routing', () => {
  it('a method the parser refuses (BREW) and CONNECT are counted under route unmatched', async () => {
    const server = await startServer({ metrics: true });
    try {
      const labels = { method: 'unparsed', route: 'unmatched', status: '400' };
      const connectLabels = { method: 'CONNECT', route: 'unmatched', status: '405' };
      const before = await counter('vigil_http_requests_total', labels);
      const connectBefore = await counter('vigil_http_requests_total', connectLabels);
      const brew = await rawRequest(server.port, 'BREW /v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(brew.status).toBe(400);
      expect(brew.headers['x-request-id']).toBeTruthy();
      const connect = await rawRequest(server.port, 'CONNECT 127.0.0.1:5432 HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(connect.status).toBe(405);
      expect(await counter('vigil_http_requests_total', labels)).toBe(before + 1);
      expect(await counter('vigil_http_requests_total', connectLabels)).toBe(connectBefore + 1);
    } finally {
      await server.close();
    }
  });
});
