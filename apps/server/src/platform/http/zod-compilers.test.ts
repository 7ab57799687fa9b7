import Fastify from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorsPlugin } from './plugins/errors.js';
import { NUL_MESSAGE, answeredByHandler, notFoundWhenInvalid, nulPaths, zodSerializerCompiler, zodValidatorCompiler } from './zod-compilers.js';

const Params = z.object({ id: z.string().regex(/^r-\d+$/) });
notFoundWhenInvalid.add(Params, { code: 'round_not_found' });
const Query = z.object({ n: z.string().regex(/^\d+$/).transform(Number).optional() });
const Answer = z.object({ id: z.string(), n: z.number() });
const AnyParams = z.object({ id: z.string() });
answeredByHandler.add(AnyParams, { reason: 'the handler answers any id' });

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/things/:id', { schema: { params: Params, querystring: Query, response: { 200: Answer } } }, async (request) => ({
    id: request.params.id,
    n: request.query.n ?? 1,
    // Not in the contract: must never leave the server.
    internal_note: 'secret',
  }));
  app.get('/shells/:id', { schema: { params: AnyParams } }, async (request) => ({ well_formed: /^r-\d+$/.test(request.params.id) }));
  app.post('/things', { schema: { body: z.object({ name: z.string().min(1) }) } }, async (request) => ({ got: request.body.name }));
  app.get('/broken', { schema: { response: { 200: Answer } } }, async () => ({ id: 7 }) as unknown as z.infer<typeof Answer>);
};

async function app() {
  const server = Fastify({ logger: false });
  server.setValidatorCompiler(zodValidatorCompiler);
  server.setSerializerCompiler(zodSerializerCompiler);
  await server.register(errorsPlugin);
  await server.register(routes);
  return server;
}

describe('route schemas', () => {
  it('hand the handler parsed input and send only what the response schema names', async () => {
    const server = await app();
    const response = await server.inject('/things/r-1?n=5');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"id":"r-1","n":5}');
  });

  it('answer 422 naming each bad field as <part>.<field>', async () => {
    const server = await app();
    const query = await server.inject('/things/r-1?n=five');
    expect(query.statusCode).toBe(422);
    expect(query.json()).toEqual({ detail: 'Validation error', code: 'validation_error', errors: [{ path: 'query.n', message: expect.any(String) }] });
    const body = await server.inject({ method: 'POST', url: '/things', payload: { name: '' } });
    expect(body.statusCode).toBe(422);
    expect(body.json().errors).toEqual([{ path: 'body.name', message: expect.any(String) }]);
    const missing = await server.inject({ method: 'POST', url: '/things' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0].path).toBe('body');
  });

  it('refuse a NUL character in any string or key of any part, naming each place (PostgreSQL cannot store it)', async () => {
    const server = await app();
    const body = await server.inject({ method: 'POST', url: '/things', payload: { name: 'a\u0000b' } });
    expect(body.statusCode).toBe(422);
    expect(body.json().errors).toEqual([{ path: 'body.name', message: NUL_MESSAGE }]);
    const query = await server.inject('/things/r-1?n=1%00');
    expect(query.json().errors).toEqual([{ path: 'query.n', message: NUL_MESSAGE }]);
    // A malformed path parameter with a NUL still names nothing: the registered 404.
    expect((await server.inject('/things/r-%00')).statusCode).toBe(404);
    // Deep inside nested arrays and objects, keys included, without recursing on the call stack.
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(nulPaths({ a: [{ b: 'ok' }, { 'c\u0000': 1 }], d: deep })).toEqual([['a', '1', 'c\u0000'], ['d', ...Array(100_000).fill('0')]]);
    expect(nulPaths({ fine: ['text', 'tab\t', 1, null] })).toEqual([]);
  });

  it('answer the registered 404 for malformed path parameters, before the query is looked at', async () => {
    const server = await app();
    const response = await server.inject('/things/nope?n=five');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'round not found', code: 'round_not_found' });
  });

  it('hand a part registered in answeredByHandler to its handler whatever it holds, a NUL included', async () => {
    const server = await app();
    const response = await server.inject('/shells/r-%00');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ well_formed: false });
  });

  it('refuse to send a body that breaks the contract (500 with a request id), never a half-valid one', async () => {
    const server = await app();
    const response = await server.inject('/broken');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: 'internal error', code: 'internal_error', request_id: expect.any(String) });
  });
});
