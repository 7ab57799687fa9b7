import { connect } from 'node:net';
import { ErrorBody } from '@vigil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VigilError } from '../src/platform/errors.js';
import { rawRequest, startServer, type TestServer } from './harness.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    register: (app) => {
      app.post('/test/echo', async (request) => ({ received: request.body }));
      app.get('/test/crash', async () => {
        throw new Error('database password is hunter2');
      });
      app.get('/test/slow', { config: { timeoutMs: 50 } }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return { late: true };
      });
      app.get('/test/slow-then-answers', { config: { timeoutMs: 50 } }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return { late: true };
      });
      // Answers at once; storing the answer (as the idempotency plugin does) outlasts the timeout.
      app.get(
        '/test/slow-store',
        {
          config: { timeoutMs: 50 },
          onSend: async (_request, _reply, payload) => {
            await new Promise((resolve) => setTimeout(resolve, 300));
            return payload;
          },
        },
        async () => ({ stored: true }),
      );
      app.get('/test/forbidden-scope', async () => {
        throw new VigilError('scope_missing', { arg: 'verdicts:read' });
      });
      app.get('/test/crash-with-token', async () => {
        throw new Error(`could not use vgl_1a2b3c4d_${'c'.repeat(48)}`);
      });
    },
  });
});
afterAll(async () => {
  await server.close();
});

async function send(path: string, init?: RequestInit) {
  const response = await fetch(server.url + path, init);
  return { response, body: ErrorBody.parse(await response.json()) };
}

describe('error responses', () => {
  it('malformed JSON is 400 with the catalogue detail', async () => {
    const { response, body } = await send('/test/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"unterminated',
    });
    expect(response.status).toBe(400);
    expect(body).toEqual({ detail: 'malformed JSON body', code: 'bad_request' });
    expect(response.headers.get('x-request-id')).toMatch(UUID_RE);
  });

  it('an empty JSON body is 400', async () => {
    const { response, body } = await send('/test/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    expect(response.status).toBe(400);
    expect(body).toEqual({ detail: 'malformed JSON body', code: 'bad_request' });
  });

  it('a well-formed JSON body reaches the handler', async () => {
    const response = await fetch(`${server.url}/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: { a: 1 } });
  });

  it('a JSON body nested deeper than 64 levels is 400 malformed JSON body, refused before it is parsed (probe finding: 2,500 levels were a 500)', async () => {
    const post = (body: string) => fetch(`${server.url}/test/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    for (const levels of [65, 2_500, 100_000]) {
      const { response, body } = await send('/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"a":${nested(levels - 1)}}` });
      expect(response.status, `${levels} levels`).toBe(400);
      expect(body).toEqual({ detail: 'malformed JSON body', code: 'bad_request' });
    }
    // Exactly 64 levels is read, objects and arrays alike.
    const atLimit = await post(`{"a":${nested(63)}}`);
    expect(atLimit.status).toBe(200);
    expect(JSON.stringify(((await atLimit.json()) as { received: unknown }).received)).toBe(`{"a":${nested(63)}}`);
    const objects = `${'{"k":'.repeat(64)}1${'}'.repeat(64)}`;
    expect((await post(objects)).status).toBe(200);
    expect((await post(`${'{"k":'.repeat(65)}1${'}'.repeat(65)}`)).status).toBe(400);
    // Brackets inside strings are text, escaped quotes included.
    const text = `{"s":"\\\"${'['.repeat(500)}","t":"${'{'.repeat(500)}\\\\"}`;
    const inStrings = await post(text);
    expect(inStrings.status).toBe(200);
    expect(((await inStrings.json()) as { received: unknown }).received).toEqual(JSON.parse(text));
  });

  it('an unsupported content type is 415', async () => {
    const { response, body } = await send('/test/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<a/>',
    });
    expect(response.status).toBe(415);
    expect(body).toEqual({ detail: 'unsupported media type', code: 'unsupported_media_type' });
  });

  it('a body of any type the endpoint does not read is 415, text/plain included (it is never read as a string)', async () => {
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'application/vnd.api+json', 'application/json, text/plain']) {
      const { response, body } = await send('/test/echo', { method: 'POST', headers: { 'content-type': type }, body: '{"a":1}' });
      expect([type, response.status, body]).toEqual([type, 415, { detail: 'unsupported media type', code: 'unsupported_media_type' }]);
    }
    const untyped = await rawRequest(server.port, 'POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"a":1}');
    expect([untyped.status, JSON.parse(untyped.body)]).toEqual([415, { detail: 'unsupported media type', code: 'unsupported_media_type' }]);
  });

  it('a JSON body shorter than its Content-Length, then a half-close, is 400 malformed JSON body', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('utf8')));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
      // end() sends the bytes, then FIN: the client will send nothing more.
      socket.end('POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"a":1}');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ detail: 'malformed JSON body', code: 'bad_request' });
  });

  it('redacts anything shaped like an API key from every log line: the url, the host, an error message', async () => {
    const secret = 'a'.repeat(48);
    await fetch(`${server.url}/test/forbidden-scope?api_key=vgl_1a2b3c4d_${secret}&again=vgl%5F1a2b3c4d%5F${'b'.repeat(48)}`);
    await rawRequest(server.port, `GET /test/forbidden-scope HTTP/1.1\r\nHost: VGL_1A2B3C4D_${'D'.repeat(48)}\r\nConnection: close\r\n\r\n`);
    await fetch(`${server.url}/test/crash-with-token`);
    const logs = server.logs();
    for (const leaked of [secret, 'b'.repeat(48), 'c'.repeat(48), 'D'.repeat(48)]) expect(logs).not.toContain(leaked);
    const lines = logs.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { req?: { url?: string; host?: string }; err?: { message?: string } });
    expect(lines.map((l) => l.req?.url)).toContain('/test/forbidden-scope?api_key=vgl_1a2b3c4d_[redacted]&again=vgl_1a2b3c4d_[redacted]');
    expect(lines.map((l) => l.req?.host)).toContain('vgl_1A2B3C4D_[redacted]');
    expect(lines.map((l) => l.err?.message)).toContain('could not use vgl_1a2b3c4d_[redacted]');
  });

  it('a parameterised catalogue detail keeps its argument', async () => {
    const { response, body } = await send('/test/forbidden-scope');
    expect(response.status).toBe(403);
    expect(body).toEqual({ detail: "api key lacks 'verdicts:read' scope", code: 'scope_missing' });
  });

  it('an unhandled error is 500 {detail: internal error, request_id} and the stack is logged, not sent', async () => {
    const response = await fetch(`${server.url}/test/crash`, { headers: { 'x-request-id': 'crash-report-1' } });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ detail: 'internal error', code: 'internal_error', request_id: 'crash-report-1' });
    expect(response.headers.get('x-request-id')).toBe('crash-report-1');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('at ');
    const logged = server
      .logs()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { reqId?: string; err?: { stack?: string; message?: string } })
      .find((entry) => entry.reqId === 'crash-report-1' && entry.err);
    expect(logged?.err?.message).toBe('database password is hunter2');
    expect(logged?.err?.stack).toContain('errors.test.ts');
  });

  it('a handler slower than its timeout is 504 request handler timed out', async () => {
    const started = Date.now();
    const { response, body } = await send('/test/slow');
    expect(response.status).toBe(504);
    expect(body).toEqual({ detail: 'request handler timed out', code: 'handler_timeout' });
    expect(response.headers.get('x-request-id')).toMatch(UUID_RE);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('a handler that answers after its 504 is dropped without a "Reply was already sent" warning in the log', async () => {
    const { response } = await send('/test/slow-then-answers');
    expect(response.status).toBe(504);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(server.logs()).not.toContain('Reply was already sent');
    expect(server.logs()).not.toContain('FST_ERR_REP_ALREADY_SENT');
  });

  it('an answer given in time is not replaced by a 504 while its onSend hooks still wait', async () => {
    const response = await fetch(`${server.url}/test/slow-store`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ stored: true });
  });
});

