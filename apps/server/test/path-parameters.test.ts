/**
 * One rule for malformed path parameters, a NUL included (docs/errors.md, "Path parameters"): every
 * route the server serves with a path parameter is listed there, and a NUL in any of its parameters
 * gets exactly the listed answer — the route's 404 where a malformed identifier names nothing (and
 * then the same answer as a malformed value without a NUL), the empty shell on the round
 * attestations endpoint (spec part 4 rule 3), 422 naming `params.<name>` elsewhere.
 */
import { keypairFromSeed } from '@vigil/client';
import { ERROR_CATALOGUE, emptyRoundAttestations } from '@vigil/core';
import { signRequest, signedRequestHeaders } from '@vigil/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointTable } from '../../../test-support/endpoint-tables.js';
import { NUL_MESSAGE } from '../src/platform/http/zod-compilers.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { servedRoutes } from './served-routes.js';

const VALIDATOR = keypairFromSeed('b7'.repeat(32));
const MINER = keypairFromSeed('b8'.repeat(32));

interface Answer {
  status: number;
  body: unknown;
}

describe('a NUL in a path parameter, on every route', () => {
  let e: NetworkApp;
  let token: string;
  let tick = 0;

  /** Sent with everything a caller of any route holds: an all-scope key of a paid account and a signature (validator, or miner under /v1/miners). */
  async function send(method: string, path: string): Promise<Answer> {
    const key = path.startsWith('/v1/miners/') ? MINER : VALIDATOR;
    const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
    const signed = signRequest({ audience: e.app.serverIdentity.publicKeyHex, method, pathWithQuery: path, body, secretKey: key.secretKey, timestamp: Math.floor(Date.now() / 1000) - (tick++ % 100) });
    const response = await fetch(e.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...signedRequestHeaders(signed), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body,
    });
    return { status: response.status, body: await response.json() };
  }

  beforeAll(async () => {
    e = await startNetworkApp({
      snapshot: { netuid: 76, block: 1, taken_at: new Date().toISOString(), neurons: [{ uid: 1, hotkey: VALIDATOR.hotkey, validator_permit: true }] },
      config: { adminAllowlist: ['127.0.0.1'], rateLimitPerMinute: 10_000 },
    });
    token = await operatorKey(e.database.db, ['--org', 'acme', '--plan', 'paid', '--scopes', 'read,upload,verify,policies,repositories,webhooks,keys,admin']);
    const registration = await fetch(`${e.baseUrl}/v1/validators/registration`, {
      method: 'POST',
      headers: {
        ...signedRequestHeaders(
          signRequest({ audience: e.app.serverIdentity.publicKeyHex, method: 'POST', pathWithQuery: '/v1/validators/registration', body: '{"allowed_ips":["127.0.0.1"]}', secretKey: VALIDATOR.secretKey }),
        ),
        'content-type': 'application/json',
      },
      body: '{"allowed_ips":["127.0.0.1"]}',
    });
    expect(registration.status).toBe(201);
  });
  afterAll(async () => e?.close());

  it('lists every route with a path parameter in docs/errors.md, and only those', () => {
    const withParams = servedRoutes(e.app).filter((route) => route.includes('{'));
    expect(withParams.length).toBeGreaterThan(40);
    const listed = endpointTable('errors.md', 'Path parameters').map((row) => row.endpoint);
    expect(withParams.filter((route) => !listed.includes(route)), 'routes docs/errors.md does not list').toEqual([]);
    expect(listed.filter((route) => !withParams.includes(route)), 'rows of routes the server does not serve').toEqual([]);
  });

  it('answers what docs/errors.md lists, for a NUL in each parameter of each route', async () => {
    const wrong: string[] = [];
    for (const row of endpointTable('errors.md', 'Path parameters')) {
      const [method, template] = row.endpoint.split(' ') as [string, string];
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const notFound = /^404 `([^`]+)`/.exec(row.cell)?.[1];
      const shell = row.cell.startsWith('200, the empty shell');
      const refused = /^422 `Validation error`, `params\.(\w+)`$/.exec(row.cell)?.[1];
      expect(notFound !== undefined || shell || refused !== undefined, `${row.endpoint}: ${row.cell}`).toBe(true);
      for (const name of names) {
        const path = (value: string) => template.replace(/\{(\w+)\}/g, (_, n: string) => (n === name ? value : 'x'));
        const answer = await send(method, path('x%00'));
        let expected: Answer;
        if (notFound !== undefined) {
          // The catalogue code of that fixed 404 detail: the one the body carries beside it.
          const code = Object.entries(ERROR_CATALOGUE).find(([, def]) => def.status === 404 && def.detail === notFound)?.[0];
          expected = { status: 404, body: { detail: notFound, code } };
          // The NUL is one more malformed value: the same answer as a malformed value without it.
          const plain = await send(method, path('x'));
          if (JSON.stringify(plain) !== JSON.stringify(expected)) wrong.push(`${row.endpoint} [${name}=x]: ${JSON.stringify(plain)}`);
        } else if (shell) {
          expected = { status: 200, body: emptyRoundAttestations({ roundId: 'x\u0000', miner: '', roundStatus: 'unknown' }) };
        } else {
          expect(refused, row.endpoint).toBe(name);
          expected = { status: 422, body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: `params.${name}`, message: NUL_MESSAGE }] } };
        }
        if (JSON.stringify(answer) !== JSON.stringify(expected)) wrong.push(`${row.endpoint} [${name}=x%00]: ${JSON.stringify(answer)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers the round attestations shell for a NUL in round_id or miner, or a miner that is not one string (spec part 4 rule 3)', async () => {
    const miner = '5'.repeat(47);
    const round = 'abcdef0123456789';
    const get = async (path: string) => {
      const response = await fetch(e.baseUrl + path);
      return { status: response.status, body: await response.json() };
    };
    expect(await get(`/v1/rounds/abcdef01%0023/attestations?miner=${miner}`)).toEqual({
      status: 200,
      body: emptyRoundAttestations({ roundId: '', miner, roundStatus: 'unknown' }),
    });
    for (const query of [`miner=${miner}%00`, 'miner=a&miner=b', 'miner[x]=a']) {
      expect(await get(`/v1/rounds/${round}/attestations?${query}`), query).toEqual({
        status: 200,
        body: emptyRoundAttestations({ roundId: round, miner: '', roundStatus: 'unknown' }),
      });
    }
    // Other query parameters keep the NUL refusal (docs/errors.md).
    expect(await get('/v1/threats/trends?days=7%00')).toMatchObject({ status: 422, body: { errors: [{ path: 'query.days', message: NUL_MESSAGE }] } });
  });
});
