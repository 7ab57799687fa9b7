import { randomInt } from 'node:crypto';
import { SignedVigilClient, VigilApiError, keypairFromSeed } from '@vigil/client';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';
import { startTcpProxy, type TcpProxy } from '../src/test-support/tcp-proxy.js';
import { startServer } from './harness.js';

const redisUrl = process.env.TEST_REDIS_URL;
const describeRedis = redisUrl ? describe : describe.skip;
if (!redisUrl) console.warn('redis-faults: TEST_REDIS_URL not set; Redis fault tests skipped');

describeRedis('a Redis that accepts connections and never answers', () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  });
  afterAll(async () => proxy?.close());

  it('public reads are answered within VIGIL_REDIS_TIMEOUT_MS by the documented fallback (uncounted, uncached)', async () => {
    const server = await startServer({ config: { redisUrl: `redis://${proxy.address}${new URL(redisUrl!).pathname}`, redisTimeoutMs: 200 } });
    try {
      expect((await fetch(`${server.url}/v1/leaderboard`)).status).toBe(200);
      proxy.stall();
      proxy.resetAll();
      const started = Date.now();
      const responses = await Promise.all(Array.from({ length: 5 }, () => fetch(`${server.url}/v1/leaderboard`)));
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      // Bounded by the Redis timeout (a few of them in a row at most), far below the handler timeout.
      expect(Date.now() - started).toBeLessThan(server.config.handlerTimeoutMs);
      expect(server.logs()).toContain('serving uncounted');
    } finally {
      proxy.resume();
      await server.close();
    }
  });

  it('a connection that went silent is replaced: once Redis answers again, rate limits count again (probe finding)', async () => {
    const server = await startServer({ config: { redisUrl: `redis://${proxy.address}${new URL(redisUrl!).pathname}`, redisTimeoutMs: 200, rateLimitPerMinute: 5, trustProxy: true } });
    // A fresh client address per run: Redis counters outlive the test process and are shared.
    const headers = { 'x-forwarded-for': `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}` };
    const leaderboard = async () => (await fetch(`${server.url}/v1/leaderboard`, { headers })).status;
    try {
      expect(await leaderboard()).toBe(200);
      // Bytes dropped, the socket kept open: the commands sent now are never answered.
      proxy.stall();
      expect(await leaderboard()).toBe(200);
      expect(server.logs()).toContain('serving uncounted');
      // The same socket forwards again. On it, every answer would be taken for the answer to a
      // command that timed out: nothing would ever count again.
      proxy.resume();
      const statuses: number[] = [];
      const deadline = Date.now() + 10_000;
      while (!statuses.includes(429) && Date.now() < deadline) {
        statuses.push(await leaderboard());
        // A real wait: the server's real Redis connection recovers in its own time; no clock moves it.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(statuses).toContain(429);
    } finally {
      proxy.resume();
      await server.close();
    }
  });

  it('a Redis client without a command timeout cannot hold a request past the handler timeout', async () => {
    // The client the app is handed has no timeouts: only the handler timeout, which now starts
    // before the rate-limit hook, bounds the request.
    const redis = new Redis(`redis://${proxy.address}${new URL(redisUrl!).pathname}`, { maxRetriesPerRequest: null, enableOfflineQueue: true });
    redis.on('error', () => {});
    await redis.ping();
    const server = await startServer({ redis, config: { handlerTimeoutMs: 300 } });
    try {
      proxy.stall();
      proxy.resetAll();
      const response = await fetch(`${server.url}/v1/leaderboard`);
      expect(response.status).toBe(504);
      expect(await response.json()).toEqual({ detail: 'request handler timed out', code: 'handler_timeout' });
      expect(response.headers.get('x-request-id')).toBeTruthy();
    } finally {
      proxy.resume();
      await server.close();
      redis.disconnect();
    }
  });
});

