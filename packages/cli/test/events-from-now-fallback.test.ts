import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { vigil } from './support/cli.js';

const TOKEN = `vgl_${'0'.repeat(8)}_${'0'.repeat(48)}`;
let older: Server;
let url: string;
const requests: string[] = [];
let refuseFrom = false;

// A server from before `from=newest`: it ignores the parameter and answers from the oldest event
// (or, strict, refuses it: 422), so the CLI must read the feed to its end instead. Two pages, the
// first saying more are waiting.
beforeAll(async () => {
  older = createServer((req, res) => {
    requests.push(req.url ?? '');
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    res.setHeader('content-type', 'application/json');
    if (refuseFrom && query.has('from')) {
      res.writeHead(422);
      res.end(JSON.stringify({ detail: 'Validation error', errors: [{ path: 'query', message: 'Unrecognized key: "from"' }] }));
      return;
    }
    const after = query.get('after');
    if (after === null) {
      res.setHeader('x-vigil-next-page', 'evc_second');
      res.end(JSON.stringify({ data: [], next_cursor: 'evc_second' }));
    } else {
      res.end(JSON.stringify({ data: [], next_cursor: after === 'evc_second' ? 'evc_end' : after }));
    }
  });
  await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(older.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => older.close(() => resolve())));

it.each([
  // The last request is the tail itself, reading what came after the newest event.
  ['ignores from', false, ['from=newest&limit=100', 'after=evc_second&limit=100', 'after=evc_end&limit=100']],
  ['refuses from (422)', true, ['from=newest&limit=100', 'limit=100', 'after=evc_second&limit=100', 'after=evc_end&limit=100']],
])('events tail --from-now against a server that %s reads the feed to its end, prints none of it, and names that cursor', async (_, refuse, expected) => {
  refuseFrom = refuse;
  requests.length = 0;
  const r = await vigil(['events', 'tail', '--from-now'], { env: { VIGIL_BASE_URL: url, VIGIL_API_TOKEN: TOKEN } });
  expect(r).toMatchObject({ code: 0, stdout: '' });
  expect(r.stderr).toContain('Next: --after evc_end');
  expect(requests.map((u) => new URL(u, 'http://x').searchParams.toString())).toEqual(expected);
});
