import { Worker } from 'node:worker_threads';
import { afterEach, expect, it } from 'vitest';
import { describeEachDialect } from '../src/test-support/databases.js';
import { rawHeader, startRawHttpServer } from '../src/test-support/raw-http-server.js';
import { sendDelivery, type DeliveryRequest } from '../src/features/webhooks/dispatch/send-delivery.js';
import { emit, startHarness, type Harness } from './webhooks-support.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Slots of the receiver's shared counters. */
const CONNECTIONS = 0;
const CLOSED = 1;
const REQUESTS = 2;

/**
 * The receiver of docs/webhook-receivers.md at its plainest: node:http with every default
 * (keepAliveTimeout 5 s), answering 500 to the first delivery and 202 afterwards. It runs in a
 * worker thread, so it keeps its own time while the sender's thread is held up, and counts what
 * it sees in shared memory (a closed connection wakes a thread waiting on CLOSED).
 */
async function defaultReceiver(): Promise<{ url: string; counters: Int32Array }> {
  const counters = new Int32Array(new SharedArrayBuffer(3 * 4));
  const worker = new Worker(
    `
    const { createServer } = require('node:http');
    const { parentPort, workerData: counters } = require('node:worker_threads');
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const n = Atomics.add(counters, ${REQUESTS}, 1) + 1;
        res.writeHead(n === 1 ? 500 : 202).end(n === 1 ? 'not now' : 'accepted');
      });
    });
    server.on('connection', (socket) => {
      Atomics.add(counters, ${CONNECTIONS}, 1);
      socket.on('close', () => {
        Atomics.add(counters, ${CLOSED}, 1);
        Atomics.notify(counters, ${CLOSED});
      });
    });
    server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
    `,
    { eval: true, workerData: counters },
  );
  closers.push(() => worker.terminate().then(() => undefined));
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { url: `http://127.0.0.1:${port}/webhooks/vigil`, counters };
}

describeEachDialect('webhook connections', (ctx) => {
  async function harness(): Promise<Harness> {
    const h = await startHarness(ctx.db());
    closers.push(() => h.close());
    return h;
  }
  async function endpoint(h: Harness, token: string, url: string) {
    const created = await h.call('POST', '/v1/webhooks', { token, body: { url, events: ['verdict.changed'] } });
    expect(created.status).toBe(201);
    return created.body.data as { id: string };
  }
  async function delivery(h: Harness, token: string, hook: string) {
    const list = await h.call('GET', `/v1/webhooks/${hook}/deliveries`, { token });
    const detail = await h.call('GET', `/v1/webhooks/${hook}/deliveries/${String(list.body.data[0].id)}`, { token });
    return detail.body.data as {
      state: string;
      attempts: number;
      attempts_list: { attempt: number; attempted_at: string; response_status: number | null; error: string | null; succeeded: boolean }[];
    };
  }

  it('a retry meeting the connection a default node:http receiver just closed reaches it on a new connection: one attempt counted', async () => {
    const h = await harness();
    const receiver = await defaultReceiver();
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, receiver.url);
    let sends = 0;
    const worker = await h.worker({
      send: (request: DeliveryRequest) => {
        sends += 1;
        if (sends === 2) {
          // The sender is busy (its event loop held) until the receiver has closed the idle
          // connection: the pooled connection is handed to the retry before the sender has read the close.
          if (Atomics.wait(receiver.counters, CLOSED, 0, 20_000) === 'timed-out') throw new Error('the receiver never closed its idle connection');
        }
        return sendDelivery(request);
      },
    });
    await emit(h);
    expect(await worker.drain()).toBe(1);
    const failed = await delivery(h, acme, hook.id);
    expect(failed).toMatchObject({ state: 'pending', attempts: 1 });

    // The first retry, on the real schedule (5 s; the harness pins the jitter at its middle).
    const next = await h.db.selectFrom('webhook_deliveries').select('next_attempt_at').executeTakeFirstOrThrow();
    expect(Number(next.next_attempt_at) - h.clock.t).toBe(5_000);
    h.clock.t = Number(next.next_attempt_at);
    expect(await worker.drain()).toBe(1);

    const done = await delivery(h, acme, hook.id);
    expect(done).toMatchObject({ state: 'succeeded', attempts: 2 });
    expect(done.attempts_list.map((a) => [a.attempt, a.response_status, a.error, a.succeeded])).toEqual([
      [1, 500, null, false],
      [2, 202, null, true],
    ]);
    // The retry reached the receiver, on a second connection: the closed one carried nothing it saw.
    expect(Atomics.load(receiver.counters, REQUESTS)).toBe(2);
    expect(Atomics.load(receiver.counters, CONNECTIONS)).toBe(2);
  });

  it('a delivery meeting a pooled connection closed without an answer is sent again at once, same request, and counted once', async () => {
    const h = await harness();
    const server = await startRawHttpServer((r) => (r.onConnection === 1 ? 'answer' : 'close'));
    closers.push(() => server.close());
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, server.url);
    const worker = await h.worker();
    await emit(h);
    expect(await worker.drain()).toBe(1);
    await emit(h);
    expect(await worker.drain()).toBe(1);

    const list = await h.call('GET', `/v1/webhooks/${hook.id}/deliveries`, { token: acme });
    expect(list.body.data.map((d: { state: string; attempts: number }) => [d.state, d.attempts])).toEqual([
      ['succeeded', 1],
      ['succeeded', 1],
    ]);
    const latest = await delivery(h, acme, hook.id);
    expect(latest.attempts_list.map((a) => [a.response_status, a.error, a.succeeded])).toEqual([[200, null, true]]);
    // The second delivery went out twice on the wire: on the pooled connection (closed unanswered), then on a new one.
    expect(server.requests.map((r) => [r.connection, r.onConnection])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
    ]);
    const [, stale, fresh] = server.requests;
    for (const header of ['x-vigil-delivery', 'x-vigil-timestamp', 'x-vigil-signature']) expect(rawHeader(fresh!, header)).toBe(rawHeader(stale!, header));
    expect(fresh!.body.equals(stale!.body)).toBe(true);
  });
});
