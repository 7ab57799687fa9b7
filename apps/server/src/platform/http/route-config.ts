import type { FastifyRequest } from 'fastify';

/** Server-side response caching of one route (plugins/response-cache.ts). */
export interface RouteCacheConfig {
  /** How long a stored body is served unchanged. */
  ttlSeconds: number;
  /**
   * The part of the request the body depends on (e.g. the validated `days`), appended to the route.
   * It runs after the route schema validated the request (invalid input never reaches it: 422 first),
   * so `request.query` and `request.params` hold parsed values. `null` means "do not cache this request".
   */
  key?: (request: FastifyRequest) => string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Cached routes answer `Cache-Control: public, max-age=<remaining>`; the rest `no-store`. */
    cache?: RouteCacheConfig;
    /** Overrides VIGIL_HANDLER_TIMEOUT_MS for this route (504 beyond it). */
    timeoutMs?: number;
    /** `false` exempts the route from the global budget (only /v1/health and /v1/ready, probed by load balancers). */
    rateLimit?: boolean;
    /** An `/v1/admin/*` route: the source IP must be in VIGIL_ADMIN_ALLOWLIST (checked before the key). */
    admin?: boolean;
    /**
     * Replaces VIGIL_BODY_LIMIT_BYTES for this route in the Content-Length check (413 before the body
     * is read): a route that streams its body to storage enforces its own limit while reading.
     */
    bodyLimitBytes?: number;
    /** Adds the per-endpoint budget (VIGIL_ENDPOINT_RATE_LIMIT_PER_MINUTE) on top of the global one. */
    endpointRateLimit?: boolean;
  }
}