describe('body guard (raw HTTP/1.1)', () => {
  it('a chunked POST without Content-Length is 411 length required', async () => {
    const response = await rawRequest(
      server.port,
      'POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n0\r\n\r\n',
    );
    expect(response.status).toBe(411);
    expect(JSON.parse(response.body)).toEqual({ detail: 'length required', code: 'length_required' });
    expect(response.headers['x-request-id']).toMatch(UUID_RE);
  });

  it('a POST with neither Content-Length nor a body is 411, also on unknown paths', async () => {
    for (const path of ['/test/echo', '/v1/unknown']) {
      const response = await rawRequest(server.port, `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(response.status).toBe(411);
      expect(JSON.parse(response.body)).toEqual({ detail: 'length required', code: 'length_required' });
    }
  });

  it('PUT and PATCH need Content-Length too', async () => {
    for (const method of ['PUT', 'PATCH']) {
      const response = await rawRequest(
        server.port,
        `${method} /test/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      );
      expect(response.status).toBe(411);
    }
  });

  it('Content-Length above the limit is 413 Body too large, answered before any body is sent', async () => {
    const response = await rawRequest(
      server.port,
      'POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 70000000\r\n\r\n',
    );
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ detail: 'Body too large', code: 'body_too_large' });
    expect(response.headers['x-request-id']).toMatch(UUID_RE);
    expect(response.elapsedMs).toBeLessThan(2_000);
  });

  it('a GET without Content-Length is fine', async () => {
    const response = await rawRequest(server.port, 'GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(response.status).toBe(200);
  });
});

describe('body limit', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startServer({
      config: { bodyLimitBytes: 64 },
      register: (app) => app.post('/test/echo', async (request) => ({ received: request.body })),
    });
  });
  afterAll(async () => {
    await small.close();
  });

  it('follows VIGIL_BODY_LIMIT_BYTES: 64 bytes pass, 65 are 413', async () => {
    const fits = JSON.stringify({ a: 'x'.repeat(56) });
    expect(Buffer.byteLength(fits)).toBe(64);
    const ok = await fetch(`${small.url}/test/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: fits });
    expect(ok.status).toBe(200);
    const tooBig = await fetch(`${small.url}/test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 'x'.repeat(57) }),
    });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({ detail: 'Body too large', code: 'body_too_large' });
  });
});
