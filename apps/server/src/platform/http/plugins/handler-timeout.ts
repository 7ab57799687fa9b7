import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { VigilError } from '../../errors.js';
import '../route-config.js';

export interface HandlerTimeoutOptions {
  /** VIGIL_HANDLER_TIMEOUT_MS: the default for routes without `config.timeoutMs`. */
  defaultMs: number;
  /** Start timing in onRequest, before hooks that may wait on a shared store (Redis); else at preHandler. */
  fromRequestStart?: boolean;
}

interface Pending {
  reply: FastifyReply;
  deadline: number;
  /** The answer is on its way (onSend hooks may still be storing it): too late for a 504. */
  answered: boolean;
}

const pendingOf = Symbol('vigil.handlerTimeout');

declare module 'fastify' {
  interface FastifyRequest {
    [pendingOf]: Pending | null;
  }
}

/**
 * How often pending requests are checked. A late answer is at most this much past its deadline;
 * one timer for the whole server instead of a timer, an AbortController and two listeners per request
 * (fastify's own handlerTimeout), which cost a tenth of the throughput of a cached read.
 */
export const TIMEOUT_SWEEP_MS = 25;

const handlerTimeout: FastifyPluginAsync<HandlerTimeoutOptions> = async (app, { defaultMs, fromRequestStart = false }) => {
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
      if (entry.answered || entry.reply.sent) continue;
      if (entry.deadline > now) {
        keep.push(entry);
        continue;
      }
      // The handler may still finish later: its answer, or its error, is dropped (fastify logs an
      // error) because this one is fully written before anything else can run. That holds only while
      // no onSend hook waits on I/O for a 504: a hook that did would leave the reply open, and the
      // handler's late error would then be answered by fastify's own error format.
      entry.reply.send(new VigilError('handler_timeout'));
      // A late answer is expected after a 504, not a bug: once the 504 is written, the reply is
      // marked hijacked so fastify drops the handler's value silently instead of warning
      // "Reply was already sent, did you forget to return reply".
      if (entry.reply.raw.writableEnded) entry.reply.hijack();
    }
    pending = keep;
  };
  const timer = setInterval(sweep, TIMEOUT_SWEEP_MS);
  timer.unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(timer);
    done();
  });

  app.decorateRequest(pendingOf, null);
  const start = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const timeoutMs = request.routeOptions.config.timeoutMs ?? defaultMs;
    const entry = { reply, deadline: Date.now() + timeoutMs, answered: false };
    request[pendingOf] = entry;
    pending.push(entry);
    done();
  };
  // An answer that reached onSend in time is not replaced: a later hook (storing an idempotent
  // answer, a cache entry) may wait on the database or Redis, and a 504 sent meanwhile would be a
  // second answer to one request. Registered before the plugins whose onSend hooks wait, so it runs first.
  app.addHook('onSend', (request, _reply, payload, done) => {
    const entry = request[pendingOf];
    if (entry !== null) entry.answered = true;
    done(null, payload);
  });
  // With shared state in Redis the rate limit and the cache may wait on it, so the clock starts in
  // onRequest (this plugin is registered before them). In process they answer synchronously: the
  // clock starts at preHandler, after the cache, so a cache hit never pays for the bookkeeping
  // (a cached read is the hot path: bench/public-reads.mjs).
  app.addHook(fromRequestStart ? 'onRequest' : 'preHandler', start);
};

/**
 * 504 `request handler timed out` when a handler runs past VIGIL_HANDLER_TIMEOUT_MS, or the route's
 * `config: { timeoutMs }`.
 */
export const handlerTimeoutPlugin = fp(handlerTimeout, { name: 'vigil-handler-timeout', fastify: '5.x' });
