import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { httpRequestDuration, httpRequests } from './metrics.js';

const httpMetrics: FastifyPluginAsync = async (app) => {
  // Callback style: it runs on every response. The route is fastify's pattern
  // (`/v1/rounds/:round_id/scores`), never the raw URL, so labels stay bounded whatever clients
  // send; a request no route matched is `unmatched`.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = request.method;
    const status = reply.statusCode;
    httpRequests.inc({ method, route, status: String(status) });
    httpRequestDuration.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, reply.elapsedTime / 1000);
    done();
  });
};

/** Counts and times every answered request in `vigil_http_requests_total` and `vigil_http_request_duration_seconds`. */
export const httpMetricsPlugin = fp(httpMetrics, { name: 'vigil-http-metrics', fastify: '5.x' });
