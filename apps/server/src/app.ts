import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config, TrustProxy } from './config.js';
import { redactSecrets } from './platform/log/redact-secrets.js';
import { bodyGuardPlugin } from './platform/http/plugins/body-guard.js';
import { createMemoryCacheStore, createRedisCacheStore } from './platform/http/plugins/cache-store.js';
import { connectionDrainPlugin } from './platform/http/plugins/connection-drain.js';
import { corsPlugin } from './platform/http/plugins/cors.js';
import { routes as dashboardRoutes } from './features/dashboard/index.js';
import { debugDocsPlugin } from './platform/http/plugins/debug-docs.js';
import { earlyRefusalsPlugin, frameworkErrors, rewriteRefusedUrl } from './platform/http/plugins/early-refusals.js';
import { errorsPlugin } from './platform/http/plugins/errors.js';
import { handlerTimeoutPlugin } from './platform/http/plugins/handler-timeout.js';
import { rateLimitPlugin } from './platform/http/plugins/rate-limit.js';
import { clientErrorHandler, endSocketWithError, trackRequestsInFlight } from './platform/http/client-error.js';
import { depthBoundedJsonParser } from './platform/http/json-body.js';
import { lazyChildLoggerFactory } from './platform/http/lazy-child-logger.js';
import { genRequestId, requestIdPlugin } from './platform/http/plugins/request-id.js';
import { responseCachePlugin } from './platform/http/plugins/response-cache.js';
import { routes as networkRoutes } from './features/network/index.js';
import { customerRoutesPlugin } from './customer-routes.js';
import { routes as logRoutes } from './features/log/index.js';
import type { Runtime } from './runtime.js';
import { registerRoutes } from './platform/http/route-entry.js';
import { zodSerializerCompiler, zodValidatorCompiler } from './platform/http/zod-compilers.js';
import { routes as readinessRoutes } from './platform/readiness/index.js';
import { countRefusedBeforeRouting, httpMetricsPlugin } from './platform/metrics/index.js';
import { activeTracer, tracingPlugin } from './platform/tracing/index.js';

function serverVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** A hop count trusts that many proxies nearest the server (proxy-addr's reading of a number). */
function trustProxyOption(value: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/**
 * The Vigil HTTP API over a runtime, not yet listening: register extra routes or call `listen`/`inject`.
 * Every feature is registered, always; only a setting turns one off (VIGIL_ADMIN_ALLOWLIST empty,
 * VIGIL_DASHBOARD, VIGIL_DEBUG, VIGIL_REGISTRY_FETCH). Closing the app leaves the runtime open.
 */
export async function buildApp(runtime: Runtime): Promise<FastifyInstance> {
  const { config, identity, redis, metrics, clock } = runtime;

  const requestsInFlight = new WeakMap<Socket, ServerResponse>();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Every line, as written: the request's url and host, bindings, error messages alike.
      hooks: { streamWrite: redactSecrets },
      ...(runtime.logStream ? { stream: runtime.logStream } : {}),
    },
    genReqId: genRequestId,
    childLoggerFactory: lazyChildLoggerFactory,
    clientErrorHandler: (error, socket) => {
      // Behind a trusted proxy the socket's address is the proxy's, not the client's: not counted.
      if (config.trustProxy === false && socket.remoteAddress !== undefined && app.hasDecorator('countParserRefusal')) {
        app.countParserRefusal(socket.remoteAddress);
      }
      const status = clientErrorHandler(error, socket, requestsInFlight.get(socket));
      if (status !== undefined && metrics) countRefusedBeforeRouting(status);
    },
    requestIdHeader: false,
    // A client must deliver its whole request in time (a body that stalls is cut off with 408); Node
    // checks pending requests on this interval, so keep it well under the timeout.
    requestTimeout: config.requestTimeoutMs,
    http: {
      // Node times a request out only when headersTimeout ≤ requestTimeout (its own default is 60 s).
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(config.requestTimeoutMs / 4))),
      // A missing Host is refused through the error handler (early-refusals), not by Node with an empty 400.
      requireHostHeader: false,
    },
    rewriteUrl: rewriteRefusedUrl,
    frameworkErrors,
    // Node caps a request line near 16 KiB anyway. A long round id or hotkey reaches its handler,
    // which answers what docs/api.md promises (404, or the empty shell), instead of the router's 414.
    routerOptions: { maxParamLength: 16_384 },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
    // While draining, requests on open keep-alive connections are still served (with Connection: close)
    // rather than answered by fastify's own 503 body, which is not in the error catalogue.
    return503OnClosing: false,
  });

  trackRequestsInFlight(app.server, requestsInFlight);

  // fastify parses text/plain bodies into a string by default, which a JSON route's schema then
  // refuses with a confusing 422. No route reads text: such a body is 415, as any type not read is.
  app.removeContentTypeParser('text/plain');
  // JSON nested deeper than MAX_JSON_DEPTH is refused before it is parsed, in every scope that
  // inherits this parser (the signed routes' parser and the GitHub hook check the same limit).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, depthBoundedJsonParser(app));

  // CONNECT never reaches a route (Node hands it to a 'connect' listener or drops the socket with
  // no answer): refuse it like any request, with a catalogue body and an x-request-id.
  app.server.on('connect', (_request: unknown, socket: Socket) => {
    const status = endSocketWithError(socket, 'method_not_allowed');
    if (metrics) countRefusedBeforeRouting(status, 'CONNECT');
  });
  // An Expect other than 100-continue: Node would answer a bare 417. RFC 9110 lets a server ignore
  // an expectation it does not support, so the request is served like any other.
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));

  // Every route declares its params, query, body and responses with @vigil/core's zod schemas:
  // they validate the input, serialize the output and describe the route in /openapi.json.
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);

  app.decorate('vigilConfig', config);
  app.decorate('serverIdentity', { publicKeyHex: identity.publicKeyHex });
  // The process's log (Redis and database connection errors, workers) goes where the app's goes.
  if (!runtime.log.attached) runtime.log.attach(app.log);

  await app.register(requestIdPlugin);
  // Only with a tracer provider registered (a preloaded OpenTelemetry SDK): otherwise no hook at all.
  const tracer = activeTracer();
  if (tracer) await app.register(tracingPlugin, { tracer });
  if (metrics) await app.register(httpMetricsPlugin);
  // First of the hooks that can wait (rate limits and the cache may wait on Redis): the timeout
  // covers them as well as the handler.
  await app.register(handlerTimeoutPlugin, { defaultMs: config.handlerTimeoutMs, fromRequestStart: redis !== undefined });
  await app.register(connectionDrainPlugin);
  await app.register(bodyGuardPlugin, { limitBytes: config.bodyLimitBytes });
  await app.register(corsPlugin, { origins: config.corsOrigins });
  await app.register(rateLimitPlugin, {
    perMinute: config.rateLimitPerMinute,
    endpointPerMinute: config.endpointRateLimitPerMinute,
    redis,
  });
  // The in-process store ages entries on the app's clock; Redis expires them on its own.
  await app.register(responseCachePlugin, {
    store: redis ? createRedisCacheStore(redis) : createMemoryCacheStore(clock),
  });
  await app.register(errorsPlugin);
  await app.register(earlyRefusalsPlugin);
  if (config.debug) await app.register(debugDocsPlugin, { production: config.production, version: serverVersion() });
  // The routes, in registration order (the order the router and /openapi.json keep): the public
  // reads, readiness and the log; the customer scope (customer-routes.ts, the admin API inside it);
  // the signed network API; the dashboard's pages.
  await registerRoutes(app, runtime, 'public', [networkRoutes, readinessRoutes, logRoutes]);
  await app.register(customerRoutesPlugin, { runtime });
  await registerRoutes(app, runtime, 'network', [networkRoutes]);
  await registerRoutes(app, runtime, 'public', [dashboardRoutes]);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    vigilConfig: Config;
    serverIdentity: { publicKeyHex: string };
  }
}
