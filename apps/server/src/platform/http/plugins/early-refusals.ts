import type { IncomingMessage } from 'node:http';
import { HEADERS, type ErrorCode } from '@vigil/core';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { VigilError } from '../../errors.js';

/** Where a request the router would refuse on its own is sent instead, so it meets every hook. */
export const REFUSAL_PATH = '/__vigil/refused';
const kRefusal = Symbol('vigil.refusal');

type RawWithRefusal = IncomingMessage & { [kRefusal]?: ErrorCode };

function refusalOf(req: IncomingMessage): ErrorCode | undefined {
  // HTTP/1.1 makes Host mandatory; Node is told not to answer that itself (requireHostHeader: false).
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return 'malformed_request';
  const url = req.url ?? '/';
  if (!url.includes('%')) return undefined;
  const query = url.indexOf('?');
  try {
    decodeURIComponent(query < 0 ? url : url.slice(0, query));
    return undefined;
  } catch {
    return 'malformed_request';
  }
}

/**
 * fastify's `rewriteUrl`: a path the router cannot decode (`/v1/%ZZ`) or an HTTP/1.1 request without
 * Host would be answered by fastify's own code, outside the hooks (no `x-request-id`, no rate limit,
 * a body without `detail`). Such requests are routed to REFUSAL_PATH, whose handler throws the
 * catalogue error, so they leave through the one error handler like every other.
 */
export function rewriteRefusedUrl(this: unknown, req: IncomingMessage): string {
  const refusal = refusalOf(req);
  if (refusal === undefined) return req.url ?? '/';
  (req as RawWithRefusal)[kRefusal] = refusal;
  return REFUSAL_PATH;
}

/**
 * fastify's `frameworkErrors`: what still reaches it (the router's own refusals that rewriteUrl did
 * not foresee) answers `{detail, code}` with `x-request-id` rather than fastify's body.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const refusal = new VigilError(error.statusCode === 414 ? 'route_not_found' : 'malformed_request');
  void reply
    .code(refusal.status)
    .header(HEADERS.requestId, request.id)
    .type('application/json; charset=utf-8')
    .send({ detail: refusal.detail, code: refusal.code });
}

const earlyRefusals: FastifyPluginAsync = async (app) => {
  app.all(REFUSAL_PATH, { schema: { hide: true } }, async (request) => {
    // Reached by name from outside, it is just an unknown path.
    throw new VigilError((request.raw as RawWithRefusal)[kRefusal] ?? 'route_not_found');
  });
};

/** The route behind `rewriteRefusedUrl`. */
export const earlyRefusalsPlugin = fp(earlyRefusals, { name: 'vigil-early-refusals', fastify: '5.x' });
