import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ResponseCacheStore } from './cache-store.js';
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
  const cache = request.routeOptions.config.cache;
  if (!cache || request.method !== 'GET') return null;
  const part = cache.key ? cache.key(request) : '';
  return part === null ? null : `${request.routeOptions.url}|${part}`;
}

const responseCache: FastifyPluginAsync<ResponseCachePluginOptions> = async (app, { store }) => {
  app.decorateRequest(cacheKeyOf, null);

  app.addHook('preHandler', async (request, reply) => {
    const key = keyFor(request);
    if (key === null) return;
    let hit;
    try {
      hit = await store.get(key);
    } catch (error) {
      request.log.warn({ err: error }, 'response cache unavailable; answering uncached');
      return;
    }
    if (hit) {
      return reply.code(200).header('cache-control', cacheControl(hit.remainingMs)).type(JSON_TYPE).send(hit.body);
    }
    request[cacheKeyOf] = key;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request[cacheKeyOf];
    // A handler that sets Cache-Control itself (e.g. an empty shell that may still fill) opts out.
    if (key === null || reply.statusCode !== 200 || typeof payload !== 'string' || reply.hasHeader('cache-control')) {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    }
    const ttlMs = (request.routeOptions.config.cache?.ttlSeconds ?? 0) * 1000;
    try {
      const entry = await store.putIfAbsent(key, payload, ttlMs);
      reply.header('cache-control', cacheControl(entry.remainingMs));
      return entry.body;
    } catch (error) {
      request.log.warn({ err: error }, 'response cache unavailable; answering uncached');
      reply.header('cache-control', 'no-store');
      return payload;
    }
  });
};

/**
 * Server-side cache of serialized bodies for routes with `config.cache` (GET, 200 only). A stored body
 * is served byte-identical until it expires; `Cache-Control` tells clients how long that is.
 * Every other response is `no-store`.
 */
export const responseCachePlugin = fp(responseCache, { name: 'vigil-response-cache', fastify: '5.x' });
