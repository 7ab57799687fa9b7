import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { VigilError } from '../../errors.js';
import { countRedisFailure } from '../../metrics/index.js';
import { createMemoryRateLimitStore, createRedisRateLimitStore, RATE_WINDOW_MS } from './rate-limit-store.js';
import '../route-config.js';

export interface RateLimitPluginOptions {
  /** Global budget per source IP per minute (every route but those with `config.rateLimit: false`). */
  perMinute: number;
  /** Extra budget per source IP per minute on routes with `config.endpointRateLimit`. */
  endpointPerMinute: number;
  /** Shared counters so several instances enforce one budget; in-process when absent. */
  redis?: Redis | undefined;
  /** Clock, for tests. */
  now?: () => number;
}

/** Redis outages are logged at most this often, not once per request. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

const rateLimit: FastifyPluginAsync<RateLimitPluginOptions> = async (app, options) => {
  const store = options.redis ? createRedisRateLimitStore(options.redis) : createMemoryRateLimitStore();
  const now = options.now ?? Date.now;
  let lastOutageLog = 0;

  const verdict = (
    request: FastifyRequest,
    counts: { global: number; endpoint: number },
    endpointKey: string | null,
    window: number,
  ): VigilError | undefined => {
    const over = counts.global > options.perMinute || (endpointKey !== null && counts.endpoint > options.endpointPerMinute);
    if (!over) return undefined;
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * RATE_WINDOW_MS - now()) / 1000));
    request.log.debug({ ip: request.ip, counts }, 'rate limited');
    return new VigilError('rate_limited', { headers: { 'retry-after': String(retryAfter) } });
  };

  // What Node's parser refuses never becomes a request (no hooks run): it is counted here, by the
  // connection's address, so a flood of malformed requests spends the same budget.
  app.decorate('countParserRefusal', (ip: string) => {
    const counted = store.hit(Math.floor(now() / RATE_WINDOW_MS), `g:${ip}`, options.perMinute, null);
    if (counted instanceof Promise) counted.catch(() => undefined);
  });

  // Callback style, and synchronous with the in-process store: this runs on every request.
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    // One read of routeOptions: fastify builds a fresh object on every access.
    const config = request.routeOptions.config;
    if (config.rateLimit === false) return done();
    const window = Math.floor(now() / RATE_WINDOW_MS);
    const globalKey = `g:${request.ip}`;
    const endpointKey = config.endpointRateLimit ? `e:${config.url}:${request.ip}` : null;
    const counted = store.hit(window, globalKey, options.perMinute, endpointKey);
    if (!(counted instanceof Promise)) return done(verdict(request, counted, endpointKey, window));
    counted.then(
      (counts) => done(verdict(request, counts, endpointKey, window)),
      (error: unknown) => {
        // A Redis outage must not take the API down with it: serve uncounted, and say so in the log.
        countRedisFailure('rate_limit');
        if (now() - lastOutageLog > OUTAGE_LOG_INTERVAL_MS) {
          lastOutageLog = now();
          request.log.warn({ err: error }, 'rate-limit store unavailable; serving uncounted');
        }
        done();
      },
    );
  });
};

/**
 * 429 `rate limit exceeded` with Retry-After: a global budget per source IP on every route, unknown
 * paths included (routes opt out with `config: { rateLimit: false }`), plus a per-endpoint budget where
 * `config.endpointRateLimit`. Fixed one-minute windows. @fastify/rate-limit did the same job at a
 * sixth of a cached read's throughput with two budgets; these counters are a Map lookup (or one Redis
 * script call for both budgets).
 */
export const rateLimitPlugin = fp(rateLimit, { name: 'vigil-rate-limit', fastify: '5.x' });

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a request Node's parser refused against the global budget of `ip`. */
    countParserRefusal: (ip: string) => void;
  }
}
