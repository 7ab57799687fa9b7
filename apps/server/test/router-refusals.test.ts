import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey } from '../src/test-support/fixtures.js';
import { rawRequest, startServer, type TestServer } from './harness.js';

// What fastify's router or Node would answer on their own leaves through the one error handler:
// `{detail}`, `x-request-id`, and counted against the rate limit.
describe('router and parser refusals', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ config: { rateLimitPerMinute: 1_000 } });
  });
  afterAll(async () => server?.close());

  it('a path that cannot be percent-decoded answers 400 {detail} with x-request-id', async () => {
    const response = await rawRequest(server.port, 'GET /v1/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ detail: 'malformed request', code: 'malformed_request' });
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('CONNECT is answered 405 {detail} with x-request-id, not dropped without a word (probe finding)', async () => {
    for (const target of ['127.0.0.1:5432', '/v1/health']) {
      const response = await rawRequest(server.port, `CONNECT ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(response.status).toBe(405);
      expect(JSON.parse(response.body)).toEqual({ detail: 'method not allowed', code: 'method_not_allowed' });
      expect(response.headers['x-request-id']).toBeTruthy();
    }
  });

  it('an Expect other than 100-continue is ignored: the request is served and refused like any other (probe finding)', async () => {
    const missing = await rawRequest(server.port, 'POST /v1/nope HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ detail: 'not found', code: 'route_not_found' });
    expect(missing.headers['x-request-id']).toBeTruthy();
    const served = await rawRequest(server.port, 'GET /v1/health HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nConnection: close\r\n\r\n');
    expect(served.status).toBe(200);
  });

  it('a query with a bad escape is not a bad path', async () => {
    const response = await fetch(`${server.url}/v1/threats/trends?days=%ZZ`);
    expect(response.status).toBe(422);
  });

  it('an HTTP/1.1 request without Host answers 400 {detail} with x-request-id', async () => {
    const response = await rawRequest(server.port, 'GET /v1/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ detail: 'malformed request', code: 'malformed_request' });
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('the refusal route is not reachable by name', async () => {
    const response = await fetch(`${server.url}/__vigil/refused`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: 'not found', code: 'route_not_found' });
  });

  it('a 101-character round id or hotkey gets what docs/api.md promises, not 414', async () => {
    const longHex = 'a'.repeat(101);
    const scores = await fetch(`${server.url}/v1/rounds/${longHex}/scores`);
    expect(scores.status).toBe(404);
    expect(await scores.json()).toEqual({ detail: 'round not found', code: 'round_not_found' });
    const shell = await fetch(`${server.url}/v1/rounds/${longHex}/attestations?miner=${newKey().hotkey}`);
    expect(shell.status).toBe(200);
    expect(((await shell.json()) as { round_status: string; round_id: string })).toMatchObject({ round_status: 'unknown', round_id: '' });
    const agent = await fetch(`${server.url}/v1/agents/${'5'.repeat(101)}`);
    expect(agent.status).toBe(404);
    expect(await agent.json()).toEqual({ detail: 'agent not found', code: 'agent_not_found' });
  });
});

describe('router refusals count against the rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ config: { rateLimitPerMinute: 3 } });
  });
  afterAll(async () => server?.close());

  it('bad URLs and missing Host headers are rate limited like any request', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const request = i % 2 === 0 ? 'GET /v1/%ZZ HTTP/1.1\r\nHost: x\r\n' : 'GET /v1/health HTTP/1.1\r\n';
      statuses.push((await rawRequest(server.port, `${request}Connection: close\r\n\r\n`)).status);
    }
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });
});

describe('parser refusals count against the rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ config: { rateLimitPerMinute: 3 } });
  });
  afterAll(async () => server?.close());

  it('requests Node cannot parse spend the budget of their address, so a malformed flood is throttled too', async () => {
    for (let i = 0; i < 3; i += 1) {
      const refused = await rawRequest(server.port, 'GET /v1/health HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n');
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toEqual({ detail: 'malformed request', code: 'malformed_request' });
    }
    const next = await fetch(`${server.url}/v1/leaderboard`);
    expect(next.status).toBe(429);
    expect(await next.json()).toEqual({ detail: 'rate limit exceeded', code: 'rate_limited' });
  });
});

describe('request timeout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ config: { requestTimeoutMs: 300 } });
  });
  afterAll(async () => server?.close());

  it('a body that stops arriving is answered 408 {detail} and the connection closed', async () => {
    const response = await rawRequest(
      server.port,
      'POST /v1/health HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      5_000,
    );
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual({ detail: 'request timed out', code: 'request_timeout' });
    expect(response.headers.connection).toBe('close');
  });
});

describe('HEAD on a cached route', () => {
  let server: TestServer;
  // The in-process response cache ages entries on the app's clock: the test moves it.
  let clock = Date.UTC(2026, 10, 21, 10, 0, 0);
  beforeAll(async () => {
    server = await startServer({ clock: () => clock });
  });
  afterAll(async () => server?.close());

  it('is answered from the cache: same cache-control and length as GET, no body', async () => {
    const get = await fetch(`${server.url}/v1/leaderboard`);
    const body = await get.text();
    clock += 1_100;
    const head = await fetch(`${server.url}/v1/leaderboard`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    // The entry was stored by GET and has aged 1.1 s: HEAD read it instead of computing a fresh one.
    const maxAge = (response: Response) => Number(/max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge(head)).toBe(maxAge(get) - 2);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(await head.text()).toBe('');
  });
});
