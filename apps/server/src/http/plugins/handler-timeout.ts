import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { VigilError } from '../../errors.js';
import '../route-config.js';

export interface HandlerTimeoutOptions {
  /** VIGIL_HANDLER_TIMEOUT_MS: the default for routes without `config.timeoutMs`. */
  defaultMs: number;
}

interface Pending {
  reply: FastifyReply;
  deadline: number;
}

/**
 * How often pending requests are checked. A late answer is at most this much past its deadline;
 * one timer for the whole server instead of a timer, an AbortController and two listeners per request
 * (fastify's own handlerTimeout), which cost a tenth of the throughput of a cached read.
 */
export const TIMEOUT_SWEEP_MS = 25;

const handlerTimeout: FastifyPluginAsync<HandlerTimeoutOptions> = async (app, { defaultMs }) => {
  app.addHook('onRoute', (route) => {
    const timeoutMs = route.config?.timeoutMs;
    if (timeoutMs === undefined) return;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
      throw new TypeError(`config.timeoutMs of ${route.method} ${route.url}: expected a positive integer, got ${timeoutMs}`);
    }
  });

  let pending: Pending[] = [];
  const sweep = () => {
    if (pending.length === 0) return;
    const now = Date.now();
    const keep: Pending[] = [];
    for (const entry of pending) {
      if (entry.reply.sent) continue;
      if (entry.deadline > now) {
        keep.push(entry);
        continue;
      }
      // The handler may still finish later; fastify ignores its second send (and logs it at debug).
      entry.reply.send(new VigilError('handler_timeout'));
    }
    pending = keep;
  };
  const timer = setInterval(sweep, TIMEOUT_SWEEP_MS);
  timer.unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(timer);
    done();
  });

  // onRequest, registered before the rate limit and the cache: both may wait on Redis.
  app.addHook('onRequest', (request, reply, done) => {
    const timeoutMs = request.routeOptions.config.timeoutMs ?? defaultMs;
    pending.push({ reply, deadline: Date.now() + timeoutMs });
    done();
  });
};

/**
 * 504 `request handler timed out` when a handler runs past VIGIL_HANDLER_TIMEOUT_MS, or the route's
 * `config: { timeoutMs }`.
 */
export const handlerTimeoutPlugin = fp(handlerTimeout, { name: 'vigil-handler-timeout', fastify: '5.x' });
