import { afterEach, describe, expect, it } from 'vitest';
import {
  createWebhookDeduplicator,
  UnknownWebhookEvent,
  type VerifiedDelivery,
  type VerifiedWebhookEvent,
  type WebhookDeliveryContext,
  type WebhookReceiverOptions,
  type WebhookVerificationError,
} from './index.js';
import { roundClosed, SECRET, signedDelivery, verdictChanged, type SignedDelivery } from './test-support/deliveries.js';
import { startFastifyReceiver, startFetchReceiver, startNodeReceiver, type RunningReceiver } from './test-support/receiver-servers.js';

const HELPERS = [
  ['createNodeWebhookHandler (node:http)', startNodeReceiver],
  ['vigilWebhookPlugin (fastify)', startFastifyReceiver],
  ['webhookFetchHandler (Request/Response behind node:http)', startFetchReceiver],
] as const;

interface Recorder {
  events: Array<{ event: VerifiedWebhookEvent; context: WebhookDeliveryContext }>;
  errors: Array<{ error: unknown; delivery: VerifiedDelivery | undefined }>;
  rejected: WebhookVerificationError[];
  /** Resolves with the next handler call's event. */
  nextEvent(): Promise<VerifiedWebhookEvent>;
  /** Resolves with the next onError call. */
  nextError(): Promise<unknown>;
}

function recorder(): Recorder {
  const waitingEvents: Array<(e: VerifiedWebhookEvent) => void> = [];
  const waitingErrors: Array<(e: unknown) => void> = [];
  const r: Recorder = {
    events: [],
    errors: [],
    rejected: [],
    nextEvent: () => new Promise((resolve) => waitingEvents.push(resolve)),
    nextError: () => new Promise((resolve) => waitingErrors.push(resolve)),
  };
  return Object.assign(r, {
    record(event: VerifiedWebhookEvent, context: WebhookDeliveryContext) {
      r.events.push({ event, context });
      waitingEvents.shift()?.(event);
    },
    recordError(error: unknown, delivery: VerifiedDelivery | undefined) {
      r.errors.push({ error, delivery });
      waitingErrors.shift()?.(error);
    },
  });
}

