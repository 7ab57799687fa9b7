import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HEADERS } from '@vigil/core';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

const SANE_REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** An incoming id is echoed only when it cannot smuggle anything into logs or headers. */
export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && SANE_REQUEST_ID_RE.test(value);
}

/** fastify's `genReqId`: honours a sane incoming `x-request-id`, else a fresh UUID. */
export function genRequestId(raw: IncomingMessage): string {
  const incoming = raw.headers[HEADERS.requestId];
  return isSaneRequestId(incoming) ? incoming : randomUUID();
}

const requestId: FastifyPluginAsync = async (app) => {
  // onSend sees every reply, including errors raised by onRequest hooks (411, 413, 429) and 404s,
  // so one hook is enough. Callback style: it runs on every response.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(HEADERS.requestId, request.id);
    done(null, payload);
  });
};

/** Puts `x-request-id` (the request's id, see `genRequestId`) on every response. */
export const requestIdPlugin = fp(requestId, { name: 'vigil-request-id', fastify: '5.x' });