describeRedis('a slow but live Redis (answers 100–900 ms late)', () => {
  let proxy: TcpProxy;
  let direct: Redis;
  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    direct = new Redis(redisUrl!, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await direct.connect();
  });
  afterAll(async () => {
    direct?.disconnect();
    await proxy?.close();
  });

  it('each request is counted at most once: a command that timed out is never sent again (probe finding: 120 requests, up to 363 increments)', async () => {
    const server = await startServer({
      config: { redisUrl: `redis://${proxy.address}${new URL(redisUrl!).pathname}`, redisTimeoutMs: 500, rateLimitPerMinute: 10_000, trustProxy: true },
    });
    // A fresh client address per run: Redis counters outlive the test process and are shared.
    const ip = `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}`;
    const requests = 120;
    const statuses: number[] = [];
    try {
      let turn = 0;
      // 100, 800, 600, …: about half the answers come after VIGIL_REDIS_TIMEOUT_MS.
      proxy.delayAnswers(() => 100 + ((turn++ * 7) % 9) * 100);
      for (let wave = 0; wave < requests / 8; wave++) {
        const answers = await Promise.all(
          Array.from({ length: 8 }, () => fetch(`${server.url}/v1/server-identity`, { headers: { 'x-forwarded-for': ip } })),
        );
        for (const answer of answers) {
          await answer.arrayBuffer();
          statuses.push(answer.status);
        }
      }
      proxy.delayAnswers(null);
      // Whatever the client library would still send on its own (a reconnect's resend) goes out now.
      let sent = -1;
      while (sent !== proxy.sentCount(`:g:${ip}\r\n`)) {
        sent = proxy.sentCount(`:g:${ip}\r\n`);
        // A real wait: ioredis resends on its own timers over a real socket; quiet for 1.5 s means done.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
    } finally {
      proxy.delayAnswers(null);
      await server.close();
    }
    // Every request was answered as usual: counted in time, or served uncounted (the fallback).
    expect(statuses).toEqual(Array(requests).fill(200));
    expect(server.logs()).toContain('serving uncounted');
    const keys = await direct.keys(`vigil:rl:*:g:${ip}`);
    const counted = (await Promise.all(keys.map((key) => direct.get(key)))).reduce((sum, value) => sum + Number(value), 0);
    expect(proxy.sentCount(`:g:${ip}\r\n`)).toBeLessThanOrEqual(requests);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(requests);
  });
});

describeRedis('signed requests while Redis hangs', () => {
  let proxy: TcpProxy;
  let server: NetworkApp;
  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    server = await startNetworkApp({
      snapshot: { netuid: 76, block: 1, taken_at: '2026-01-01T00:00:00.000+00:00', neurons: [] },
      config: { redisUrl: `redis://${proxy.address}${new URL(redisUrl!).pathname}`, redisTimeoutMs: 200, handlerTimeoutMs: 5_000 },
    });
  });
  afterAll(async () => {
    proxy?.resume();
    await server?.close();
    await proxy?.close();
  });

  it('the replay check cannot be made: 502 upstream dependency unavailable within the Redis timeout, then served once Redis answers', async () => {
    // The client's clock, moved a second before the second call instead of sleeping: its timestamp
    // (whole seconds) is then fresh, so it cannot meet a signature of the first call, whatever was kept.
    let clock = Date.now();
    const miner = new SignedVigilClient({ baseUrl: server.baseUrl, keypair: keypairFromSeed('44'.repeat(32)), now: () => clock });
    proxy.stall();
    proxy.resetAll();
    const refused = await miner.request('POST', '/v1/miners/registrations', { track: 'skills' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(VigilApiError);
    expect((refused as VigilApiError).status).toBe(502);
    // 502, not the handler timeout's 504: every Redis call gave up within VIGIL_REDIS_TIMEOUT_MS.
    expect((refused as VigilApiError).detail).toBe('upstream dependency unavailable');

    proxy.resume();
    // A fresh signature (the client signs each call anew, a second later) goes through once Redis answers again.
    clock += 1_000;
    await expect(miner.request('POST', '/v1/miners/registrations', { track: 'skills' })).resolves.toBeDefined();
  });
});
