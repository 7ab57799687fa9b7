import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VigilClient } from './client.js';
import { VigilApiError } from './errors.js';

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/v1/rounds/deadbeef/scores') {
      res.writeHead(404, { 'content-type': 'application/json', 'x-request-id': 'rid-404' });
      res.end(JSON.stringify({ detail: 'round not found' }));
    } else if (req.url === '/v1/leaderboard') {
      res.writeHead(429, { 'content-type': 'application/json', 'x-request-id': 'rid-429', 'retry-after': '7' });
      res.end(JSON.stringify({ detail: 'rate limit exceeded' }));
    } else {
      res.writeHead(502, { 'content-type': 'text/html', 'x-request-id': 'rid-502' });
      res.end('<html>Bad Gateway</html>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function failure(call: Promise<unknown>): Promise<VigilApiError> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(VigilApiError);
  return error as VigilApiError;
}

describe('VigilClient errors', () => {
  const client = (): VigilClient => new VigilClient({ baseUrl });

  it('maps a spec error body to VigilApiError with detail and request id', async () => {
    const error = await failure(client().roundScores('deadbeef'));
    expect(error.status).toBe(404);
    expect(error.detail).toBe('round not found');
    expect(error.requestId).toBe('rid-404');
    expect(error.retryable).toBe(false);
  });

  it('exposes Retry-After on 429 as retryable', async () => {
    const error = await failure(client().leaderboard());
    expect(error.detail).toBe('rate limit exceeded');
    expect(error.retryAfterSeconds).toBe(7);
    expect(error.retryable).toBe(true);
  });

  it('keeps the start of a non-JSON error page as the detail', async () => {
    const error = await failure(client().health());
    expect(error.status).toBe(502);
    expect(error.detail).toBe('<html>Bad Gateway</html>');
    expect(error.body).toBeNull();
    expect(error.requestId).toBe('rid-502');
  });

  it('refuses a baseUrl carrying a query, naming options.baseUrl', () => {
    expect(() => new VigilClient({ baseUrl: `${baseUrl}/?x=1` })).toThrow(/^options\.baseUrl: /);
  });
});

describe('default fetch', () => {
  it('calls the global fetch with globalThis as this, as browsers require ("Illegal invocation" otherwise)', async () => {
    const original = globalThis.fetch;
    const receivers: unknown[] = [];
    globalThis.fetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      receivers.push(this);
      return original(input, init);
    } as typeof fetch;
    try {
      const client = new VigilClient({ baseUrl });
      await expect(client.roundScores('deadbeef')).rejects.toBeInstanceOf(VigilApiError);
    } finally {
      globalThis.fetch = original;
    }
    expect(receivers).toEqual([globalThis]);
  });
});
