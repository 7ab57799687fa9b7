import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.js';
import { connectRedis } from './connect-redis.js';

const redisUrl = process.env.TEST_REDIS_URL;
const describeRedis = redisUrl ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the proxy has seen no new command naming `prefix` for a while: nothing more is on its
 * way (or 15 s passed: a client that keeps re-sending never goes quiet).
 */
async function untilQuiet(proxy: TcpProxy, prefix: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  let sent = -1;
  while (sent !== proxy.sentCount(prefix) && Date.now() < deadline) {
    sent = proxy.sentCount(prefix);
    await sleep(1_500);
  }
}

describeRedis('connectRedis: each command is sent at most once', () => {
  let proxy: TcpProxy;
  let direct: Redis;
  let client: Redis | undefined;
  // Keys of this run only: Redis outlives the test process and is shared with other runs.
  const prefix = `vigil-test:connect-redis:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    direct = new Redis(redisUrl!, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await direct.connect();
  });
  afterEach(() => {
    proxy.delayAnswers(null);
    client?.disconnect();
    client = undefined;
  });
  afterAll(async () => {
    const keys = await direct.keys(`${prefix}*`);
    if (keys.length > 0) await direct.del(...keys);
    direct?.disconnect();
    await proxy?.close();
  });

  it('on a slow Redis, a command that timed out is never sent again, on its connection or the next', async () => {
    const redis = connectRedis(`redis://${proxy.address}${new URL(redisUrl!).pathname}`, 300);
    client = redis;
    redis.on('error', () => {});
    await redis.ping();
    let turn = 0;
    // 100, 800, 600, …: about two answers in three come after the 300 ms timeout.
    proxy.delayAnswers(() => 100 + ((turn++ * 7) % 9) * 100);
    const outcomes: string[] = [];
    for (let wave = 0; wave < 10; wave++) {
      const settled = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => redis.incr(`${prefix}slow:${wave * 6 + i}`)));
      outcomes.push(...settled.map((s) => (s.status === 'fulfilled' ? String(s.value) : (s.reason as Error).message)));
    }
    proxy.delayAnswers(null);
    await untilQuiet(proxy, `${prefix}slow:`);

    expect(outcomes).toContain('Command timed out');
    expect(outcomes).toContain('1');
    const values = await direct.mget(...outcomes.map((_, i) => `${prefix}slow:${i}`));
    // Run once (1) or never (null); a command answered in time certainly ran.
    expect(values.filter((v) => v !== null && v !== '1')).toEqual([]);
    values.forEach((value, i) => {
      if (outcomes[i] === '1') expect(value).toBe('1');
    });
    expect(proxy.sentCount(`${prefix}slow:`)).toBe(values.filter((v) => v === '1').length);
  });

  it('a command whose connection closed before its answer is not sent again on the next connection: it fails at its timeout', async () => {
    const redis = connectRedis(`redis://${proxy.address}${new URL(redisUrl!).pathname}`, 2_000);
    client = redis;
    redis.on('error', () => {});
    await redis.ping();
    // Redis runs the command; its answer is held until the connection is cut.
    proxy.delayAnswers(() => 60_000);
    const key = `${prefix}cut`;
    const incr = redis.incr(key).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    while (proxy.sentCount(key) === 0) await sleep(10);
    proxy.delayAnswers(null);
    proxy.resetAll();
    expect(await incr).toBe('Command timed out');
    // The client is back on a new connection, and the command was never written to it.
    expect(await redis.ping()).toBe('PONG');
    await untilQuiet(proxy, key);
    expect(await direct.get(key)).toBe('1');
    expect(proxy.sentCount(key)).toBe(1);
  });

  it('a command that timed out while waiting for a connection is not sent once one is ready', async () => {
    const redis = connectRedis(`redis://${proxy.address}${new URL(redisUrl!).pathname}`, 300);
    client = redis;
    redis.on('error', () => {});
    await redis.ping();
    // The next connection comes 600 ms after the current one closes: longer than a command may wait.
    redis.options.retryStrategy = () => 600;
    redis.disconnect(true);
    const key = `${prefix}queued`;
    const incr = redis.incr(key).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    expect(await incr).toBe('Command timed out');
    await new Promise((resolve) => redis.once('ready', resolve));
    // Commands are answered in order: once this one is, anything queued before it has run.
    expect(await redis.ping()).toBe('PONG');
    expect(await direct.get(key)).toBeNull();
    expect(proxy.sentCount(key)).toBe(0);
  });
});
