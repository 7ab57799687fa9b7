import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VigilApiError, VigilConnectionError, VigilResponseError } from './errors.js';
import { keypairFromSeed } from './keypair.js';
import { SignedVigilClient } from './signed-client.js';
import { startSignatureServer } from './test-support/signature-server.js';
import type { SignatureServer, SignatureServerOptions } from './test-support/signature-server.js';
import { signedRequestVector as vector } from './test-support/signed-request-vector.js';

const keypair = keypairFromSeed(vector.secretKey);
let server: SignatureServer | undefined;

async function start(options: SignatureServerOptions = {}): Promise<SignatureServer> {
  server = await startSignatureServer(options);
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const Echo = z.object({
  ok: z.literal(true),
  hotkey: z.string(),
  method: z.string(),
  target: z.string(),
  body: z.unknown(),
  bytes: z.number(),
});

describe('SignedVigilClient.request against a verifying server', () => {
  it('signs the exact target and raw bytes it sends: percent-encoded query and a unicode body', async () => {
    const s = await start({ nowSeconds: () => Math.floor(Date.now() / 1000) });
    const client = new SignedVigilClient({ baseUrl: s.baseUrl, keypair });
    const body = { note: 'café – 日本語 🐍', quote: '"\\', n: [1, 2.5] };
    const path = '/v1/miners/submissions?round_id=5f2c9a1e&note=caf%C3%A9%20ok&tag=a%2Fb';
    const echo = await client.request('POST', path, body, { schema: Echo });

    expect(echo.target).toBe(path);
    expect(echo.body).toEqual(body);
    expect(echo.hotkey).toBe(vector.hotkey);
    const [seen] = s.received;
    expect(seen?.verified).toBe(true);
    const sentText = JSON.stringify(body);
    expect(seen?.body.toString('utf8')).toBe(sentText);
    expect(seen?.headers['content-length']).toBe(String(Buffer.byteLength(sentText)));
    expect(seen?.headers['content-type']).toBe('application/json');
  });

  it('signs an empty GET body (sha256 of nothing) and sends no body', async () => {
    const s = await start({ nowSeconds: () => Math.floor(Date.now() / 1000) });
    const client = new SignedVigilClient({ baseUrl: s.baseUrl, keypair });
    const echo = await client.request('get', '/v1/miners/me?track=mcp', undefined, { schema: Echo });
    expect(echo.method).toBe('GET');
    expect(echo.bytes).toBe(0);
    expect(s.received[0]?.verified).toBe(true);
    expect(s.received[0]?.headers['content-type']).toBeUndefined();
  });

  it('download: a signed GET whose answer comes back as the bytes sent', async () => {
    const s = await start({ nowSeconds: () => Math.floor(Date.now() / 1000) });
    const client = new SignedVigilClient({ baseUrl: s.baseUrl, keypair });
    const bytes = await client.download('/v1/validators/artifacts/sha256:ab');
    const echo = Echo.parse(JSON.parse(Buffer.from(bytes).toString('utf8')));
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(echo).toMatchObject({ method: 'GET', target: '/v1/validators/artifacts/sha256:ab', bytes: 0 });
    expect(s.received[0]?.verified).toBe(true);
    expect(s.received[0]?.headers.accept).toBe('*/*');
  });

  it('sends Content-Length: 0 on a POST without a body, signed as the empty body', async () => {
    const s = await start();
    const client = new SignedVigilClient({ baseUrl: s.baseUrl, keypair });
    await client.request('POST', '/v1/validators/heartbeat');
    expect(s.received[0]?.headers['content-length']).toBe('0');
    expect(s.received[0]?.verified).toBe(true);
  });

  it('reproduces the checked-in vector on the wire: same seed, audience, inputs and clock → same headers', async () => {
    const s = await start({ audience: vector.audience });
    const client = new SignedVigilClient({ baseUrl: s.baseUrl, keypair, now: () => vector.timestamp * 1000 });
    await client.request(vector.method, vector.pathWithQuery, JSON.parse(vector.body));
    const sent = s.received.find((r) => r.method === vector.method);
    expect(sent?.body.toString('utf8')).toBe(vector.body);
    expect(sent?.headers['x-vigil-hotkey']).toBe(vector.hotkey);
    expect(sent?.headers['x-vigil-signed-at']).toBe(String(vector.timestamp));
    expect(sent?.headers['x-vigil-request-signature']).toBe(vector.signature);
  });

  it('binds signatures to the server identity it reads once, or to the audience it is given', async () => {
    const production = 'ab'.repeat(32);
    const s = await start({ audience: production });
    const discovering = new SignedVigilClient({ baseUrl: s.baseUrl, keypair });
    await discovering.request('POST', '/v1/a', { n: 1 }, { schema: Echo });
    await discovering.request('POST', '/v1/b', { n: 2 }, { schema: Echo });
    expect(s.identityReads).toBe(1);
    expect(await discovering.audience()).toBe(production);
    // Signed for another deployment: refused, as a captured staging request is on production.
    const staging = new SignedVigilClient({ baseUrl: s.baseUrl, keypair, audience: 'cd'.repeat(32) });
    const error = await staging.request('POST', '/v1/a', { n: 1 }).catch((e: unknown) => e);
    expect((error as VigilApiError).status).toBe(401);
    expect(() => new SignedVigilClient({ baseUrl: s.baseUrl, keypair, audience: 'two words' })).toThrow(/^options\.audience:/);
  });

  it('signs the base path of baseUrl as part of the target', async () => {
    const s = await start();
    const client = new SignedVigilClient({ baseUrl: `${s.baseUrl}/api/`, keypair });
    const echo = await client.request('POST', '/v1/x?a=1', { a: 1 }, { schema: Echo });
    expect(echo.target).toBe('/api/v1/x?a=1');
    expect(s.received[0]?.verified).toBe(true);
  });

  it('is refused when anything between signing and the wire changes the body', async () => {
    const s = await start();
    const tampering: typeof fetch = (input, init) =>
      fetch(input, init?.method === 'POST' ? { ...init, body: new TextEncoder().encode('{"a":2}') } : init);
    const client = new SignedVigilClient({ baseUrl: s.baseUrl, keypair, fetch: tampering });
    const error = await client.request('POST', '/v1/x', { a: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VigilApiError);
    expect((error as VigilApiError).status).toBe(401);
    expect(s.received[0]?.verified).toBe(false);
  });

  it('maps a stale clock to 401 "signature timestamp outside freshness window" with the request id, once', async () => {
    const s = await start({ nowSeconds: () => Math.floor(Date.now() / 1000) });
    const client = new SignedVigilClient({
      baseUrl: s.baseUrl,
      keypair,
      now: () => Date.now() - 10 * 60_000,
      maxRetries: 3,
    });
    const error = await client.request('POST', '/v1/x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VigilApiError);
    const apiError = error as VigilApiError;
    expect(apiError.status).toBe(401);
    expect(apiError.detail).toBe('signature timestamp outside freshness window');
    expect(apiError.requestId).toBe('req-0');
    expect(apiError.retryable).toBe(false);
    expect(s.received).toHaveLength(1);
    expect(s.received[0]?.verified).toBe(true);
  });

  it('re-signs every retry with a fresh timestamp and honours Retry-After on 503', async () => {
    const s = await start({
      override: (index, _request, res) => {
        if (index > 0) return false;
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0', 'x-request-id': 'req-0' });
        res.end(JSON.stringify({ detail: 'service temporarily unavailable' }));
        return true;
      },
    });
    let clock = 1_767_225_600_000;
    const client = new SignedVigilClient({
      baseUrl: s.baseUrl,
      keypair,
      now: () => (clock += 1000),
      maxRetries: 1,
    });
    const echo = await client.request('POST', '/v1/x', { a: 1 }, { schema: Echo });
    expect(echo.ok).toBe(true);
    expect(s.received).toHaveLength(2);
    const [first, second] = s.received;
    expect(first?.headers['x-vigil-signed-at']).not.toBe(second?.headers['x-vigil-signed-at']);
    expect(first?.headers['x-vigil-request-signature']).not.toBe(second?.headers['x-vigil-request-signature']);
    expect(second?.verified).toBe(true);
    expect(createHash('sha256').update(first!.body).digest('hex')).toBe(
      createHash('sha256').update(second!.body).digest('hex'),
    );
  });

  it('repeats of one request within a second sign distinct timestamps, so none is refused as a replay', async () => {
    const pinned = 1_795_000_000_000;
    const s = await start({ nowSeconds: () => pinned / 1000 });
    const client = new SignedVigilClient({ baseUrl: s.baseUrl, keypair, now: () => pinned });
    for (let i = 0; i < 5; i++) await client.request('POST', '/v1/validators/tasks/claim', { max: 10 }, { schema: Echo });
    const stamps = s.received.map((r) => Number(r.headers['x-vigil-signed-at']));
    expect(new Set(stamps).size).toBe(5);
    expect(Math.max(...stamps) - pinned / 1000).toBeLessThan(120);
  });

  it('signs again, a second later, a request another process with the same hotkey signed this second (a restarted validator), retries off', async () => {
    const pinned = 1_795_000_000_000;
    const s = await start({ nowSeconds: () => pinned / 1000 });
    // The process before: it claimed three times, so it signed seconds 0, 1 and 2.
    const before = new SignedVigilClient({ baseUrl: s.baseUrl, keypair, now: () => pinned });
    for (let i = 0; i < 3; i++) await before.request('POST', '/v1/validators/tasks/claim', { max: 10 }, { schema: Echo });
    const after = new SignedVigilClient({ baseUrl: s.baseUrl, keypair, now: () => pinned });
    const answer = await after.request('POST', '/v1/validators/tasks/claim', { max: 10 }, { schema: Echo });
    expect(answer.ok).toBe(true);
    const stamps = s.received.map((r) => Number(r.headers['x-vigil-signed-at']) - pinned / 1000);
    // Refused at 0, 1 and 2 (replays), accepted at 3.
    expect(stamps).toEqual([0, 1, 2, 0, 1, 2, 3]);
    // Anything else refused with 401 is not signed again.
    const other = await startSignatureServer({
      override: (_index, _request, res) => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: 'invalid request signature', code: 'invalid_signature' }));
        return true;
      },
    });
    try {
      const refused = await new SignedVigilClient({ baseUrl: other.baseUrl, keypair }).request('POST', '/v1/x', {}).catch((e: unknown) => e);
      expect((refused as VigilApiError).status).toBe(401);
      expect(other.received).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('waits rather than sign a repeated request more than 30 s ahead of its clock (a validator claiming in a loop)', async () => {
    let clock = 1_795_000_000_000;
    const s = await start({ nowSeconds: () => clock / 1000 });
    const client = new SignedVigilClient({ baseUrl: s.baseUrl, keypair, now: () => clock });
    for (let i = 0; i < 31; i++) await client.request('POST', '/v1/validators/tasks/claim', { max: 10 }, { schema: Echo });
    // The 32nd repeat would be signed 31 s ahead: it waits for the clock (advanced here by hand).
    const late = client.request('POST', '/v1/validators/tasks/claim', { max: 10 }, { schema: Echo });
    await new Promise((r) => setTimeout(r, 200));
    expect(s.received).toHaveLength(31);
    clock += 1000;
    await late;
    const stamps = s.received.map((r) => Number(r.headers['x-vigil-signed-at']));
    expect(new Set(stamps).size).toBe(32);
    expect(Math.max(...stamps) - 1_795_000_000).toBe(31);
  });

  it('does not retry by default', async () => {
    const s = await start({
      override: (_index, _request, res) => {
        res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': 'abc-123' });
        res.end(JSON.stringify({ detail: 'internal error', request_id: 'abc-123' }));
        return true;
      },
    });
    const client = new SignedVigilClient({ baseUrl: s.baseUrl, keypair });
    const error = (await client.request('POST', '/v1/x', {}).catch((e: unknown) => e)) as VigilApiError;
    expect(error).toBeInstanceOf(VigilApiError);
    expect(error.detail).toBe('internal error');
    expect(error.requestId).toBe('abc-123');
    expect(error.body?.request_id).toBe('abc-123');
    expect(error.retryable).toBe(true);
    expect(s.received).toHaveLength(1);
  });

  it('returns the parsed JSON without a schema, and throws VigilResponseError when a schema does not match', async () => {
    const s = await start();
    const client = new SignedVigilClient({ baseUrl: s.baseUrl, keypair });
    const raw = await client.request('POST', '/v1/x', [1]);
    expect(raw).toMatchObject({ ok: true, body: [1] });
    const error = await client
      .request('POST', '/v1/x', {}, { schema: z.object({ round_id: z.string() }) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VigilResponseError);
    // `path` names the bad field; `endpoint` the request.
    expect((error as VigilResponseError).path).toBe('round_id');
    expect((error as VigilResponseError).endpoint).toBe('POST /v1/x');
  });
});

describe('SignedVigilClient input checks (before anything is sent)', () => {
  const client = new SignedVigilClient({ baseUrl: 'http://127.0.0.1:9', keypair });

  it.each([
    ['no leading slash', 'v1/x', /^pathWithQuery: /],
    ['a space', '/v1/x?q=a b', /^pathWithQuery: /],
    ['a fragment', '/v1/x#frag', /^pathWithQuery: /],
    ['non-ASCII', '/v1/café', /^pathWithQuery: /],
    ['dot segments the URL parser would remove', '/v1/a/../b', /^pathWithQuery: would be sent as \/v1\/b/],
  ])('refuses a target with %s', async (_label, path, message) => {
    await expect(client.request('POST', path, {})).rejects.toThrow(message);
  });

  it('refuses a body on GET, a body JSON cannot hold and a bad method', async () => {
    await expect(client.request('GET', '/v1/x', { a: 1 })).rejects.toThrow(/^body: /);
    await expect(client.request('POST', '/v1/x', { n: 1n })).rejects.toThrow(/^body: /);
    await expect(client.request('POST', '/v1/x', () => 1)).rejects.toThrow(/^body: /);
    await expect(client.request('PO ST', '/v1/x')).rejects.toThrow(/^method: /);
  });

  it('refuses a missing keypair or one whose hotkey is not its key, naming options.keypair', () => {
    expect(() => new SignedVigilClient({ baseUrl: 'http://127.0.0.1:9' } as never)).toThrow(/^options\.keypair: /);
    const other = keypairFromSeed(new Uint8Array(32).fill(7));
    expect(() => new SignedVigilClient({ baseUrl: 'http://127.0.0.1:9', keypair: { ...keypair, hotkey: other.hotkey } })).toThrow(
      /^options\.keypair: hotkey is not/,
    );
  });
});

/** Answers a verified request with `body` (status 200), after the signature checks the stand-in makes. */
function answering(status: number, body: unknown, res: import('node:http').ServerResponse): true {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req-x' });
  res.end(JSON.stringify(body));
  return true;
}

describe('SignedVigilClient resource methods: one transport, one retry loop', () => {
  const CLAIM = { round: null, tasks: [] };
  const PROGRESS = { task_id: 't-1', state: 'running', lease_expires_at: '2026-11-21T10:05:00.000+00:00' };

  it('signs validators.claim with the exact target and body, and parses the answer with its core schema (timestamps as Date)', async () => {
    const s = await start({
      override: (_index, request, res) =>
        request.verified && answering(200, request.target.endsWith('/claim') ? CLAIM : PROGRESS, res),
    });
    const signed = new SignedVigilClient({ baseUrl: s.baseUrl, keypair });
    expect(await signed.validators.claim({ track: 'skills', max: 3 })).toEqual(CLAIM);
    const beat = await signed.validators.progress('t-1', { state: 'running' });
    expect(beat.lease_expires_at).toEqual(new Date('2026-11-21T10:05:00.000Z'));
    expect(s.received.map((r) => [r.method, r.target, r.body.toString('utf8'), r.verified])).toEqual([
      ['POST', '/v1/validators/tasks/claim', '{"track":"skills","max":3}', true],
      ['POST', '/v1/validators/tasks/t-1/progress', '{"state":"running"}', true],
    ]);
    // The signed endpoints do not deduplicate by key: none is sent.
    expect(s.received.map((r) => r.headers['idempotency-key'])).toEqual([undefined, undefined]);
  });

  it('retries a claim after a 503 (signed anew) but not after an attempt whose answer was lost', async () => {
    const delays: number[] = [];
    const sleep = async (ms: number): Promise<void> => {
      delays.push(ms);
    };
    const flaky = await start({
      override: (index, request, res) => (index === 0 ? answering(503, { detail: 'service unavailable', code: 'service_unavailable' }, res) : request.verified && answering(200, CLAIM, res)),
    });
    const signed = new SignedVigilClient({ baseUrl: flaky.baseUrl, keypair, maxRetries: 2, sleep, random: () => 0.5 });
    expect(await signed.validators.claim()).toEqual(CLAIM);
    expect(flaky.received).toHaveLength(2);
    expect(flaky.received[0]?.headers['x-vigil-request-signature']).not.toBe(flaky.received[1]?.headers['x-vigil-request-signature']);
    expect(delays).toEqual([1000]);
    await flaky.close();

    // The first attempt's answer never arrives (the connection is cut after the request was read).
    const lossy = await start({
      override: (index, request, res) => {
        if (index === 0 || index === 2) {
          res.socket?.destroy();
          return true;
        }
        return request.verified && answering(200, request.target.endsWith('/claim') ? CLAIM : PROGRESS, res);
      },
    });
    const again = new SignedVigilClient({ baseUrl: lossy.baseUrl, keypair, maxRetries: 2, sleep, random: () => 0.5 });
    // A heartbeat is safe to repeat: retried.
    await expect(again.validators.progress('t-1', { state: 'running' })).resolves.toMatchObject({ task_id: 't-1' });
    expect(lossy.received).toHaveLength(2);
    // A claim whose answer was lost may have leased tasks: thrown, not sent again.
    const error = await again.validators.claim().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VigilConnectionError);
    expect((error as VigilConnectionError).attempts).toBe(1);
    expect(lossy.received).toHaveLength(3);
  });

  it('downloads an artifact as the bytes sent, signed over the percent-encoded target', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    const s = await start({
      override: (_index, request, res) => {
        if (!request.verified) return false;
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(bytes);
        return true;
      },
    });
    const signed = new SignedVigilClient({ baseUrl: s.baseUrl, keypair });
    const sha256 = `sha256:${'ab'.repeat(32)}`;
    expect(Buffer.from(await signed.validators.downloadArtifact(sha256))).toEqual(bytes);
    expect(s.received[0]?.target).toBe(`/v1/validators/artifacts/sha256%3A${'ab'.repeat(32)}`);
    expect(s.received[0]?.headers.accept).toBe('*/*');
  });

  it("calls the user's fetch as a plain function (a browser's window.fetch throws \"Illegal invocation\" as a method of another object)", async () => {
    const s = await start({ override: (_index, request, res) => request.verified && answering(200, CLAIM, res) });
    const receivers: unknown[] = [];
    const fetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      receivers.push(this);
      return globalThis.fetch(input, init);
    } as typeof globalThis.fetch;
    const signed = new SignedVigilClient({ baseUrl: s.baseUrl, keypair, fetch });
    await signed.validators.claim();
    // The identity read and the claim.
    expect(receivers).toEqual([undefined, undefined]);
  });
});
