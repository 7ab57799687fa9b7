import fastifyCors from '@fastify/cors';
import { HEADERS, IDEMPOTENCY_HEADERS } from '@vigil/core';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export interface CorsPluginOptions {
  /** Exact origins allowed to call from a browser; empty means no browser access. */
  origins: string[];
}

const cors: FastifyPluginAsync<CorsPluginOptions> = async (app, { origins }) => {
  // No origins, no browser access: nothing to add to any response, so nothing runs per request
  // (a preflight then meets the 404 of an unknown route, which a browser treats as a refusal).
  if (origins.length === 0) return;
  await app.register(fastifyCors, {
    // Exact matches only; a disallowed origin gets no Access-Control-* headers. Server-side calls
    // (no Origin) are unaffected.
    origin: origins,
    methods: ['GET', 'POST', 'DELETE'],
    credentials: false,
    // Idempotent-Replayed too: a browser client must be able to tell a replayed answer from a fresh one.
    exposedHeaders: [HEADERS.requestId, HEADERS.retryAfter, HEADERS.page, HEADERS.pageSize, HEADERS.nextPage, IDEMPOTENCY_HEADERS.replayed],
    maxAge: 600,
  });
};

/** Browser access limited to VIGIL_CORS_ORIGINS; methods GET, POST, DELETE; never credentials. */
export const corsPlugin = fp(cors, { name: 'vigil-cors', fastify: '5.x' });
