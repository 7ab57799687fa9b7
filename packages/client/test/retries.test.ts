import { afterEach, describe, expect, it } from 'vitest';
import {
  Vigil,
  VigilApiError,
  VigilConnectionError,
  VigilNotFoundError,
  VigilRateLimitError,
  VigilResponseError,
  VigilServerError,
  VigilTimeoutError,
  VigilValidationError,
} from '../src/index.js';
import { freePort } from './support/vigil-server.js';
import { json, startStandIn, type StandIn } from './support/stand-in.js';

// Retries, timeouts and errors against stand-in local HTTP servers scripted per request. Waits go
// through an injected sleep that records each delay and returns at once, with jitter fixed by an
// injected random: the delays are checked exactly, with no wall-clock timing.

const KEY = `vgl_0123abcd_${'ab'.repeat(24)}`;
const STATUS = { tracks: [], server_time: '2026-11-21T10:00:00.000', next_round_opens_at: null, seconds_until_next_round: null };
let standIn: StandIn | undefined;

afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

function client(baseUrl: string, extra: Partial<ConstructorParameters<typeof Vigil>[0]> = {}): { vigil: Vigil; delays: number[] } {
  const delays: number[] = [];
  const vigil = new Vigil({
    baseUrl,
    apiKey: KEY,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    ...extra,
  });
  return { vigil, delays };
}

