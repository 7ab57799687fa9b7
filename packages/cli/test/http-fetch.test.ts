import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lightFetch } from '../src/http-fetch.js';

let server: Server;
let base: string;
const seen: { method: string; url: string; body: string; headers: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, headers: req.headers });
      if (req.url === '/moved') return res.writeHead(302, { location: '/json' }).end();
      if (req.url === '/see-other') return res.writeHead(303, { location: '/json' }).end();
      if (req.url === '/gzip') return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('{"z":1}'));
      if (req.url === '/empty') return res.writeHead(204).end();
      if (req.url === '/cookies') return res.writeHead(200, [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['X-Vigil-Request-Id', 'r2'], ['Content-Type', 'text/plain']]).end('\ufeffhello');
      if (req.url === '/slow') return void setTimeout(() => res.end('{}'), 5000);
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json', 'x-vigil-request-id': 'r1' }).end(JSON.stringify({ method: req.method, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const fetchLight = lightFetch(() => {
  throw new Error('no fallback expected');
});

describe('lightFetch', () => {
  it('answers a Response with status, headers and body, and sends method, headers and a string body', async () => {
    const r = await fetchLight(`${base}/json`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"a":1}' });
    expect(r.status).toBe(200);
    expect(r.ok).toBe(true);
    expect(r.headers.get('x-vigil-request-id')).toBe('r1');
    expect(await r.json()).toEqual({ method: 'POST', body: '{"a":1}' });
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer t');
    const missing = await fetchLight(`${base}/missing`);
    expect(missing.status).toBe(404);
    expect((await fetchLight(`${base}/empty`)).status).toBe(204);
  });

  it('follows redirects as fetch does, decompresses, and rejects as fetch does', async () => {
    expect(await (await fetchLight(`${base}/moved`)).json()).toEqual({ method: 'GET', body: '' });
    expect(await (await fetchLight(`${base}/see-other`, { method: 'POST', body: 'x' })).json()).toEqual({ method: 'GET', body: '' });
    expect(await (await fetchLight(`${base}/gzip`)).json()).toEqual({ z: 1 });
    const refused = await fetchLight('http://127.0.0.1:1/').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toBe('fetch failed');
    expect(((refused as Error).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(fetchLight(`${base}/slow`, { signal: controller.signal })).rejects.toThrow('stop');
  });

  it("answers as fetch's Response does: a body read once, clone, a stream, headers in name order", async () => {
    const r = await fetchLight(`${base}/moved`);
    expect(r.url).toBe(`${base}/json`);
    expect(r.redirected).toBe(true);
    expect(r.statusText).toBe('OK');
    const copy = r.clone();
    expect(await r.text()).toBe('{"method":"GET","body":""}');
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toThrow(TypeError);
    expect(() => r.clone()).toThrow(TypeError);
    expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe('{"method":"GET","body":""}');

    const cookies = await fetchLight(`${base}/cookies`);
    expect(cookies.redirected).toBe(false);
    expect(cookies.headers.get('X-VIGIL-REQUEST-ID')).toBe('r2');
    expect(cookies.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(cookies.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(cookies.headers.has('content-type')).toBe(true);
    expect(cookies.headers.get('absent')).toBeNull();
    const pairs: [string, string][] = [];
    cookies.headers.forEach((value, name) => pairs.push([name, value]));
    expect(pairs.map(([name]) => name)).toEqual(pairs.map(([name]) => name).sort());
    expect(pairs.filter(([name]) => name === 'set-cookie')).toEqual([['set-cookie', 'a=1'], ['set-cookie', 'b=2']]);
    // As fetch's text(): UTF-8, the byte order mark dropped.
    expect(await cookies.clone().text()).toBe('hello');
    expect(await new Response(cookies.body).text()).toBe('hello');

    const empty = await fetchLight(`${base}/empty`);
    expect(empty.body).toBeNull();
    expect(await empty.text()).toBe('');
  });

  it('sends headers given as pairs or as a Headers, repeated names joined', async () => {
    await fetchLight(`${base}/json`, { headers: [['X-One', ' 1 '], ['x-one', '2']] });
    expect(seen.at(-1)!.headers['x-one']).toBe('1, 2');
    await fetchLight(`${base}/json`, { headers: new Headers({ 'X-Two': 'b' }) });
    expect(seen.at(-1)!.headers['x-two']).toBe('b');
  });

  it('hands a body that is not a string to the fallback', async () => {
    const calls: unknown[] = [];
    const f = lightFetch(() => async (input) => {
      calls.push(input);
      return new Response('{}');
    });
    await f(`${base}/json`, { method: 'POST', body: new Blob(['x']) });
    expect(calls).toEqual([`${base}/json`]);
  });
});
