import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rawHeader, startRawHttpServer } from '../../../test-support/raw-http-server.js';
import { AddressRefusedError, type HostResolver } from './address-policy.js';
import { excerptOf, idleConnectionLimitMs, RESPONSE_EXCERPT_BYTES, sendDelivery } from './send-delivery.js';

describe('the response excerpt kept with an attempt', () => {
  it('keeps at most 1 KiB and never cuts a character in two', () => {
    expect(RESPONSE_EXCERPT_BYTES).toBe(1024);
    const ascii = Buffer.from('a'.repeat(2000));
    expect(excerptOf(ascii)).toBe('a'.repeat(1024));
    // 1023 ASCII bytes then a 3-byte character straddling the limit: the character is left out whole.
    const straddling = Buffer.concat([Buffer.from('b'.repeat(1023)), Buffer.from('€€')]);
    expect(excerptOf(straddling)).toBe('b'.repeat(1023));
    expect(Buffer.byteLength(excerptOf(Buffer.from('é'.repeat(600))))).toBe(1024);
  });

  it('shows a NUL (which PostgreSQL text cannot hold) as U+FFFD', () => {
    expect(excerptOf(Buffer.from('ok\u0000done'))).toBe('ok\uFFFDdone');
  });
});

/** A plain node:http receiver with node's defaults (keepAliveTimeout 5 s), counting the connections it accepted. */
async function plainReceiver(keepAliveTimeoutMs?: number): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(202).end('accepted'));
  });
  if (keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, connections: () => connections, close: async () => undefined };
}

async function rawServer(decide: Parameters<typeof startRawHttpServer>[0]) {
  const server = await startRawHttpServer(decide);
  closers.push(() => server.close());
  return server;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const loopback: HostResolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);

function deliver(url: string, resolver: HostResolver = loopback) {
  return sendDelivery({
    url,
    body: Buffer.from('{"id":"e"}'),
    headers: { 'Content-Type': 'application/json', 'X-Vigil-Delivery': '00000000-0000-4000-8000-000000000001' },
    timeoutMs: 5_000,
    allowPrivate: true,
    resolver,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a pooled connection the receiver closed', () => {
  it('is tried once more at once on a new connection when it failed before any answer byte: the receiver gets the same request there', async () => {
    // Every connection's second request meets a closed connection, as when the receiver's idle timeout ran out just then.
    const server = await rawServer((r) => (r.onConnection === 1 ? 'answer' : 'close'));
    expect(await deliver(server.url)).toMatchObject({ status: 200, error: null });
    expect(await deliver(server.url)).toMatchObject({ status: 200, error: null, excerpt: 'ok' });
    expect(server.requests.map((r) => [r.connection, r.onConnection])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
    ]);
    const [, stale, fresh] = server.requests;
    expect(fresh!.body.equals(stale!.body)).toBe(true);
    expect(rawHeader(fresh!, 'x-vigil-delivery')).toBe(rawHeader(stale!, 'x-vigil-delivery'));
    // The new connection carries that request only (docs/webhooks.md, "Connections").
    expect(rawHeader(fresh!, 'connection')).toBe('close');
  });

  it('is not tried again when the connection was new, or when the receiver had begun to answer', async () => {
    const fresh = await rawServer(() => 'close');
    expect(await deliver(fresh.url)).toMatchObject({ status: null, error: 'socket hang up' });
    expect(fresh.requests).toHaveLength(1);

    const answering = await rawServer((r) => (r.onConnection === 1 ? 'answer' : 'partial'));
    expect(await deliver(answering.url)).toMatchObject({ status: 200 });
    const cut = await deliver(answering.url);
    expect(cut.status).toBeNull();
    expect(cut.error).not.toBeNull();
    expect(answering.requests).toHaveLength(2);
  });

  it('connects the new connection through the address checks again: a name that now resolves elsewhere reaches nothing', async () => {
    const server = await rawServer((r) => (r.onConnection === 1 ? 'answer' : 'close'));
    const port = new URL(server.url).port;
    let lookups = 0;
    const rebinding: HostResolver = (host) => {
      lookups += 1;
      if (lookups === 1) return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
      return Promise.reject(new AddressRefusedError(`${host} resolves to 10.0.0.5, a private address, which webhooks may not reach`));
    };
    expect(await deliver(`http://hooks.test:${port}/hooks`, rebinding)).toMatchObject({ status: 200 });
    expect(await deliver(`http://hooks.test:${port}/hooks`, rebinding)).toMatchObject({
      status: null,
      error: 'refused: hooks.test resolves to 10.0.0.5, a private address, which webhooks may not reach',
    });
    expect(lookups).toBe(2);
    expect(server.requests).toHaveLength(2);
  });
});

describe('idle pooled connections', () => {
  it('wait at most 4 s, and at most the announced Keep-Alive timeout less 1 s; not at all under 2 s', () => {
    expect(idleConnectionLimitMs(undefined)).toBe(4_000);
    expect(idleConnectionLimitMs('timeout=5')).toBe(4_000);
    expect(idleConnectionLimitMs('timeout=60, max=1000')).toBe(4_000);
    expect(idleConnectionLimitMs('timeout=3, max=100')).toBe(2_000);
    expect(idleConnectionLimitMs('max=100, Timeout=2')).toBe(1_000);
    expect(idleConnectionLimitMs('timeout=1')).toBe(0);
    expect(idleConnectionLimitMs('timeout=0')).toBe(0);
    expect(idleConnectionLimitMs('max=5')).toBe(4_000);
    expect(idleConnectionLimitMs('timeout=soon')).toBe(4_000);
  });

  it('are reused while fresh, and retired after 4 s idle, before a default node:http receiver (5 s) closes them', async () => {
    const receiver = await plainReceiver();
    expect(await deliver(receiver.url)).toMatchObject({ status: 202 });
    expect(await deliver(receiver.url)).toMatchObject({ status: 202 });
    expect(receiver.connections()).toBe(1);
    await sleep(4_500);
    expect(await deliver(receiver.url)).toMatchObject({ status: 202 });
    expect(receiver.connections()).toBe(2);
  });

  it('are retired 1 s before the Keep-Alive timeout the receiver announced', async () => {
    const receiver = await plainReceiver(2_000); // answers Keep-Alive: timeout=2
    expect(await deliver(receiver.url)).toMatchObject({ status: 202 });
    await sleep(1_500);
    expect(await deliver(receiver.url)).toMatchObject({ status: 202 });
    expect(receiver.connections()).toBe(2);
  });
});
