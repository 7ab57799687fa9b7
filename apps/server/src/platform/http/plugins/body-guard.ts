import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { VigilError } from '../../errors.js';
import '../route-config.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export interface BodyGuardOptions {
  limitBytes: number;
}

const bodyGuard: FastifyPluginAsync<BodyGuardOptions> = async (app, { limitBytes }) => {
  // Decided from the headers alone, before rate limiting, auth or body parsing spend anything.
  // `Connection: close` because the unread body would otherwise be parsed as the next request.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!METHODS_WITH_BODY.has(request.method)) return done();
    const length = request.headers['content-length'];
    if (length === undefined) return done(new VigilError('length_required', { headers: { connection: 'close' } }));
    if (Number(length) > (request.routeOptions.config.bodyLimitBytes ?? limitBytes)) return done(new VigilError('body_too_large', { headers: { connection: 'close' } }));
    done();
  });
};

/**
 * 411 for POST/PUT/PATCH without Content-Length (chunked bodies included), 413 when the declared
 * length exceeds the limit (the route's `config.bodyLimitBytes` where it sets one). fastify's bodyLimit is set to the same value for bodies that lie.
 */
export const bodyGuardPlugin = fp(bodyGuard, { name: 'vigil-body-guard', fastify: '5.x' });
