import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventPage, Vigil, VigilConflictError, VigilNotFoundError } from '../src/index.js';
import type { FeedEvent } from '../src/index.js';
import { serverBuilt, startVigilServer, type VigilServer } from './support/vigil-server.js';

// vigil.webhooks and vigil.events against a real server that delivers to a receiver on this machine
// (the development settings VIGIL_WEBHOOK_ALLOW_HTTP and VIGIL_WEBHOOK_ALLOW_PRIVATE).

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let server: VigilServer;
let vigil: Vigil;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  server = await startVigilServer({ env: { VIGIL_WEBHOOK_ALLOW_HTTP: 'true', VIGIL_WEBHOOK_ALLOW_PRIVATE: 'true', VIGIL_WEBHOOK_POLL_MS: '50' } });
  const made = await server.command(['keys', 'create', '--org', 'acme', '--plan', 'paid', '--scopes', 'webhooks,admin']);
  vigil = new Vigil({ baseUrl: server.baseUrl, apiKey: made.split('\n').find((line) => line.startsWith('vgl_'))!.trim() });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(202).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}, 660_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function eventually<T>(read: () => Promise<T | undefined>, tries = 300): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('not there after 30 s');
}

describe.skipIf(!serverBuilt)('vigil.webhooks and vigil.events against a real server', () => {
  it('create, get, list, update, test (delivered and signed), deliveries, redeliver, recover, rotate, revoke, delete', async () => {
    const created = await vigil.webhooks.create({ url: receiverUrl, events: ['round.closed'] });
    expect(created.id).toMatch(/^wh_[0-9a-f]{24}$/);
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.created_at).toBeInstanceOf(Date);
    const got = await vigil.webhooks.get(created.id);
    expect(got).not.toHaveProperty('secret');
    expect(got.events).toEqual(['round.closed']);
    expect((await vigil.webhooks.list()).items.map((w) => w.id)).toContain(created.id);

    const paused = await vigil.webhooks.update(created.id, { active: false, events: ['round.closed', 'verdict.changed'] });
    expect(paused.active).toBe(false);
    expect(paused.events).toEqual(['round.closed', 'verdict.changed']);
    const refused = await vigil.webhooks.test(created.id).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(VigilConflictError);
    expect((refused as VigilConflictError).detail).toBe('webhook is paused or disabled');
    await vigil.webhooks.update(created.id, { active: true });

    const test = await vigil.webhooks.test(created.id);
    expect(test.event_type).toBe('webhook.test');
    expect(test.webhook).toBe(created.id);
    const delivered = await eventually(async () => received.find((r) => r.headers['x-vigil-delivery'] === test.id));
    expect(delivered.headers['x-vigil-event']).toBe('webhook.test');
    // Signed with the secret the create answer showed (docs/webhooks.md, "Delivery").
    const timestamp = String(delivered.headers['x-vigil-timestamp']);
    const mac = createHmac('sha256', created.secret).update(`${timestamp}.${delivered.body}`).digest('hex');
    expect(delivered.headers['x-vigil-signature']).toBe(`sha256=${mac}`);
    expect(JSON.parse(delivered.body)).toMatchObject({ type: 'webhook.test', data: { webhook: created.id } });

    const succeeded = await eventually(async () => {
      const page = await vigil.webhooks.deliveries.list(created.id, { state: 'succeeded' });
      return page.items.find((d) => d.id === test.id);
    });
    expect(succeeded.attempts).toBe(1);
    const detail = await vigil.webhooks.deliveries.get(created.id, test.id);
    expect(detail.attempts_list).toHaveLength(1);
    expect(detail.attempts_list[0]).toMatchObject({ attempt: 1, response_status: 202, response_excerpt: 'ok', succeeded: true, error: null });
    expect(detail.attempts_list[0]!.attempted_at).toBeInstanceOf(Date);

    const again = await vigil.webhooks.redeliver(created.id, test.id);
    expect(again.id).toBe(test.id);
    await eventually(async () => (received.filter((r) => r.headers['x-vigil-delivery'] === test.id).length === 2 ? true : undefined));
    // Nothing failed: nothing to recover.
    expect(await vigil.webhooks.recover(created.id, { since: new Date(Date.now() - 3600_000) })).toEqual({ requeued: 0 });

    const rotated = await vigil.webhooks.rotateSecret(created.id, { overlap_seconds: 600 });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.secret_rotation?.previous_secret_expires_at).toBeInstanceOf(Date);
    expect((await vigil.webhooks.revokePreviousSecret(created.id)).secret_rotation).toBeNull();

    await vigil.webhooks.delete(created.id);
    const gone = await vigil.webhooks.get(created.id).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(gone).toBeInstanceOf(VigilNotFoundError);
    expect((gone as VigilNotFoundError).detail).toBe('webhook not found');
  });

  it('events: a round the test closes is in the feed, filtered by type, read page by page along next_cursor', async () => {
    // The feed lists events once a worker handed them out: wait until the demo's thousands are.
    await eventually(async () => ((await vigil.admin.outbox.get()).undelivered === 0 ? true : undefined), 4800);
    const start = await vigil.events.list({ types: ['round.closed'], limit: 100 });
    expect(start).toBeInstanceOf(EventPage);
    let cursor = start.nextCursor;
    for (let page: EventPage | null = start; page !== null; page = (await page.getNextPage()) as EventPage | null) cursor = page.nextCursor;

    const schedule = await vigil.admin.rounds.schedule();
    const evaluating = schedule.tracks.find((t) => t.current?.phase === 'evaluation')?.current;
    expect(evaluating).toBeDefined();
    await vigil.admin.rounds.close(evaluating!.round_id, { force: true });

    const fresh = await eventually(async () => {
      const page = await vigil.events.list({ after: cursor, types: ['round.closed'] });
      return page.items.length > 0 ? page : undefined;
    });
    expect(fresh.items).toHaveLength(1);
    const event = fresh.items[0]!;
    expect(event).toMatchObject({ type: 'round.closed', resource: `round:${evaluating!.round_id}`, version: 1 });
    expect(event.created_at).toBeInstanceOf(Date);
    if (event.type === 'round.closed') expect(event.data.round_id).toBe(evaluating!.round_id);
    // Caught up: the next read from its cursor is empty, with a cursor to poll with.
    const after = await vigil.events.list({ after: fresh.nextCursor });
    expect(after.items).toEqual([]);
    expect(after.nextPage).toBeNull();
    expect(after.nextCursor).toMatch(/^evc_/);

    // Iteration follows the cursor across pages (one event a page) to the newest, in order: the
    // close's round.closed and the verdict.changed events it caused, every kind this time.
    const iterated: FeedEvent[] = [];
    for await (const item of vigil.events.list({ after: cursor, limit: 1 })) iterated.push(item);
    const all = (await vigil.events.list({ after: cursor, limit: 100 })).items;
    expect(iterated.length).toBeGreaterThanOrEqual(1);
    expect(iterated.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(all.map((e) => e.id)).toContain(event.id);
  }, 600_000);
});
