import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeWebhookHandler, webhookFetchHandler, type VerifiedWebhookEvent } from './index.js';
import { roundClosed, SECRET, signedDelivery, verdictChanged } from './test-support/deliveries.js';
import { startFastifyReceiver, type RunningReceiver } from './test-support/receiver-servers.js';

let server: Server | undefined;
let receiver: RunningReceiver | undefined;
afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
  }
  await receiver?.close();
  server = undefined;
  receiver = undefined;
});

async function listen(listener: RequestListener): Promise<string> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

describe('createNodeWebhookHandler behind Express-style body parsers', () => {
  it('uses req.body when a raw parser (express.raw) already read the bytes', async () => {
    const events: VerifiedWebhookEvent[] = [];
    const handler = createNodeWebhookHandler({ secrets: SECRET, handler: (e) => void events.push(e), runHandler: 'before-response' });
    const url = await listen((req, res) => {
      void readAll(req).then((body) => {
        (req as IncomingMessage & { body?: unknown }).body = body;
        handler(req, res);
      });
    });
    const d = signedDelivery(roundClosed());
    const response = await fetch(url, { method: 'POST', headers: d.headers, body: d.body });
    expect(response.status).toBe(202);
    expect(events.map((e) => e.type)).toEqual(['round.closed']);
  });

  it('answers 500 and tells onError when a JSON parser already consumed the raw body', async () => {
    const errors: unknown[] = [];
    const handler = createNodeWebhookHandler({ secrets: SECRET, handler: () => {}, onError: (error) => void errors.push(error) });
    const url = await listen((req, res) => {
      void readAll(req).then((body) => {
        (req as IncomingMessage & { body?: unknown }).body = JSON.parse(body.toString('utf8'));
        handler(req, res);
      });
    });
    const d = signedDelivery(roundClosed());
    const response = await fetch(url, { method: 'POST', headers: d.headers, body: d.body });
    expect([response.status, await response.text()]).toEqual([500, 'internal error']);
    expect(String(errors[0])).toMatch(/req\.body was already parsed: mount the webhook route before any JSON body parser/);
  });
});

describe('vigilWebhookPlugin', () => {
  it("keeps the raw bytes only inside its own context: the app's JSON routes still parse JSON", async () => {
    receiver = await startFastifyReceiver({ secrets: SECRET, handler: () => {} });
    const echo = await fetch(receiver.url.replace('/hooks/vigil', '/echo'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await echo.json()).toEqual({ parsed: { a: 1 } });
  });

  it('verifies a delivery whatever its Content-Type, and answers HEAD 405', async () => {
    const events: VerifiedWebhookEvent[] = [];
    receiver = await startFastifyReceiver({ secrets: SECRET, handler: (e) => void events.push(e), runHandler: 'before-response' });
    const d = signedDelivery(verdictChanged());
    for (const contentType of ['text/plain', 'application/octet-stream', 'application/json; charset=utf-8']) {
      const response = await fetch(receiver.url, { method: 'POST', headers: { ...d.headers, 'content-type': contentType }, body: d.body });
      expect(response.status).toBe(202);
    }
    expect(events).toHaveLength(3);
    const head = await fetch(receiver.url, { method: 'HEAD' });
    expect([head.status, head.headers.get('allow')]).toEqual([405, 'POST']);
    const empty = await fetch(receiver.url, { method: 'POST' });
    expect([empty.status, await empty.text()]).toEqual([401, 'missing X-Vigil-Signature header']);
  });
});

describe('webhookFetchHandler with Request objects', () => {
  it('hands the after-response handler run to the waitUntil of the per-request context', async () => {
    const handled: string[] = [];
    const handle = webhookFetchHandler({ secrets: SECRET, handler: (e) => void handled.push(e.type) });
    const kept: Promise<unknown>[] = [];
    const d = signedDelivery(roundClosed());
    const response = await handle(new Request('https://receiver.example/vigil', { method: 'POST', headers: d.headers, body: d.body }), {
      waitUntil: (promise: Promise<unknown>) => void kept.push(promise),
    });
    expect([response.status, await response.text()]).toEqual([202, 'accepted']);
    expect(kept).toHaveLength(1);
    await kept[0];
    expect(handled).toEqual(['round.closed']);
  });

  it("falls back to the options' waitUntil (Vercel), and keeps nothing alive for a refusal", async () => {
    const kept: Promise<unknown>[] = [];
    const handle = webhookFetchHandler({ secrets: SECRET, handler: () => {}, waitUntil: (promise) => void kept.push(promise) });
    const d = signedDelivery(roundClosed());
    // Next.js passes `{ params }` as the second argument: no waitUntil there, so the options' one is used.
    const nextContext = { params: Promise.resolve({}) };
    expect((await handle(new Request('https://r.example/', { method: 'POST', headers: d.headers, body: d.body }), nextContext)).status).toBe(202);
    expect((await handle(new Request('https://r.example/', { method: 'POST', headers: d.headers, body: d.body + ' ' }))).status).toBe(401);
    expect(kept).toHaveLength(1);
  });

  it('reads a body-less POST as empty', async () => {
    const handle = webhookFetchHandler({ secrets: SECRET, handler: () => {} });
    const d = signedDelivery(roundClosed(), { body: '' });
    const response = await handle(new Request('https://r.example/', { method: 'POST', headers: d.headers }));
    expect([response.status, await response.text()]).toEqual([400, 'body is not JSON']);
  });
});
