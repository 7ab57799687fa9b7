import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { VigilError } from '../../errors.js';

const WINDOW_MS = 60_000;

export interface RateLimitPluginOptions {
  /** Global budget per source IP per minute (every route but those with `config.rateLimit: false`). */
  perMinute: number;
  /** Extra budget per source IP per minute on routes with `config.endpointRateLimit`. */
  endpointPerMinute: number;
  /** Shared counters so several instances enforce one budget; in-process when absent. */
  redis?: Redis | undefined;
}

function rateLimited(retryAfterSeconds: number): VigilError {
  return new VigilError('rate_limited', { headers: { 'retry-after': String(Math.max(1, retryAfterSeconds)) } });
}

const rateLimit: FastifyPluginAsync<RateLimitPluginOptions> = async (app, options) => {
  await app.register(fastifyRateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: WINDOW_MS,
    keyGenerator: (request: FastifyRequest) => request.ip,
    // The plugin sets Retry-After itself; the error handler turns this into `{detail}`.
    errorResponseBuilder: (_request, context) => rateLimited(Math.ceil(context.ttl / 1000)),
    // A Redis outage must not take the API down with it: count nothing rather than fail every request.
    skipOnError: true,
    // Budget headers on every response cost time on the hottest path and tell a client nothing the
    // documented limits don't; a 429 still carries Retry-After.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    ...(options.redis ? { redis: options.redis, nameSpace: 'vigil:rl:global:' } : {}),
  });

  // @fastify/rate-limit runs one limiter per request, so the per-endpoint budget is a second,
  // independent limiter added as a route hook after the global one.
  const endpointLimiters = new Map<string, onRequestHookHandler>();
  const endpointLimiter = (url: string): onRequestHookHandler => {
    let hook = endpointLimiters.get(url);
    if (hook) return hook;
    const check = app.createRateLimit({
      max: options.endpointPerMinute,
      timeWindow: WINDOW_MS,
      keyGenerator: (request: FastifyRequest) => `endpoint:${url}:${request.ip}`,
      skipOnError: true,
    });
    hook = async (request) => {
      const result = await check(request);
      if (result.isAllowed || !result.isExceeded) return;
      throw rateLimited(result.ttlInSeconds);
    };
    endpointLimiters.set(url, hook);
    return hook;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.endpointRateLimit) return;
    const hook = endpointLimiter(route.url);
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [hook] : Array.isArray(existing) ? [...existing, hook] : [existing, hook];
  });
};

/**
 * 429 `rate limit exceeded` with Retry-After: a global budget per source IP on every route (routes opt
 * out with `config: { rateLimit: false }`) plus a per-endpoint budget where `config.endpointRateLimit`.
 */
export const rateLimitPlugin = fp(rateLimit, { name: 'vigil-rate-limit', fastify: '5.x' });
