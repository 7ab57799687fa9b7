import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config, TrustProxy } from './config.js';
import { redactSecrets } from './platform/log/redact-secrets.js';
import { createSecretBox } from './platform/secrets/secret-box.js';
import { loadServerIdentity } from './platform/secrets/server-identity.js';
import type { PublicReadService } from './features/network/index.js';
import { connectRedis } from './platform/http/connect-redis.js';
import { bodyGuardPlugin } from './platform/http/plugins/body-guard.js';
import { createMemoryCacheStore, createRedisCacheStore } from './platform/http/plugins/cache-store.js';
import { connectionDrainPlugin } from './platform/http/plugins/connection-drain.js';
import { corsPlugin } from './platform/http/plugins/cors.js';
import { dashboardPlugin } from './features/dashboard/index.js';
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
import { networkRoutesPlugin, type NetworkOptions } from './features/network/index.js';
import { customerRoutesPlugin, type CustomerOptions } from './customer-routes.js';
import { publicRoutesPlugin } from './features/network/index.js';
import { createTransparencyLog, logRoutesPlugin, type TransparencyLog } from './features/log/index.js';
import { zodSerializerCompiler, zodValidatorCompiler } from './platform/http/zod-compilers.js';
import { readinessRoute } from './platform/readiness/index.js';
import { countRefusedBeforeRouting, httpMetricsPlugin } from './platform/metrics/index.js';

export interface BuildAppOptions {
  config: Config;
  readService: PublicReadService;
  /** Server time handed to the read service (24 h windows, countdowns); tests pin it. */
  now?: () => Date;
  /**
   * Shared state for rate-limit counters and the response cache. When absent and `config.redisUrl`
   * is set, the app opens its own client and closes it with the app.
   */
  redis?: Redis;
  /** Where logs go (default stdout); tests capture them here. */
  logStream?: NodeJS.WritableStream;
  /** The signed miner and validator endpoints; absent, only the public API is served. */
  network?: NetworkOptions;
  /** The customer API (API keys, accounts, admin); absent, it is not served. */
  customers?: CustomerOptions;
  /** Count and time every request in the process's metrics (VIGIL_METRICS_PORT set; docs/operations.md). */
  metrics?: boolean;
}

function serverVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** A hop count trusts that many proxies nearest the server (proxy-addr's reading of a number). */
function trustProxyOption(value: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/** The log origin when VIGIL_LOG_ORIGIN is unset: names the server's key, so two servers never share one. */
export function defaultLogOrigin(serverPublicKeyHex: string): string {
  return `vigil/${serverPublicKeyHex}`;
}

/** The Vigil HTTP API, not yet listening: register extra routes or call `listen`/`inject`. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, readService } = options;
  const now = options.now ?? (() => new Date());
  const identity = await loadServerIdentity(config.dataDir);

  const requestsInFlight = new WeakMap<Socket, ServerResponse>();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Every line, as written: the request's url and host, bindings, error messages alike.
      hooks: { streamWrite: redactSecrets },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    genReqId: genRequestId,
    childLoggerFactory: lazyChildLoggerFactory,
    clientErrorHandler: (error, socket) => {
      // Behind a trusted proxy the socket's address is the proxy's, not the client's: not counted.
      if (config.trustProxy === false && socket.remoteAddress !== undefined && app.hasDecorator('countParserRefusal')) {
        app.countParserRefusal(socket.remoteAddress);
      }
      const status = clientErrorHandler(error, socket, requestsInFlight.get(socket));
      if (status !== undefined && options.metrics === true) countRefusedBeforeRouting(status);
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
    if (options.metrics === true) countRefusedBeforeRouting(status, 'CONNECT');
  });
  // An Expect other than 100-continue: Node would answer a bare 417. RFC 9110 lets a server ignore
  // an expectation it does not support, so the request is served like any other.
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));

  let redis = options.redis;
  if (!redis && config.redisUrl) {
    const owned = connectRedis(config.redisUrl, config.redisTimeoutMs);
    redis = owned;
    // Without a listener ioredis prints every reconnect failure; one line per 10 s says enough.
    let lastLogged = 0;
    owned.on('error', (error: Error) => {
      if (Date.now() - lastLogged < 10_000) return;
      lastLogged = Date.now();
      app.log.warn({ err: error }, 'redis connection error; shared state falls back (see docs/configuration.md)');
    });
    app.addHook('onClose', async () => {
      await owned.quit().catch(() => owned.disconnect());
    });
  }

  // Every route declares its params, query, body and responses with @vigil/core's zod schemas:
  // they validate the input, serialize the output and describe the route in /openapi.json.
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);

  app.decorate('vigilConfig', config);
  app.decorate('serverIdentity', { publicKeyHex: identity.publicKeyHex });

  await app.register(requestIdPlugin);
  if (options.metrics === true) await app.register(httpMetricsPlugin);
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
    store: redis ? createRedisCacheStore(redis) : createMemoryCacheStore(() => now().getTime()),
  });
  await app.register(errorsPlugin);
  await app.register(earlyRefusalsPlugin);
  if (config.debug) await app.register(debugDocsPlugin, { production: config.production, version: serverVersion() });
  await app.register(publicRoutesPlugin, { readService, now, serverPublicKeyHex: identity.publicKeyHex });
  // The transparency log (docs/log.md), served wherever the app has the database.
  const logDb = options.customers?.db ?? options.network?.db;
  let log: TransparencyLog | undefined;
  if (logDb !== undefined) {
    await app.register(readinessRoute, { db: logDb, timeoutMs: config.metrics.queryTimeoutMs });
    log = createTransparencyLog({
      db: logDb,
      secretKey: identity.secretKey,
      origin: config.logOrigin ?? defaultLogOrigin(identity.publicKeyHex),
      witnesses: config.logWitnesses,
    });
    await app.register(logRoutesPlugin, { log, now });
  }
  if (options.customers) {
    await app.register(customerRoutesPlugin, {
      ...options.customers,
      now,
      adminAllowlist: config.adminAllowlist,
      scheduler: config.scheduler,
      handlerTimeoutMs: config.handlerTimeoutMs,
      artifactLimitBytes: config.artifactLimitBytes,
      secrets: createSecretBox(identity.secretKey),
      webhooks: config.webhooks,
      serverKey: identity.secretKey,
      watches: { enabled: config.registries.enabled, maxPerAccount: config.registries.watch.maxPerAccount },
      ...(log ? { log } : {}),
    });
  }
  if (options.network) await app.register(networkRoutesPlugin, { ...options.network, redis: options.network.redis ?? redis, now });
  if (config.dashboard.enabled) await app.register(dashboardPlugin, { settings: config.dashboard });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    vigilConfig: Config;
    serverIdentity: { publicKeyHex: string };
  }
}
