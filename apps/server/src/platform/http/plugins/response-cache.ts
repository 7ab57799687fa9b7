import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { countRedisFailure } from '../../metrics/index.js';
import type { CachedBody, ResponseCacheStore } from './cache-store.js';
import '../route-config.js';

export interface ResponseCachePluginOptions {
  store: ResponseCacheStore;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const cacheKeyOf = Symbol('vigil.cacheKey');

declare module 'fastify' {
  interface FastifyRequest {
    [cacheKeyOf]: string | null;
  }
}

function cacheControl(remainingMs: number): string {
  return `public, max-age=${Math.max(0, Math.floor(remainingMs / 1000))}`;
}

function keyFor(request: FastifyRequest): string | null {
  // One read of routeOptions: fastify builds a fresh object on every access.
  const config = request.routeOptions.config;
  const cache = config.cache;
  // HEAD shares GET's entry: same headers, and fastify drops the body after this plugin's onSend.
  if (!cache || (request.method !== 'GET' && request.method !== 'HEAD')) return null;
  const part = cache.key ? cache.key(request) : '';
  return part === null ? null : `${config.url}|${part}`;
}

const responseCache: FastifyPluginAsync<ResponseCachePluginOptions> = async (app, { store }) => {
  app.decorateRequest(cacheKeyOf, null);

  const serveHit = (reply: FastifyReply, hit: CachedBody) =>
    reply.code(200).header('cache-control', cacheControl(hit.remainingMs)).type(JSON_TYPE).send(hit.bytes ?? hit.body);

  // Callback style: with the in-process store a hit is answered without a single promise.
  app.addHook('preHandler', (request, reply, done) => {
    const key = keyFor(request);
    if (key === null) return done();
    let found: ReturnType<ResponseCacheStore['get']>;
    try {
      found = store.get(key);
    } catch (error) {
      countRedisFailure('response_cache');
        request.log.warn({ err: error }, 'response cache unavailable; answering uncached');
      return done();
    }
    if (!(found instanceof Promise)) {
      if (found) return serveHit(reply, found);
      request[cacheKeyOf] = key;
      return done();
    }
    found.then(
      (hit) => {
        if (hit) return serveHit(reply, hit);
        request[cacheKeyOf] = key;
        done();
      },
      (error: unknown) => {
        countRedisFailure('response_cache');
        request.log.warn({ err: error }, 'response cache unavailable; answering uncached');
        done();
      },
    );
  });

  // Callback style too: it runs on every response, and only a miss being stored needs to wait.
  app.addHook('onSend', (request, reply, payload, done) => {
    const key = request[cacheKeyOf];
    // A handler that sets Cache-Control itself (e.g. an empty shell that may still fill) opts out.
    if (key === null || reply.statusCode !== 200 || typeof payload !== 'string' || reply.hasHeader('cache-control')) {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return done(null, payload);
    }
    const ttlMs = (request.routeOptions.config.cache?.ttlSeconds ?? 0) * 1000;
    Promise.resolve()
      .then(() => store.putIfAbsent(key, payload, ttlMs))
      .then(
        (entry) => {
          reply.header('cache-control', cacheControl(entry.remainingMs));
          done(null, entry.body);
        },
        (error: unknown) => {
          countRedisFailure('response_cache');
        request.log.warn({ err: error }, 'response cache unavailable; answering uncached');
          reply.header('cache-control', 'no-store');
          done(null, payload);
        },
      );
  });
};

/**
 * Server-side cache of serialized bodies for routes with `config.cache` (GET and HEAD, 200 only). A stored body
 * is served byte-identical until it expires; `Cache-Control` tells clients how long that is.
 * Every other response is `no-store`.
 */
export const responseCachePlugin = fp(responseCache, { name: 'vigil-response-cache', fastify: '5.x' });
