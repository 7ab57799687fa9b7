import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.js';

const ALLOWED = 'https://dashboard.example';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ config: { corsOrigins: [ALLOWED, 'http://localhost:5173'] } });
});
afterAll(async () => {
  await server.close();
});

describe('CORS', () => {
  it('an allowed origin gets Access-Control-Allow-Origin and never credentials', async () => {
    const response = await fetch(`${server.url}/v1/health`, { headers: { origin: ALLOWED } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'retry-after', 'x-vigil-page', 'x-vigil-page-size', 'x-vigil-next-page', 'idempotent-replayed']));
  });

  it('a disallowed origin gets no CORS headers, but the server-side answer is unchanged', async () => {
    const response = await fetch(`${server.url}/v1/health`, { headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('a preflight from an allowed origin lists GET, POST, DELETE only', async () => {
    const response = await fetch(`${server.url}/v1/health`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('a preflight from a disallowed origin is not granted', async () => {
    const response = await fetch(`${server.url}/v1/health`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with no configured origins no browser origin is allowed', async () => {
    const closed = await startServer();
    try {
      const response = await fetch(`${closed.url}/v1/health`, { headers: { origin: ALLOWED } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await closed.close();
    }
  });
});