async function post(url: string, d: SignedDelivery, init: { method?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(url, { method: init.method ?? 'POST', headers: { ...d.headers, ...init.headers }, body: d.body });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

describe.each(HELPERS)('%s', (_name, start) => {
  let running: RunningReceiver | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function receiver(extra: Partial<WebhookReceiverOptions> = {}) {
    const rec = recorder() as Recorder & { record: WebhookReceiverOptions['handler']; recordError: NonNullable<WebhookReceiverOptions['onError']> };
    running = await start({
      secrets: SECRET,
      handler: rec.record,
      onError: rec.recordError,
      onRejected: (error) => void rec.rejected.push(error),
      ...extra,
    });
    return { rec, url: running.url };
  }

  it('answers 202 and hands the typed event and its delivery id to the handler', async () => {
    const { rec, url } = await receiver();
    const event = verdictChanged();
    const d = signedDelivery(event);
    const handled = rec.nextEvent();
    const answer = await post(url, d);
    expect([answer.status, answer.text, answer.headers.get('content-type')]).toEqual([202, 'accepted', 'text/plain; charset=utf-8']);
    expect(await handled).toEqual(event);
    expect(rec.events[0]!.context).toEqual({ deliveryId: d.deliveryId, timestamp: d.timestamp });
  });

  it('runs the handler after the response by default: a handler still waiting does not hold the 202', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const { url } = await receiver({
      handler: async () => {
        order.push('handler started');
        await gate;
        order.push('handler finished');
      },
    });
    const answer = await post(url, signedDelivery(roundClosed()));
    order.push(`response ${answer.status}`);
    release();
    await expect.poll(() => order.length).toBe(3);
    expect(order.indexOf('response 202')).toBeLessThan(order.indexOf('handler finished'));
  });

  it("with runHandler 'before-response', answers only once the handler finished", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const { url } = await receiver({
      runHandler: 'before-response',
      handler: async () => {
        order.push('handler started');
        await gate;
        order.push('handler finished');
      },
    });
    const answered = post(url, signedDelivery(roundClosed())).then((a) => order.push(`response ${a.status}`));
    await expect.poll(() => order).toEqual(['handler started']);
    release();
    await answered;
    expect(order).toEqual(['handler started', 'handler finished', 'response 202']);
  });

  it('reports a failing handler to onError and keeps serving', async () => {
    const { rec, url } = await receiver({
      handler: (event) => {
        if (event.type === 'round.closed') throw new Error('database down');
      },
    });
    const d = signedDelivery(roundClosed());
    const failed = rec.nextError();
    expect((await post(url, d)).status).toBe(202);
    expect(await failed).toEqual(new Error('database down'));
    expect(rec.errors[0]!.delivery).toMatchObject({ deliveryId: d.deliveryId });
    expect((await post(url, signedDelivery(verdictChanged()))).status).toBe(202);
  });

  it("with runHandler 'before-response', a failing handler gets 500 and its retry is handled again despite dedupe", async () => {
    let calls = 0;
    const { rec, url } = await receiver({
      runHandler: 'before-response',
      dedupe: createWebhookDeduplicator(),
      handler: async () => {
        calls += 1;
        if (calls === 1) throw new Error('first try fails');
      },
    });
    const d = signedDelivery(roundClosed());
    expect(await post(url, d)).toMatchObject({ status: 500, text: 'handler failed' });
    expect(rec.errors.map((e) => e.error)).toEqual([new Error('first try fails')]);
    expect(await post(url, d)).toMatchObject({ status: 202, text: 'accepted' });
    expect(await post(url, d)).toMatchObject({ status: 202, text: 'duplicate' });
    expect(calls).toBe(2);
  });

  it('with dedupe, answers a redelivery 202 "duplicate" without calling the handler again', async () => {
    const { rec, url } = await receiver({ dedupe: createWebhookDeduplicator() });
    const event = verdictChanged();
    const first = signedDelivery(event);
    const handled = rec.nextEvent();
    expect((await post(url, first)).text).toBe('accepted');
    await handled;
    expect(await post(url, first)).toMatchObject({ status: 202, text: 'duplicate' });
    // A new delivery (a resend) of the same event is a duplicate too: the default key is the event id.
    expect((await post(url, signedDelivery(event))).text).toBe('duplicate');
    expect(rec.events).toHaveLength(1);
  });

  it('answers 500 when the dedupe store fails, so Vigil retries', async () => {
    const { rec, url } = await receiver({
      dedupe: createWebhookDeduplicator({ store: { claim: () => Promise.reject(new Error('redis unreachable')) } }),
    });
    expect(await post(url, signedDelivery(roundClosed()))).toMatchObject({ status: 500, text: 'dedupe store unavailable' });
    expect(rec.errors.map((e) => e.error)).toEqual([new Error('redis unreachable')]);
    expect(rec.events).toHaveLength(0);
  });

  it('refuses what is not proven to come from Vigil with 401 and a short reason', async () => {
    const { rec, url } = await receiver();
    const d = signedDelivery(verdictChanged());
    expect(await post(url, { ...d, body: d.body.replace('BLOCK', 'ALLOW') })).toMatchObject({ status: 401, text: 'signature mismatch' });
    expect(await post(url, signedDelivery(verdictChanged(), { secret: 'whsec_wrong_secret_000000000000000000000000' }))).toMatchObject({ status: 401, text: 'signature mismatch' });
    expect(await post(url, d, { headers: { 'x-vigil-signature': '' } })).toMatchObject({ status: 401, text: 'missing X-Vigil-Signature header' });
    expect(await post(url, signedDelivery(verdictChanged(), { timestamp: Math.floor(Date.now() / 1000) - 3600 }))).toMatchObject({
      status: 401,
      text: 'X-Vigil-Timestamp is more than 300 s old',
    });
    expect(rec.rejected.map((e) => e.code)).toEqual(['signature_mismatch', 'signature_mismatch', 'missing_header', 'timestamp_too_old']);
    expect(rec.events).toHaveLength(0);
  });

  it('refuses a signed request that is not an acceptable event with 400', async () => {
    const { rec, url } = await receiver();
    expect(await post(url, signedDelivery({ type: 'x' }, { body: 'not json' }))).toMatchObject({ status: 400, text: 'body is not JSON' });
    expect(await post(url, signedDelivery(verdictChanged(), { eventHeader: 'round.closed' }))).toMatchObject({
      status: 400,
      text: "X-Vigil-Event does not match the body's type",
    });
    expect(rec.events).toHaveLength(0);
  });

  it('accepts an event type it does not know and hands it over as an UnknownWebhookEvent', async () => {
    const { rec, url } = await receiver();
    const handled = rec.nextEvent();
    expect((await post(url, signedDelivery({ id: 'e-1', type: 'future.kind', version: 1, resource: 'x:1', sequence: 1, data: {} }))).status).toBe(202);
    const event = await handled;
    expect(event).toBeInstanceOf(UnknownWebhookEvent);
    expect(event.type).toBe('future.kind');
  });

  it('answers 405 with Allow: POST to other methods', async () => {
    const { url } = await receiver();
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await fetch(url, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
      expect([response.status, await response.text(), response.headers.get('allow')]).toEqual([405, 'method not allowed', 'POST']);
    }
  });

  it('answers 413 to a body over maxBodyBytes, declared or streamed', async () => {
    const { rec, url } = await receiver({ maxBodyBytes: 1024 });
    const big = signedDelivery({ type: 'x' }, { body: JSON.stringify({ type: 'x', pad: 'p'.repeat(4096) }) });
    expect(await post(url, big)).toMatchObject({ status: 413, text: 'body too large' });
    // No Content-Length: the limit is enforced while reading.
    const chunks = [new TextEncoder().encode(big.body.slice(0, 800)), new TextEncoder().encode(big.body.slice(800))];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(url, { method: 'POST', headers: big.headers, body: stream, duplex: 'half' } as RequestInit);
    expect([response.status, await response.text()]).toEqual([413, 'body too large']);
    expect(rec.events).toHaveLength(0);
  });
});

describe('checks the options when the helper is made', () => {
  it.each(HELPERS)('%s', async (_name, start) => {
    await expect(start({ secrets: [], handler: () => {} })).rejects.toThrow(/^secrets:/);
    await expect(start({ secrets: SECRET, handler: () => {}, maxBodyBytes: 0 })).rejects.toThrow(/^maxBodyBytes:/);
    await expect(start({ secrets: SECRET, handler: () => {}, runHandler: 'later' as never })).rejects.toThrow(/^runHandler:/);
  });
});