async function failure<E>(call: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

describe('retries (spec part 7)', () => {
  it('429 with Retry-After, then 503, then 200: waits Retry-After plus jitter, then backs off, three attempts', async () => {
    standIn = await startStandIn((i, _seen, res) => {
      if (i === 0) return json(res, 429, { detail: 'rate limit exceeded' }, { 'retry-after': '2' });
      if (i === 1) return json(res, 503, { detail: 'service unavailable' });
      json(res, 200, STATUS);
    });
    const { vigil, delays } = client(standIn.baseUrl);
    const status = await vigil.rounds.status();
    expect(status.server_time).toEqual(new Date(Date.UTC(2026, 10, 21, 10)));
    expect(standIn.seen).toHaveLength(3);
    // 2 s of Retry-After + 0.5 × 1 s of jitter; then the second retry's backoff step, 2 s × (0.75 + 0.5 × 0.5).
    expect(delays).toEqual([2500, 2000]);
    // Each attempt has its own x-request-id; the Authorization header is on every one.
    expect(new Set(standIn.seen.map((s) => s.headers['x-request-id'])).size).toBe(3);
    expect(standIn.seen.every((s) => s.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('5xx backs off exponentially from about 1 s, with jitter, and gives up after maxRetries with VigilServerError', async () => {
    standIn = await startStandIn((_i, _seen, res) => json(res, 500, { detail: 'internal error', request_id: 'r-1' }));
    const { vigil, delays } = client(standIn.baseUrl, { random: () => 0 });
    const error = await failure(vigil.network.dashboard(), VigilServerError);
    expect([error.status, error.detail, error.attempts]).toEqual([500, 'internal error', 4]);
    expect(error.requestId).toBe('stand-in-500');
    expect(delays).toEqual([750, 1500, 3000]);
    expect(standIn.seen).toHaveLength(4);
  });

  it('a 429 still refused after the retries is VigilRateLimitError with retryAfter', async () => {
    standIn = await startStandIn((_i, _seen, res) => json(res, 429, { detail: 'rate limit exceeded' }, { 'retry-after': '7' }));
    const { vigil, delays } = client(standIn.baseUrl, { maxRetries: 1 });
    const error = await failure(vigil.leaderboard.get(), VigilRateLimitError);
    expect([error.status, error.retryAfter, error.attempts]).toEqual([429, 7, 2]);
    expect(delays).toEqual([7500]);
  });

  it('never retries another 4xx: 404, 409, 422 answer after one attempt', async () => {
    for (const [status, detail] of [
      [404, 'round not found'],
      [409, 'a request with this idempotency key is in progress'],
      [422, 'Validation error'],
    ] as const) {
      standIn = await startStandIn((_i, _seen, res) => json(res, status, { detail }));
      const { vigil, delays } = client(standIn.baseUrl);
      const error = await failure(vigil.rounds.scores('0123456789abcdef'), VigilApiError);
      expect([error.status, error.detail, error.attempts]).toEqual([status, detail, 1]);
      expect(standIn.seen).toHaveLength(1);
      expect(delays).toEqual([]);
      await standIn.close();
    }
    standIn = undefined;
  });

  it('stops retrying when the next wait would pass the retry budget', async () => {
    standIn = await startStandIn((_i, _seen, res) => json(res, 429, { detail: 'rate limit exceeded' }, { 'retry-after': '50' }));
    let clock = 0;
    const { vigil, delays } = client(standIn.baseUrl, {
      retryBudget: 120_000,
      now: () => clock,
      sleep: async (ms) => {
        delays.push(ms);
        clock += ms;
      },
    });
    const error = await failure(vigil.network.health(), VigilRateLimitError);
    // 50.5 s, 101 s; a third wait would end at 151.5 s, past 120 s.
    expect(delays).toEqual([50_500, 50_500]);
    expect(error.attempts).toBe(3);
  });

  it('a change the server cannot deduplicate (key creation) is retried after a 429 only, never after a 5xx', async () => {
    standIn = await startStandIn((i, _seen, res) => (i === 0 ? json(res, 429, { detail: 'rate limit exceeded' }, { 'retry-after': '1' }) : json(res, 502, { detail: 'upstream dependency unavailable' })));
    const { vigil, delays } = client(standIn.baseUrl);
    const error = await failure(vigil.keys.create({ name: 'ci', scopes: ['read'] }), VigilServerError);
    expect([error.status, error.attempts]).toEqual([502, 2]);
    expect(delays).toEqual([1500]);
  });

  it('every attempt of one change carries the same Idempotency-Key; a caller may pass its own', async () => {
    standIn = await startStandIn((i, _seen, res) =>
      i % 2 === 0 ? json(res, 503, { detail: 'service unavailable' }) : json(res, 404, { detail: 'policy not found' }),
    );
    const { vigil } = client(standIn.baseUrl);
    await failure(vigil.policies.delete('pol_0123456789abcdef'), VigilNotFoundError);
    await failure(vigil.policies.delete('pol_0123456789abcdef', { idempotencyKey: 'my-op-1' }), VigilNotFoundError);
    const keys = standIn.seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys.slice(2)).toEqual(['my-op-1', 'my-op-1']);
    // GETs carry none.
    await vigil.network.health().catch(() => undefined);
    expect(standIn.seen.at(-1)?.headers['idempotency-key']).toBeUndefined();
  });
});

describe('timeouts, connections, aborts', () => {
  it('an attempt without an answer within the timeout is VigilTimeoutError; a GET is retried', async () => {
    standIn = await startStandIn(() => {
      // Never answers.
    });
    const { vigil, delays } = client(standIn.baseUrl, { timeout: 100, maxRetries: 2 });
    const error = await failure(vigil.network.health(), VigilTimeoutError);
    expect([error.status, error.attempts, error.timeoutMs]).toEqual([null, 3, 100]);
    // On a loaded machine the stand-in may take the last attempt's request after the client gave up on it.
    await expect.poll(() => standIn!.seen.length).toBe(3);
    expect(error.requestId).toBe(standIn.seen[2]?.headers['x-request-id']);
    expect(delays).toEqual([1000, 2000]);
  });

  it('a refused connection to a server that never answered fails at once: one attempt, no wait', async () => {
    const port = await freePort();
    const { vigil, delays } = client(`http://127.0.0.1:${port}`);
    const error = await failure(vigil.network.health(), VigilConnectionError);
    expect([error.status, error.attempts]).toEqual([null, 1]);
    expect(error.detail).toMatch(/^connection failed: .*ECONNREFUSED/);
    expect(delays).toEqual([]);
  });

  it('a refused connection after the server answered once is retried for a GET (a restart)', async () => {
    standIn = await startStandIn((_i, _seen, res) => json(res, 200, { status: 'ok' }));
    const { vigil, delays } = client(standIn.baseUrl);
    await vigil.network.health();
    await standIn.close();
    standIn = undefined;
    const error = await failure(vigil.network.health({ maxRetries: 1 }), VigilConnectionError);
    expect([error.status, error.attempts]).toEqual([null, 2]);
    expect(error.detail).toMatch(/^connection failed: /);
    expect(delays).toEqual([1000]);
  });

  it('a connection reset before any answer is retried', async () => {
    standIn = await startStandIn((i, _seen, res) => {
      if (i === 0) return void res.socket?.destroy();
      json(res, 200, { status: 'ok' });
    });
    const { vigil, delays } = client(standIn.baseUrl);
    expect(await vigil.network.health()).toEqual({ status: 'ok' });
    expect(delays).toEqual([1000]);
  });

  it("the caller's AbortSignal ends the call at once, during a wait too, with the signal's reason", async () => {
    standIn = await startStandIn((_i, _seen, res) => json(res, 503, { detail: 'service unavailable' }));
    const controller = new AbortController();
    const vigil = new Vigil({
      baseUrl: standIn.baseUrl,
      apiKey: KEY,
      sleep: async () => {
        controller.abort(new Error('user left'));
      },
    });
    await expect(vigil.network.health({ signal: controller.signal })).rejects.toThrow('user left');
    expect(standIn.seen).toHaveLength(1);
  });
});

describe('answers that break the contract', () => {
  it('a 2xx body that does not match core is VigilResponseError naming the bad field', async () => {
    standIn = await startStandIn((_i, _seen, res) => json(res, 200, { ...STATUS, server_time: '21/11/2026' }));
    const { vigil } = client(standIn.baseUrl);
    const error = await failure(vigil.rounds.status(), VigilResponseError);
    expect(error.path).toBe('server_time');
    expect(error.status).toBe(200);
    expect(error.endpoint).toBe('GET /v1/rounds/status');
  });

  it('a non-JSON error page keeps its start as the detail', async () => {
    standIn = await startStandIn((_i, _seen, res) => {
      res.writeHead(400, { 'content-type': 'text/html' });
      res.end('<html>Bad Request</html>');
    });
    const { vigil } = client(standIn.baseUrl);
    const error = await failure(vigil.network.health(), VigilValidationError);
    expect([error.detail, error.body]).toEqual(['<html>Bad Request</html>', null]);
  });
});

describe('pagination', () => {
  it('follows X-Vigil-Next-Page only: short and empty pages with a next page are not the end', async () => {
    const pages: Record<string, { items: string[]; next?: string }> = {
      first: { items: ['art_1'], next: 'c1.two' },
      'c1.two': { items: [], next: 'c1.three' },
      'c1.three': { items: ['art_2', 'art_3'] },
    };
    standIn = await startStandIn((_i, seen, res) => {
      const page = pages[String(seen.headers['x-vigil-page'] ?? 'first')]!;
      const results = page.items.map((id) => ({ type: 'artifact', kind: 'artifact', id, title: id, snippet: id, score: 1, href: `/v1/artifacts/${id}` }));
      json(res, 200, { results }, page.next ? { 'x-vigil-next-page': page.next } : {});
    });
    const { vigil } = client(standIn.baseUrl);
    const ids: string[] = [];
    for await (const result of vigil.search({ q: 'exfil' }, { pageSize: 3 })) ids.push(result.id);
    expect(ids).toEqual(['art_1', 'art_2', 'art_3']);
    expect(standIn.seen.map((s) => [s.headers['x-vigil-page'], s.headers['x-vigil-page-size']])).toEqual([
      [undefined, '3'],
      ['c1.two', '3'],
      ['c1.three', '3'],
    ]);
    // Page at a time: the items and the token of the next.
    const first = await vigil.search({ q: 'exfil' }, { pageSize: 3 });
    expect([first.items.map((r) => r.id), first.nextPage]).toEqual([['art_1'], 'c1.two']);
    const second = await first.getNextPage();
    expect([second?.items, second?.nextPage]).toEqual([[], 'c1.three']);
    const third = await vigil.search({ q: 'exfil' }, { pageSize: 3, page: second!.nextPage! });
    expect([third.items.length, third.hasNextPage(), await third.getNextPage()]).toEqual([2, false, null]);
  });
});

describe('options', () => {
  it('needs a token unless told otherwise', () => {
    expect(() => new Vigil({ baseUrl: 'http://127.0.0.1:1' } as never)).toThrow(/^options\.apiKey: required/);
    expect(() => new Vigil({ baseUrl: 'http://127.0.0.1:1', apiKey: 'sk-123' })).toThrow(/^options\.apiKey: expected a token/);
    expect(Vigil.public({ baseUrl: 'http://127.0.0.1:1/' }).baseUrl).toBe('http://127.0.0.1:1');
    expect(() => new Vigil({ baseUrl: 'ftp://x', apiKey: null })).toThrow(/^options\.baseUrl: expected http or https/);
  });
});

describe('fetch', () => {
  it("calls the user's fetch as a plain function, never as a method of the client's options (a browser's window.fetch would throw \"Illegal invocation\")", async () => {
    standIn = await startStandIn((_i, _seen, res) => json(res, 200, STATUS));
    const receivers: unknown[] = [];
    const fetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      receivers.push(this);
      return globalThis.fetch(input, init);
    } as typeof globalThis.fetch;
    await Vigil.public({ baseUrl: standIn.baseUrl, fetch }).rounds.status();
    expect(receivers).toEqual([undefined]);
  });

  it('calls the global fetch with globalThis as this when none is given', async () => {
    standIn = await startStandIn((_i, _seen, res) => json(res, 200, STATUS));
    const original = globalThis.fetch;
    const receivers: unknown[] = [];
    globalThis.fetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      receivers.push(this);
      return original(input, init);
    } as typeof fetch;
    try {
      await Vigil.public({ baseUrl: standIn.baseUrl }).rounds.status();
    } finally {
      globalThis.fetch = original;
    }
    expect(receivers).toEqual([globalThis]);
  });
});

describe('error bodies', () => {
  it('exposes the catalogue code of the body, and null for a body without one', async () => {
    standIn = await startStandIn((i, _seen, res) =>
      i === 0 ? json(res, 404, { detail: 'round not found', code: 'round_not_found' }) : json(res, 404, { detail: 'round not found' }),
    );
    const { vigil } = client(standIn.baseUrl);
    expect((await failure(vigil.rounds.scores('0123456789abcdef'), VigilNotFoundError)).code).toBe('round_not_found');
    expect((await failure(vigil.rounds.scores('0123456789abcdef'), VigilNotFoundError)).code).toBeNull();
  });
});
