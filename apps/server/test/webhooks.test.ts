import { createHmac } from 'node:crypto';
import { WebhookEvent } from '@vigil/core';
import { verifyWebhookSignature } from '@vigil/webhooks';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { APPLICATION_TABLES } from '../src/platform/db/schema.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from '../src/test-support/webhook-receiver.js';
import { WEBHOOK_RETRY_SCHEDULE_SECONDS } from '@vigil/webhooks';
import { createSecretBox } from '../src/platform/secrets/secret-box.js';
import { loadServerIdentity } from '../src/platform/secrets/server-identity.js';
import { encodeEventCursor } from '../src/features/webhooks/events-feed.js';
import { emit, repositoryPayload, roundClosedPayload, startHarness, verdictPayload, type Harness } from './webhooks-support.js';

const DAY = 24 * 3600 * 1000;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const hmac = (secret: string, timestamp: string, raw: Buffer) =>
  `sha256=${createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${timestamp}.`), raw])).digest('hex')}`;

/** Checks a received request against `secret` both ways: the library's verifier and a plain node:crypto HMAC. */
function signedWith(request: ReceivedRequest, secret: string): boolean {
  const timestamp = String(request.headers['x-vigil-timestamp']);
  const signature = String(request.headers['x-vigil-signature']);
  const library = verifyWebhookSignature({ secrets: secret, timestamp, signature, rawBody: request.raw, nowSeconds: Number(timestamp) }).ok;
  const independent = hmac(secret, timestamp, request.raw) === signature;
  expect(library).toBe(independent);
  return independent;
}

describeEachDialect('webhooks', (ctx) => {
  async function harness(env: Record<string, string> = {}, options: Parameters<typeof startHarness>[2] = {}): Promise<Harness> {
    const h = await startHarness(ctx.db(), env, options);
    closers.push(() => h.close());
    return h;
  }
  async function receiver(): Promise<WebhookReceiver> {
    const r = await startWebhookReceiver();
    closers.push(() => r.close());
    return r;
  }
  async function endpoint(h: Harness, token: string, url: string, events: string[] = ['verdict.changed']) {
    const created = await h.call('POST', '/v1/webhooks', { token, body: { url, events } });
    expect(created.status).toBe(201);
    return created.body.data as { id: string; secret: string };
  }
  /** Runs the worker until nothing is due, then moves the clock past the next retry and runs it again, `rounds` times. */
  async function driveRetries(h: Harness, worker: { drain(): Promise<number> }, rounds: number): Promise<void> {
    for (let i = 0; i < rounds; i++) {
      await worker.drain();
      const next = await h.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.min('next_attempt_at').as('t')).where('state', '=', 'pending').executeTakeFirst();
      if (next?.t === null || next?.t === undefined) return;
      h.clock.t = Math.max(h.clock.t, Number(next.t));
    }
  }

  it('manages endpoints: create shows the secret once, list, get, update (PATCH and POST), delete; another account sees 404', async () => {
    const h = await harness();
    const acme = await h.key('acme');
    const other = await h.key('globex');
    const created = await h.call('POST', '/v1/webhooks', { token: acme, body: { url: 'https://hooks.example/vigil', events: ['verdict.changed', 'round.closed'] } });
    expect(created.status).toBe(201);
    const { secret, ...record } = created.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{32,}$/);
    expect(record).toMatchObject({ url: 'https://hooks.example/vigil', events: ['verdict.changed', 'round.closed'], active: true, disabled_reason: null, disabled_at: null, secret_rotation: null });
    expect(record.id).toMatch(/^wh_[A-Za-z0-9]+$/);

    const got = await h.call('GET', `/v1/webhooks/${record.id}`, { token: acme });
    expect(got.body).toEqual({ data: record });
    expect(JSON.stringify(got.body)).not.toContain(secret);
    const list = await h.call('GET', '/v1/webhooks', { token: acme });
    expect(list.body).toEqual({ data: [record] });
    expect(list.headers['x-vigil-page']).toBe('1');

    const patched = await h.call('PATCH', `/v1/webhooks/${record.id}`, { token: acme, body: { events: ['attestation.created'], active: false } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ events: ['attestation.created'], active: false, disabled_reason: null });
    const posted = await h.call('POST', `/v1/webhooks/${record.id}`, { token: acme, body: { url: 'https://hooks.example/v2', active: true } });
    expect(posted.body.data).toMatchObject({ url: 'https://hooks.example/v2', active: true });
    expect((await h.call('PATCH', `/v1/webhooks/${record.id}`, { token: acme, body: {} })).status).toBe(422);

    for (const [method, path] of [
      ['GET', `/v1/webhooks/${record.id}`],
      ['PATCH', `/v1/webhooks/${record.id}`],
      ['DELETE', `/v1/webhooks/${record.id}`],
      ['GET', `/v1/webhooks/${record.id}/deliveries`],
      ['POST', `/v1/webhooks/${record.id}/test`],
      ['GET', '/v1/webhooks/not-an-id'],
    ] as const) {
      const answer = await h.call(method, path, { token: other, ...(method === 'PATCH' ? { body: { active: false } } : {}) });
      expect([path, answer.status, answer.body]).toEqual([path, 404, { detail: 'webhook not found', code: 'webhook_not_found' }]);
    }
    expect((await h.call('GET', '/v1/webhooks', { token: other })).body).toEqual({ data: [] });
    const readOnly = await h.key('initech', 'read');
    expect((await h.call('GET', '/v1/webhooks', { token: readOnly })).body).toEqual({ detail: "api key lacks 'webhooks' scope", code: 'scope_missing' });

    expect((await h.call('DELETE', `/v1/webhooks/${record.id}`, { token: acme })).status).toBe(204);
    expect((await h.call('GET', `/v1/webhooks/${record.id}`, { token: acme })).status).toBe(404);
  });

  it('an account has at most VIGIL_WEBHOOK_MAX_ENDPOINTS endpoints (paused ones count): one more is 409 until one is deleted; creations at once cannot pass it', async () => {
    const h = await harness({ VIGIL_WEBHOOK_MAX_ENDPOINTS: '3' });
    const acme = await h.key('acme');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await endpoint(h, acme, `https://hooks.example/acme/${i}`)).id);
    expect((await h.call('PATCH', `/v1/webhooks/${ids[0]}`, { token: acme, body: { active: false } })).status).toBe(200);
    const refused = await h.call('POST', '/v1/webhooks', { token: acme, body: { url: 'https://hooks.example/acme/3', events: ['verdict.changed'] } });
    expect([refused.status, refused.body]).toEqual([409, { detail: 'webhook endpoint limit reached: delete an endpoint to add another', code: 'webhook_limit_reached' }]);
    expect((await h.call('GET', '/v1/webhooks', { token: acme })).body.data).toHaveLength(3);

    // Another account's endpoints are its own count; six creations sent at once make exactly three.
    const globex = await h.key('globex');
    const together = await Promise.all(
      Array.from({ length: 6 }, (_, i) => h.call('POST', '/v1/webhooks', { token: globex, body: { url: `https://hooks.example/globex/${i}`, events: ['verdict.changed'] } })),
    );
    expect(together.map((a) => a.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    expect((await h.call('GET', '/v1/webhooks', { token: globex })).body.data).toHaveLength(3);

    expect((await h.call('DELETE', `/v1/webhooks/${ids[1]}`, { token: acme })).status).toBe(204);
    expect((await h.call('POST', '/v1/webhooks', { token: acme, body: { url: 'https://hooks.example/acme/3', events: ['verdict.changed'] } })).status).toBe(201);
  });

  it('refuses http:// without the development setting, and non-public hosts at creation and update', async () => {
    const resolver = async (host: string) => (host === 'rebind.example' ? [{ address: '10.1.2.3', family: 4 }, { address: '93.184.216.34', family: 4 }] : [{ address: '93.184.216.34', family: 4 }]);
    const h = await harness({ VIGIL_WEBHOOK_ALLOW_HTTP: 'false', VIGIL_WEBHOOK_ALLOW_PRIVATE: 'false' }, { resolver });
    const acme = await h.key('acme');
    const refused = async (url: string) => {
      const answer = await h.call('POST', '/v1/webhooks', { token: acme, body: { url, events: ['verdict.changed'] } });
      expect([url, answer.status]).toEqual([url, 422]);
      return answer.body.detail as string;
    };
    expect(await refused('http://hooks.example/x')).toBe('url: must be an https:// URL');
    expect(await refused('https://127.0.0.1/x')).toBe('url: 127.0.0.1 is a loopback address, which webhooks may not reach');
    expect(await refused('https://10.0.0.8/x')).toContain('private');
    expect(await refused('https://169.254.169.254/latest/meta-data')).toBe('url: 169.254.169.254 is a link-local address, which webhooks may not reach');
    expect(await refused('https://100.64.1.1/x')).toBe('url: 100.64.1.1 is a CGNAT address, which webhooks may not reach');
    // IPv6 literals never pass the URL schema (a host name or an IPv4 address): 422 before any check.
    expect(await refused('https://[::1]/x')).toBe('Validation error');
    expect(await refused('https://0.0.0.0/x')).toBe('url: 0.0.0.0 is an unspecified address, which webhooks may not reach');
    expect(await refused('https://localhost/x')).toBe('url: localhost is a reserved local or metadata host name');
    expect(await refused('https://metadata.google.internal/computeMetadata')).toContain('metadata');
    expect(await refused('https://rebind.example/x')).toBe('url: rebind.example resolves to 10.1.2.3, a private address, which webhooks may not reach');
    expect(await refused('https://user:pw@hooks.example/x')).toContain('credentials');
    const ok = await h.call('POST', '/v1/webhooks', { token: acme, body: { url: 'https://hooks.example/x', events: ['verdict.changed'] } });
    expect(ok.status).toBe(201);
    const moved = await h.call('PATCH', `/v1/webhooks/${ok.body.data.id}`, { token: acme, body: { url: 'https://10.9.9.9/x' } });
    expect(moved.status).toBe(422);
  });

  it('stores the URL as the WHATWG URL parser normalises it, refuses credentials, a fragment and port 0, and checks the normalised host', async () => {
    const resolver = async (host: string) => (host === 'inner.example' ? [{ address: '10.0.0.9', family: 4 }] : [{ address: '93.184.216.34', family: 4 }]);
    const h = await harness({ VIGIL_WEBHOOK_ALLOW_HTTP: 'false', VIGIL_WEBHOOK_ALLOW_PRIVATE: 'false' }, { resolver });
    const acme = await h.key('acme');
    const create = (url: string) => h.call('POST', '/v1/webhooks', { token: acme, body: { url, events: ['verdict.changed'] } });
    const refused = async (url: string) => {
      const answer = await create(url);
      expect([url, answer.status]).toEqual([url, 422]);
      return answer.body.detail as string;
    };
    // What another parser reads as credentials before 127.0.0.1 is, for WHATWG (and for the sender), a
    // path on 93.184.216.34: stored so, so no reader of the record can take it the other way.
    const backslash = await create('https://93.184.216.34\\@127.0.0.1/');
    expect(backslash.status).toBe(201);
    expect(backslash.body.data.url).toBe('https://93.184.216.34/@127.0.0.1/');
    expect((await h.call('GET', `/v1/webhooks/${backslash.body.data.id}`, { token: acme })).body.data.url).toBe('https://93.184.216.34/@127.0.0.1/');
    // Case, default port, dot segments, a bare host and spaces are written the one way.
    const spelled = await create('HTTPS://Hooks.EXAMPLE:443/a/../in box?x=1');
    expect(spelled.body.data.url).toBe('https://hooks.example/in%20box?x=1');
    expect((await create('https://hooks.example')).body.data.url).toBe('https://hooks.example/');

    expect(await refused('https://hooks.example#@127.0.0.1/')).toBe('url: must not carry a fragment (#…)');
    expect(await refused('https://hooks.example/x#')).toBe('url: must not carry a fragment (#…)');
    expect(await refused('https://hooks.example:0/x')).toBe('url: must not use port 0');
    expect(await refused('https://user@hooks.example/x')).toBe('url: must not carry credentials (user:password@)');
    expect(await refused('https://:pw@hooks.example/x')).toBe('url: must not carry credentials (user:password@)');
    expect(await refused('https://hooks.example:000/x')).toBe('url: must not use port 0');
    expect(await refused('https://hooks.example:65536/x')).toBe('Validation error');
    // The host checked is the normalised one: 0x7f.1 is 127.0.0.1, a name's case is folded.
    expect(await refused('https://0x7f.1/x')).toBe('url: 127.0.0.1 is a loopback address, which webhooks may not reach');
    expect(await refused('https://LOCALHOST./x')).toContain('reserved local or metadata host name');
    expect(await refused('https://Inner.Example/x')).toBe('url: inner.example resolves to 10.0.0.9, a private address, which webhooks may not reach');

    // An update follows the same rules and stores the normalised form.
    const id = backslash.body.data.id as string;
    expect((await h.call('PATCH', `/v1/webhooks/${id}`, { token: acme, body: { url: 'https://hooks.example:0/' } })).body.detail).toBe('url: must not use port 0');
    expect((await h.call('PATCH', `/v1/webhooks/${id}`, { token: acme, body: { url: 'https://hooks.example/#frag' } })).body.detail).toBe('url: must not carry a fragment (#…)');
    const moved = await h.call('PATCH', `/v1/webhooks/${id}`, { token: acme, body: { url: 'https://Hooks.Example:443/y' } });
    expect([moved.status, moved.body.data.url]).toEqual([200, 'https://hooks.example/y']);
    const stored = await ctx.db().selectFrom('webhooks').select('url').where('webhook_id', '=', id).executeTakeFirstOrThrow();
    expect(stored.url).toBe('https://hooks.example/y');
  });

  it('retries through failures and a timeout to success: same delivery id, a fresh signed timestamp per attempt, the exact event body', async () => {
    const h = await harness();
    const r = await receiver();
    r.script = [{ status: 500, body: 'boom' }, { status: 503 }, { hang: true }];
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, r.url);
    const payload = verdictPayload();
    const eventId = await emit(h, 'verdict.changed', payload);
    const worker = await h.worker();
    await driveRetries(h, worker, 10);

    expect(r.received).toHaveLength(4);
    const ids = new Set(r.received.map((q) => q.headers['x-vigil-delivery']));
    expect(ids.size).toBe(1);
    const timestamps = r.received.map((q) => Number(q.headers['x-vigil-timestamp']));
    expect(new Set(timestamps).size).toBe(4);
    for (const q of r.received) {
      expect(q.headers['content-type']).toBe('application/json');
      expect(q.headers['user-agent']).toBe('Vigil-Webhooks/1');
      expect(q.headers['x-vigil-event']).toBe('verdict.changed');
      expect(signedWith(q, hook.secret)).toBe(true);
      expect(q.raw.equals(r.received[0]!.raw)).toBe(true);
    }
    const event = WebhookEvent.parse(JSON.parse(r.received[0]!.raw.toString('utf8')));
    expect(event).toMatchObject({ id: eventId, type: 'verdict.changed', version: 1, resource: `artifact:${payload.bundle_hash}`, sequence: 1, data: payload });
    // The waits between attempts follow the schedule (jitter pinned at its middle by the test's random).
    expect(timestamps[1]! - timestamps[0]!).toBe(WEBHOOK_RETRY_SCHEDULE_SECONDS[1]);
    expect(timestamps[2]! - timestamps[1]!).toBe(WEBHOOK_RETRY_SCHEDULE_SECONDS[2]);

    const deliveryId = String(r.received[0]!.headers['x-vigil-delivery']);
    const detail = await h.call('GET', `/v1/webhooks/${hook.id}/deliveries/${deliveryId}`, { token: acme });
    expect(detail.body.data).toMatchObject({ id: deliveryId, event_id: eventId, event_type: 'verdict.changed', state: 'succeeded', attempts: 4, next_attempt_at: null });
    const attempts = detail.body.data.attempts_list as { response_status: number | null; error: string | null; response_excerpt: string | null; succeeded: boolean }[];
    expect(attempts.map((a) => [a.response_status, a.succeeded])).toEqual([
      [500, false],
      [503, false],
      [null, false],
      [200, true],
    ]);
    expect(attempts[0]!.response_excerpt).toBe('boom');
    expect(attempts[2]!.error).toBe('timed out after 400 ms');
  });

  it('a receiver down for the whole window: 8 attempts over the schedule, then failed, every attempt listed', async () => {
    const h = await harness();
    const r = await receiver();
    r.fallback = { status: 502, body: 'x'.repeat(5000) };
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, r.url);
    await emit(h);
    const start = h.clock.t;
    await driveRetries(h, await h.worker(), 20);
    expect(r.received).toHaveLength(8);
    const failed = await h.call('GET', `/v1/webhooks/${hook.id}/deliveries?state=failed`, { token: acme });
    expect(failed.body.data).toHaveLength(1);
    expect(failed.body.data[0]).toMatchObject({ state: 'failed', attempts: 8 });
    const detail = await h.call('GET', `/v1/webhooks/${hook.id}/deliveries/${failed.body.data[0].id}`, { token: acme });
    expect(detail.body.data.attempts_list).toHaveLength(8);
    expect(detail.body.data.attempts_list[0].response_excerpt).toHaveLength(1024);
    const total = WEBHOOK_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0);
    expect(Math.round((h.clock.t - start) / 1000)).toBe(total);
    // 27.6 hours of failure is under the 5-day rule: the endpoint stays enabled.
    expect((await h.call('GET', `/v1/webhooks/${hook.id}`, { token: acme })).body.data).toMatchObject({ active: true, disabled_reason: null });
    expect((await h.call('GET', `/v1/webhooks/${hook.id}/deliveries?state=succeeded`, { token: acme })).body.data).toEqual([]);
  });

  it('410 Gone stops at once and disables the endpoint; the account is told by webhook.disabled on its other endpoint and in the feed', async () => {
    const h = await harness();
    const gone = await receiver();
    gone.fallback = { status: 410 };
    const watcher = await receiver();
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, gone.url);
    const watch = await endpoint(h, acme, watcher.url, ['webhook.disabled']);
    const other = await h.key('globex');
    const otherWatch = await receiver();
    await endpoint(h, other, otherWatch.url, ['webhook.disabled']);
    await emit(h);
    await driveRetries(h, await h.worker(), 5);
    expect(gone.received).toHaveLength(1);
    const record = (await h.call('GET', `/v1/webhooks/${hook.id}`, { token: acme })).body.data;
    expect(record).toMatchObject({ active: false, disabled_reason: 'gone' });
    expect(watcher.received).toHaveLength(1);
    expect(otherWatch.received).toHaveLength(0);
    const told = WebhookEvent.parse(JSON.parse(watcher.received[0]!.raw.toString()));
    expect(told).toMatchObject({ type: 'webhook.disabled', resource: `webhook:${hook.id}`, sequence: 1, data: { webhook: hook.id, url: gone.url, reason: 'gone' } });
    expect(signedWith(watcher.received[0]!, watch.secret)).toBe(true);
    const feed = await h.call('GET', '/v1/events?types=webhook.disabled', { token: acme });
    expect(feed.body.data).toEqual([told]);
    expect((await h.call('GET', '/v1/events?types=webhook.disabled', { token: other })).body.data).toEqual([]);

    // New events are not delivered to it while disabled; `active: true` re-enables it.
    await emit(h);
    await driveRetries(h, await h.worker(), 3);
    expect(gone.received).toHaveLength(1);
    gone.fallback = { status: 204 };
    const enabled = await h.call('PATCH', `/v1/webhooks/${hook.id}`, { token: acme, body: { active: true } });
    expect(enabled.body.data).toMatchObject({ active: true, disabled_reason: null, disabled_at: null });
    await emit(h);
    await driveRetries(h, await h.worker(), 3);
    expect(gone.received).toHaveLength(2);
  });

  it('five days of nothing but failures disables the endpoint (failing) and emits webhook.disabled', async () => {
    const h = await harness();
    const down = await receiver();
    down.fallback = { status: 500 };
    const watcher = await receiver();
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, down.url);
    await endpoint(h, acme, watcher.url, ['webhook.disabled']);
    const worker = await h.worker();
    await emit(h);
    await driveRetries(h, worker, 20);
    expect((await h.call('GET', `/v1/webhooks/${hook.id}`, { token: acme })).body.data.disabled_reason).toBeNull();
    h.clock.t += 4 * DAY;
    await emit(h);
    await worker.drain();
    expect((await h.call('GET', `/v1/webhooks/${hook.id}`, { token: acme })).body.data.disabled_reason).toBe('failing');
    await worker.drain();
    expect(watcher.received.map((q) => JSON.parse(q.raw.toString()).data)).toEqual([expect.objectContaining({ webhook: hook.id, reason: 'failing' })]);
  });

  it('a success resets the failure clock', async () => {
    const h = await harness();
    const flaky = await receiver();
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, flaky.url);
    const worker = await h.worker();
    flaky.script = [{ status: 500 }];
    await emit(h);
    await driveRetries(h, worker, 5);
    h.clock.t += 4 * DAY;
    flaky.script = [{ status: 500 }];
    await emit(h);
    await worker.drain();
    h.clock.t += 2 * DAY;
    flaky.script = [{ status: 500 }];
    await emit(h);
    await worker.drain();
    expect((await h.call('GET', `/v1/webhooks/${hook.id}`, { token: acme })).body.data.disabled_reason).toBeNull();
  });

  it('pause keeps creating deliveries without sending; resume sends every one, in event order', async () => {
    const h = await harness();
    const r = await receiver();
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, r.url);
    const worker = await h.worker({ settings: { endpointConcurrency: 1 } });
    await h.call('PATCH', `/v1/webhooks/${hook.id}`, { token: acme, body: { active: false } });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await emit(h));
    await worker.drain();
    expect(r.received).toHaveLength(0);
    expect((await h.call('GET', `/v1/webhooks/${hook.id}/deliveries?state=pending`, { token: acme })).body.data).toHaveLength(6);
    expect((await h.call('POST', `/v1/webhooks/${hook.id}/test`, { token: acme })).body).toEqual({ detail: 'webhook is paused or disabled', code: 'webhook_not_active' });
    await h.call('PATCH', `/v1/webhooks/${hook.id}`, { token: acme, body: { active: true } });
    await worker.drain();
    expect(r.received.map((q) => JSON.parse(q.raw.toString()).id)).toEqual(ids);
  });

  it('endpoints receive only subscribed kinds in their audience, and only events from after their creation', async () => {
    const h = await harness();
    const acmeHooks = await receiver();
    const globexHooks = await receiver();
    const acme = await h.key('acme');
    const globex = await h.key('globex');
    const acmeAccount = (await h.db.selectFrom('accounts').select('account_id').where('name', '=', 'acme').executeTakeFirstOrThrow()).account_id;
    await emit(h); // before any endpoint: nobody gets it
    h.clock.t += 1000;
    await endpoint(h, acme, acmeHooks.url, ['verdict.changed', 'repository.verified']);
    await endpoint(h, globex, globexHooks.url, ['repository.verified', 'round.closed']);
    h.clock.t += 1000;
    await emit(h, 'verdict.changed');
    await emit(h, 'repository.verified', repositoryPayload('repo_0123456789abcdef'), { resource: 'repository:repo_0123456789abcdef', accountId: acmeAccount });
    await emit(h, 'attestation.created', { canonical_hash: 'sha256:00' }, { resource: 'attestation:sha256:00' });
    await (await h.worker()).drain();
    // Two attempts to one endpoint may be in flight together and arrive in either order (docs: order is not strict).
    expect(acmeHooks.received.map((q) => String(q.headers['x-vigil-event'])).sort()).toEqual(['repository.verified', 'verdict.changed']);
    expect(globexHooks.received).toHaveLength(0);
  });

  it('refuses at connect a name that resolves to a non-public address (no development setting); with it, delivers', async () => {
    const h = await harness();
    const r = await receiver();
    const acme = await h.key('acme');
    const byName = await endpoint(h, acme, `http://localhost:${r.port}/hooks`);
    const byResolver = await endpoint(h, acme, `http://receiver.test:${r.port}/hooks`);
    const byLiteral = await endpoint(h, acme, r.url);
    await emit(h);
    const strict = await h.worker({ settings: { allowPrivate: false }, resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    await strict.drain();
    expect(r.received).toHaveLength(0);
    const errors = async (id: string) => {
      const list = await h.call('GET', `/v1/webhooks/${id}/deliveries`, { token: acme });
      const detail = await h.call('GET', `/v1/webhooks/${id}/deliveries/${list.body.data[0].id}`, { token: acme });
      return detail.body.data.attempts_list.map((a: { error: string }) => a.error);
    };
    expect(await errors(byName.id)).toEqual(['refused: localhost is a reserved local or metadata host name']);
    expect(await errors(byResolver.id)).toEqual(['refused: receiver.test resolves to 127.0.0.1, a loopback address, which webhooks may not reach']);
    expect(await errors(byLiteral.id)).toEqual(['refused: 127.0.0.1 is a loopback address, which webhooks may not reach']);
    await strict.stop();
    const lenient = await h.worker({ resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    await driveRetries(h, lenient, 3);
    expect(r.received).toHaveLength(3);
  });

  it('rotation: the old secret signs until the overlap ends (or is revoked early), then the new one', async () => {
    const h = await harness();
    const r = await receiver();
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, r.url);
    const worker = await h.worker();
    const rotated = await h.call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token: acme, body: { overlap_seconds: 3600 } });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(hook.secret);
    expect(rotated.body.data.secret_rotation).toEqual({ previous_secret_expires_at: new Date(h.clock.t + 3600_000).toISOString().replace('Z', '+00:00') });
    await emit(h);
    await worker.drain();
    expect(signedWith(r.received[0]!, hook.secret)).toBe(true);
    expect(signedWith(r.received[0]!, fresh)).toBe(false);
    h.clock.t += 3600_000 + 1;
    await emit(h);
    await worker.drain();
    expect(signedWith(r.received[1]!, fresh)).toBe(true);
    expect((await h.call('GET', `/v1/webhooks/${hook.id}`, { token: acme })).body.data.secret_rotation).toBeNull();

    const again = await h.call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token: acme });
    const third = again.body.data.secret as string;
    expect(again.body.data.secret_rotation).not.toBeNull(); // default overlap: 1 day
    h.clock.t += 60_000;
    const revoked = await h.call('POST', `/v1/webhooks/${hook.id}/revoke-previous-secret`, { token: acme });
    expect(revoked.body.data.secret_rotation).toBeNull();
    // Ending the overlap changes the endpoint, as rotating does; a second call has nothing to end.
    const revokedAt = new Date(h.clock.t).toISOString().replace('Z', '+00:00');
    expect(revoked.body.data.updated_at).toBe(revokedAt);
    expect((await h.call('GET', `/v1/webhooks/${hook.id}`, { token: acme })).body.data.updated_at).toBe(revokedAt);
    h.clock.t += 60_000;
    expect((await h.call('POST', `/v1/webhooks/${hook.id}/revoke-previous-secret`, { token: acme })).body.data.updated_at).toBe(revokedAt);
    await emit(h);
    await worker.drain();
    expect(signedWith(r.received[2]!, third)).toBe(true);
    const immediate = await h.call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token: acme, body: { overlap_seconds: 0 } });
    await emit(h);
    await worker.drain();
    expect(signedWith(r.received[3]!, immediate.body.data.secret)).toBe(true);
    expect((await h.call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token: acme, body: { overlap_seconds: 7 * 86400 + 1 } })).status).toBe(422);
  });

  it('keeps no signing secret in plaintext anywhere in the database (idempotent replays included)', async () => {
    const h = await harness();
    const acme = await h.key('acme');
    const created = await h.call('POST', '/v1/webhooks', { token: acme, body: { url: 'https://hooks.example/a', events: ['verdict.changed'] }, headers: { 'idempotency-key': 'create-1' } });
    const rotated = await h.call('POST', `/v1/webhooks/${created.body.data.id}/rotate-secret`, { token: acme, body: { overlap_seconds: 60 }, headers: { 'idempotency-key': 'rotate-1' } });
    const replay = await h.call('POST', '/v1/webhooks', { token: acme, body: { url: 'https://hooks.example/a', events: ['verdict.changed'] }, headers: { 'idempotency-key': 'create-1' } });
    expect(replay.body.data.secret).toBe(created.body.data.secret);
    const secrets = [created.body.data.secret as string, rotated.body.data.secret as string];
    let stored = '';
    for (const table of APPLICATION_TABLES) {
      const rows = await sql`select * from ${sql.table(table)}`.execute(h.db);
      stored += JSON.stringify(rows.rows);
    }
    expect(stored).toContain(created.body.data.id);
    for (const secret of secrets) {
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(secret.slice('whsec_'.length));
    }
  });

  it('test events, redelivery (same delivery id) and recovery of failed deliveries', async () => {
    const h = await harness();
    const r = await receiver();
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, r.url, ['round.closed']);
    const worker = await h.worker();
    // The argument-less actions refuse any field (422), accept none or `{}`.
    for (const path of [`/v1/webhooks/${hook.id}/test`, `/v1/webhooks/${hook.id}/revoke-previous-secret`, `/v1/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`]) {
      expect(await h.call('POST', path, { token: acme, body: { force: true } })).toMatchObject({ status: 422, body: { detail: 'Validation error', code: 'validation_error' } });
    }
    expect((await h.call('POST', `/v1/webhooks/${hook.id}/revoke-previous-secret`, { token: acme, body: {} })).status).toBe(200);
    expect((await h.call('POST', `/v1/webhooks/${hook.id}/revoke-previous-secret`, { token: acme })).status).toBe(200);
    const test = await h.call('POST', `/v1/webhooks/${hook.id}/test`, { token: acme });
    expect(test.status).toBe(202);
    expect(test.body.data).toMatchObject({ event_type: 'webhook.test', state: 'pending', attempts: 0 });
    await worker.drain();
    const testEvent = WebhookEvent.parse(JSON.parse(r.received[0]!.raw.toString()));
    expect(testEvent).toMatchObject({ type: 'webhook.test', resource: `webhook-test:${hook.id}`, data: { webhook: hook.id } });
    expect(r.received[0]!.headers['x-vigil-delivery']).toBe(test.body.data.id);
    expect((await h.call('GET', '/v1/events', { token: acme })).body.data).toEqual([]);

    const redo = await h.call('POST', `/v1/webhooks/${hook.id}/deliveries/${test.body.data.id}/redeliver`, { token: acme });
    expect(redo.body.data).toMatchObject({ id: test.body.data.id, state: 'pending' });
    await worker.drain();
    expect(r.received[1]!.headers['x-vigil-delivery']).toBe(test.body.data.id);
    expect(r.received[1]!.raw.equals(r.received[0]!.raw)).toBe(true);
    // Redelivered once more and failing: the delivery stays `succeeded`, the failed attempt is listed.
    r.script.push({ status: 500 });
    await h.call('POST', `/v1/webhooks/${hook.id}/deliveries/${test.body.data.id}/redeliver`, { token: acme });
    await worker.drain();
    const once = await h.call('GET', `/v1/webhooks/${hook.id}/deliveries/${test.body.data.id}`, { token: acme });
    expect(once.body.data).toMatchObject({ state: 'succeeded', attempts: 3, next_attempt_at: null });
    expect(once.body.data.attempts_list.map((a: { succeeded: boolean; response_status: number }) => [a.succeeded, a.response_status])).toEqual([
      [true, 200],
      [true, 200],
      [false, 500],
    ]);

    r.fallback = { status: 500 };
    const since = new Date(h.clock.t).toISOString();
    for (let i = 0; i < 2; i++) await emit(h, 'round.closed', roundClosedPayload(`aaaaaaaa0000000${i}`), { resource: `round:aaaaaaaa0000000${i}` });
    await driveRetries(h, worker, 20);
    expect((await h.call('GET', `/v1/webhooks/${hook.id}/deliveries?state=failed`, { token: acme })).body.data).toHaveLength(2);
    r.fallback = { status: 200 };
    const before = r.received.length;
    const recovered = await h.call('POST', `/v1/webhooks/${hook.id}/recover`, { token: acme, body: { since } });
    expect(recovered).toMatchObject({ status: 202, body: { data: { requeued: 2 } } });
    await worker.drain();
    expect(r.received.length - before).toBe(2);
    expect((await h.call('GET', `/v1/webhooks/${hook.id}/deliveries?state=failed`, { token: acme })).body.data).toEqual([]);
    expect((await h.call('GET', `/v1/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000`, { token: acme })).body).toEqual({ detail: 'delivery not found', code: 'webhook_delivery_not_found' });
  });

  it('the events feed takes every documented kind in types: webhook.test is accepted and lists nothing (test events are never in the feed)', async () => {
    const h = await harness();
    const r = await receiver();
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, r.url);
    const worker = await h.worker();
    expect((await h.call('POST', `/v1/webhooks/${hook.id}/test`, { token: acme })).status).toBe(202);
    const verdict = await emit(h);
    await worker.drain();
    // Deliveries in flight together may arrive in any order (docs/webhooks.md).
    expect(r.received.map((q) => q.headers['x-vigil-event']).sort()).toEqual(['verdict.changed', 'webhook.test']);

    expect(await h.call('GET', '/v1/events?types=webhook.test', { token: acme })).toMatchObject({ status: 200, body: { data: [] } });
    const mixed = await h.call('GET', '/v1/events?types=webhook.test,verdict.changed', { token: acme });
    expect(mixed.status).toBe(200);
    expect(mixed.body.data.map((e: { id: string }) => e.id)).toEqual([verdict]);
    const every = 'verdict.changed,attestation.created,repository.verified,round.closed,webhook.disabled,webhook.test';
    expect((await h.call('GET', `/v1/events?types=${every}`, { token: acme })).body.data.map((e: { id: string }) => e.id)).toEqual([verdict]);
    expect(await h.call('GET', '/v1/events?types=webhook.tested', { token: acme })).toMatchObject({ status: 422, body: { detail: 'Validation error', code: 'validation_error' } });
  });

  it('two workers deliver each of many events exactly once to a healthy receiver, four at most in flight per endpoint', async () => {
    const h = await harness();
    const r = await receiver();
    // Slow enough answers that both workers have attempts open at once.
    r.fallback = { status: 200, delayMs: 15 };
    const acme = await h.key('acme');
    await endpoint(h, acme, r.url);
    await endpoint(h, acme, r.url.replace('/hooks', '/second'));
    const events = 60;
    for (let i = 0; i < events; i++) await emit(h);
    const [a, b] = [await h.worker(), await h.worker()];
    await Promise.all([a.drain(), b.drain()]);
    await Promise.all([a.drain(), b.drain()]);
    expect(r.received).toHaveLength(2 * events);
    const deliveries = r.received.map((q) => String(q.headers['x-vigil-delivery']));
    expect(new Set(deliveries).size).toBe(2 * events);
    const attempts = await h.db.selectFrom('webhook_delivery_attempts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(attempts.n)).toBe(2 * events);
    expect(r.maxConcurrentByPath.get('/hooks')).toBeLessThanOrEqual(4);
    expect(r.maxConcurrentByPath.get('/second')).toBeLessThanOrEqual(4);
    expect(Math.max(...r.maxConcurrentByPath.values())).toBeGreaterThan(1);
  });

  it('a dead endpoint (every attempt hangs) does not hold up another endpoint’s deliveries', async () => {
    const h = await harness();
    const dead = await receiver();
    dead.fallback = { hangUntilReleased: true };
    const healthy = await receiver();
    const acme = await h.key('acme');
    await endpoint(h, acme, dead.url);
    await endpoint(h, acme, healthy.url);
    for (let i = 0; i < 12; i++) await emit(h);
    // A timeout longer than the test: with the harness's 400 ms, a loaded machine (a fresh-clone CI
    // run) let the dead endpoint's first attempts time out and the next four begin before the
    // healthy twelve had all arrived, which says nothing about the slots.
    const worker = await h.worker({ settings: { concurrency: 8, endpointConcurrency: 4, timeoutMs: 60_000 } });
    worker.start();
    // The healthy endpoint's twelve arrive while the dead one holds its four slots, hanging.
    await healthy.waitFor(12);
    expect(dead.received.length).toBeLessThanOrEqual(4);
    dead.fallback = { status: 200 };
    dead.release();
    await worker.stop();
  });

  it('one account’s hanging endpoints hold at most its account’s slots: another account’s delivery arrives meanwhile', async () => {
    const h = await harness();
    const slow = await receiver();
    slow.fallback = { hangUntilReleased: true };
    const healthy = await receiver();
    const acme = await h.key('acme');
    const globex = await h.key('globex');
    const acmeHooks: string[] = [];
    for (let i = 0; i < 5; i++) acmeHooks.push((await endpoint(h, acme, slow.url.replace('/hooks', `/a${i}`))).id);
    // acme's deliveries are for older events, so without the account cap its endpoints come first
    // and take all 16 of the worker's slots (5 endpoints x 4).
    for (let i = 0; i < 6; i++) await emit(h);
    h.clock.t += 1000;
    await endpoint(h, globex, healthy.url);
    await emit(h);
    const worker = await h.worker({ settings: { concurrency: 16, endpointConcurrency: 4, accountConcurrency: 8, timeoutMs: 60_000 } });
    worker.start();
    await healthy.waitFor(1);
    // Delivered while every one of acme's attempts is still open: none has ended, at most 8 began.
    const acmeAttempts = await h.db
      .selectFrom('webhook_delivery_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.delivery_id', 'a.delivery_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('d.webhook_id', 'in', acmeHooks)
      .executeTakeFirstOrThrow();
    expect(Number(acmeAttempts.n)).toBe(0);
    const acmeInFlight = await h.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('webhook_id', 'in', acmeHooks)
      .where('state', '=', 'delivering')
      .executeTakeFirstOrThrow();
    expect(Number(acmeInFlight.n)).toBe(8);
    expect(slow.received.length).toBeLessThanOrEqual(8);
    slow.fallback = { status: 200 };
    slow.release();
    await worker.stop();
  });

  it('a stopping worker claims nothing more, lets its attempts finish, and leaves no delivery claimed', async () => {
    const h = await harness();
    const r = await receiver();
    r.fallback = { status: 200, delayMs: 150 };
    const acme = await h.key('acme');
    const hook = await endpoint(h, acme, r.url);
    for (let i = 0; i < 8; i++) await emit(h);
    const worker = await h.worker();
    worker.start();
    await r.waitFor(1);
    await worker.stop();
    const states = await h.db.selectFrom('webhook_deliveries').select('state').where('webhook_id', '=', hook.id).execute();
    // The attempts in flight when it stopped finished and were recorded; the rest wait, unclaimed.
    expect(states.filter((s) => s.state === 'delivering')).toEqual([]);
    expect(states.filter((s) => s.state === 'succeeded')).toHaveLength(r.received.length);
    expect(r.received.length).toBeLessThan(8);
    const next = await h.worker();
    await next.drain();
    expect(new Set(r.received.map((q) => JSON.parse(q.raw.toString()).id)).size).toBe(8);
  });

  it('the events feed: pages with a cursor, a types filter, other accounts’ repository events invisible, cursor valid across a restart, expired after retention', async () => {
    const h = await harness({ VIGIL_EVENT_RETENTION_DAYS: '30' });
    const acme = await h.key('acme');
    const globex = await h.key('globex');
    const accountOf = async (name: string) => (await h.db.selectFrom('accounts').select('account_id').where('name', '=', name).executeTakeFirstOrThrow()).account_id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await emit(h));
    const mine = await emit(h, 'repository.verified', repositoryPayload('repo_00000000000000aa'), { resource: 'repository:repo_00000000000000aa', accountId: await accountOf('acme') });
    const theirs = await emit(h, 'repository.verified', repositoryPayload('repo_00000000000000bb'), { resource: 'repository:repo_00000000000000bb', accountId: await accountOf('globex') });
    // Not in the feed until fanned out (which gives it its place in commit order).
    expect((await h.call('GET', '/v1/events', { token: acme })).body.data).toEqual([]);
    await (await h.worker()).drain();

    const first = await h.call('GET', '/v1/events?limit=4', { token: acme });
    expect(first.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 4));
    expect(first.headers['x-vigil-page-size']).toBe('4');
    expect(first.headers['x-vigil-next-page']).toBe(first.body.next_cursor);
    for (const item of first.body.data) WebhookEvent.parse(item);
    const second = await h.call('GET', `/v1/events?limit=4&after=${first.body.next_cursor}`, { token: acme });
    expect(second.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4], mine]);
    expect(second.headers['x-vigil-next-page']).toBeUndefined();
    const viaHeader = await h.call('GET', '/v1/events?limit=4', { token: acme, headers: { 'x-vigil-page': first.body.next_cursor } });
    expect(viaHeader.body.data).toEqual(second.body.data);
    expect((await h.call('GET', '/v1/events', { token: globex })).body.data.map((e: { id: string }) => e.id)).toEqual([...ids, theirs]);
    const repos = await h.call('GET', '/v1/events?types=repository.verified,round.closed', { token: acme });
    expect(repos.body.data.map((e: { id: string }) => e.id)).toEqual([mine]);
    expect((await h.call('GET', '/v1/events?types=nope', { token: acme })).status).toBe(422);
    for (const empty of ['', ',', ' , '])
      expect(await h.call('GET', `/v1/events?types=${encodeURIComponent(empty)}`, { token: acme })).toMatchObject({ status: 422, body: { detail: 'Validation error', code: 'validation_error' } });
    // Every refused cursor reads the same: garbage, made up, altered, or past the newest position.
    const garbage = await h.call('GET', '/v1/events?after=evc_garbage', { token: acme });
    expect(garbage.status).toBe(422);
    expect(JSON.stringify(garbage.body)).toContain('expected a next_cursor value of a previous answer');
    const madeUp = `evc_${Buffer.from(JSON.stringify([1, h.clock.t])).toString('base64url')}`;
    const real = Buffer.from(String(first.body.next_cursor).slice(4), 'base64url');
    const altered = `evc_${Buffer.concat([real.subarray(0, 16), Buffer.from(JSON.stringify([1, h.clock.t]))]).toString('base64url')}`;
    const box = createSecretBox((await loadServerIdentity(h.config.dataDir)).secretKey);
    const pastEnd = encodeEventCursor(box, { p: 10_000, t: h.clock.t });
    for (const cursor of [madeUp, altered, pastEnd]) {
      expect([cursor, await h.call('GET', `/v1/events?after=${cursor}`, { token: acme })]).toMatchObject([cursor, { status: 422, body: garbage.body }]);
    }
    expect(await h.call('GET', '/v1/events', { token: acme, headers: { 'x-vigil-page': altered } })).toMatchObject({
      status: 422,
      body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: 'headers.x-vigil-page', message: 'expected a next_cursor value of a previous answer' }] },
    });
    // Another deployment's server key: its cursors are not this one's.
    const stranger = await startHarness(h.db, { VIGIL_EVENT_RETENTION_DAYS: '30' });
    closers.push(() => stranger.close());
    expect((await stranger.call('GET', `/v1/events?after=${first.body.next_cursor}`, { token: acme })).status).toBe(422);

    // A new process (another app on the same database and server key) honours the cursor.
    const restarted = await startHarness(h.db, { VIGIL_EVENT_RETENTION_DAYS: '30' }, { dataDir: h.config.dataDir });
    closers.push(() => restarted.close());
    restarted.clock.t = h.clock.t;
    const after = await restarted.call('GET', `/v1/events?limit=4&after=${first.body.next_cursor}`, { token: acme });
    expect(after.body.data).toEqual(second.body.data);
    const end = await restarted.call('GET', `/v1/events?after=${second.body.next_cursor}`, { token: acme });
    expect(end.body).toEqual({ data: [], next_cursor: expect.stringMatching(/^evc_/) });

    restarted.clock.t += 31 * DAY;
    expect(await restarted.call('GET', `/v1/events?after=${first.body.next_cursor}`, { token: acme })).toMatchObject({
      status: 410,
      body: { detail: 'events cursor expired: older than the retention period', code: 'events_cursor_expired' },
    });
    // An empty answer renews the cursor: a reader polling a quiet feed never expires.
    const quiet = await restarted.call('GET', `/v1/events?after=${end.body.next_cursor}`, { token: acme });
    expect(quiet.status).toBe(410);
  });

  it('from=newest answers only a cursor after the newest event, from which the next read sees just what came later', async () => {
    const h = await harness({ VIGIL_EVENT_RETENTION_DAYS: '30' });
    const acme = await h.key('acme');
    // An empty feed: a cursor at the start.
    const empty = await h.call('GET', '/v1/events?from=newest', { token: acme });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ data: [], next_cursor: expect.stringMatching(/^evc_/) });
    for (let i = 0; i < 3; i++) await emit(h);
    await (await h.worker()).drain();
    const fromEmpty = await h.call('GET', `/v1/events?after=${empty.body.next_cursor}`, { token: acme });
    expect(fromEmpty.body.data).toHaveLength(3);

    const now = await h.call('GET', '/v1/events?from=newest&limit=2&types=verdict.changed', { token: acme });
    expect(now.status).toBe(200);
    expect(now.body.data).toEqual([]);
    expect(now.headers['x-vigil-next-page']).toBeUndefined();
    expect((await h.call('GET', `/v1/events?after=${now.body.next_cursor}`, { token: acme })).body.data).toEqual([]);
    const later = await emit(h);
    await (await h.worker()).drain();
    const read = await h.call('GET', `/v1/events?after=${now.body.next_cursor}`, { token: acme });
    expect(read.body.data.map((e: { id: string }) => e.id)).toEqual([later]);

    expect(await h.call('GET', `/v1/events?from=newest&after=${now.body.next_cursor}`, { token: acme })).toMatchObject({
      status: 422,
      body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: 'query.from', message: 'not with after (both say where to start)' }] },
    });
    expect(await h.call('GET', '/v1/events?from=newest', { token: acme, headers: { 'x-vigil-page': now.body.next_cursor } })).toMatchObject({
      status: 422,
      body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: 'query.from', message: 'not with X-Vigil-Page (both say where to start)' }] },
    });
    expect(await h.call('GET', '/v1/events?from=oldest', { token: acme })).toMatchObject({
      status: 422,
      body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: 'query.from', message: 'expected newest' }] },
    });
  });

  it('retention keeps the newest event in the feed, so positions never start over and a renewed cursor sees what comes next', async () => {
    const h = await harness({ VIGIL_EVENT_RETENTION_DAYS: '30' });
    const acme = await h.key('acme');
    await emit(h);
    await emit(h);
    await (await h.worker()).drain();
    const read = await h.call('GET', '/v1/events', { token: acme });
    expect(read.body.data).toHaveLength(2);
    h.clock.t += 29 * DAY;
    // An empty page renews the cursor's time.
    const renewed = await h.call('GET', `/v1/events?after=${read.body.next_cursor}`, { token: acme });
    expect(renewed.body.data).toEqual([]);
    h.clock.t += 2 * DAY;
    await (await h.worker()).drain(); // a new worker prunes on its first pass: the first event goes, the newest stays
    expect((await h.db.selectFrom('outbox_events').select('feed_position').execute()).map((e) => Number(e.feed_position))).toEqual([2]);
    const later = await emit(h);
    await (await h.worker()).drain();
    const after = await h.call('GET', `/v1/events?after=${renewed.body.next_cursor}`, { token: acme });
    expect(after.status).toBe(200);
    expect(after.body.data.map((e: { id: string }) => e.id)).toEqual([later]);
    const left = await h.db.selectFrom('outbox_events').select('feed_position').orderBy('feed_position').execute();
    expect(left.map((e) => Number(e.feed_position))).toEqual([3]);
  });

  it('retention prunes fanned-out events and finished deliveries, never one a pending delivery still needs', async () => {
    const h = await harness();
    const r = await receiver();
    const acme = await h.key('acme');
    const paused = await endpoint(h, acme, r.url);
    await h.call('PATCH', `/v1/webhooks/${paused.id}`, { token: acme, body: { active: false } });
    const kept = await emit(h);
    const worker = await h.worker();
    await worker.drain();
    h.clock.t += 31 * DAY;
    const fresh = await emit(h);
    await (await h.worker()).drain(); // a new worker prunes on its first pass
    const left = await h.db.selectFrom('outbox_events').select('id').orderBy('seq').execute();
    expect(left.map((e) => e.id)).toEqual([kept, fresh]);
    await h.call('PATCH', `/v1/webhooks/${paused.id}`, { token: acme, body: { active: true } });
    await worker.drain();
    // Both are in flight together, and those may arrive in any order (docs/webhooks.md).
    expect(r.received.map((q) => JSON.parse(q.raw.toString()).id).sort()).toEqual([kept, fresh].sort());
  });
});
