import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyChildLoggerFactory } from './lazy-child-logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { lines, stream };
}

describe('lazyChildLoggerFactory', () => {
  it('binds the request id to what a request logs and writes nothing below the level', async () => {
    const { lines, stream } = capture();
    const app = Fastify({ logger: { level: 'warn', stream }, childLoggerFactory: lazyChildLoggerFactory, genReqId: () => 'req-42' });
    app.get('/', async (request) => {
      request.log.info('too quiet to write');
      request.log.debug({ detail: 1 }, 'quieter still');
      request.log.warn({ reason: 'x' }, 'something odd');
      return { ok: true };
    });
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    await app.close();
    const messages = lines.filter((l) => l.reqId === 'req-42');
    expect(messages.map((l) => l.msg)).toEqual(['something odd']);
    expect(messages[0]).toMatchObject({ reason: 'x', level: 40 });
  });

  it('writes request logs at info when the level allows them', async () => {
    const { lines, stream } = capture();
    const app = Fastify({ logger: { level: 'info', stream }, childLoggerFactory: lazyChildLoggerFactory, genReqId: () => 'req-7' });
    app.get('/', async (request) => {
      request.log.info('handled');
      return {};
    });
    await app.inject({ method: 'GET', url: '/' });
    await app.close();
    const messages = lines.filter((l) => l.reqId === 'req-7').map((l) => l.msg);
    expect(messages).toEqual(['incoming request', 'handled', 'request completed']);
  });

  it('a per-route log level applies to the child', async () => {
    const { lines, stream } = capture();
    const app = Fastify({ logger: { level: 'error', stream }, childLoggerFactory: lazyChildLoggerFactory, genReqId: () => 'req-9' });
    app.get('/', { logLevel: 'debug' }, async (request) => {
      request.log.debug('route debug');
      return {};
    });
    await app.inject({ method: 'GET', url: '/' });
    await app.close();
    expect(lines.filter((l) => l.reqId === 'req-9').map((l) => l.msg)).toContain('route debug');
  });
});
