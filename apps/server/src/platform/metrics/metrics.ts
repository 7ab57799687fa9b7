import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's metrics (docs/operations.md lists every one). One registry per process, not
 * prom-client's global one, so nothing a dependency registers leaks into the scrape. Counters
 * are plain increments wherever the event happens, listener or not: the cost of a Map lookup.
 * Gauges that need the database are set on scrape only (database-gauges.ts).
 */
export const metricsRegistry = new Registry();

const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const DB_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 30];

export const httpRequests = new Counter({
  name: 'vigil_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

/**
 * A request refused on its socket before fastify saw it (Node's parser refused it, or CONNECT):
 * counted under route `unmatched`, with method `unparsed` when the parser could not read one. No
 * duration is observed: the request never had a start the server could time.
 */
export function countRefusedBeforeRouting(status: number, method = 'unparsed'): void {
  httpRequests.inc({ method, route: 'unmatched', status: String(status) });
}

export const httpRequestDuration = new Histogram({
  name: 'vigil_http_request_duration_seconds',
  help: 'Time from request received to response sent, by method, route pattern and status class (2xx, 4xx, 5xx).',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: HTTP_BUCKETS,
  registers: [metricsRegistry],
});

export const dbQueryDuration = new Histogram({
  name: 'vigil_db_query_duration_seconds',
  help: 'Database statement time as the client saw it, by statement kind and outcome.',
  labelNames: ['kind', 'outcome'] as const,
  buckets: DB_BUCKETS,
  registers: [metricsRegistry],
});

export const dbPoolAcquireDuration = new Histogram({
  name: 'vigil_db_pool_acquire_duration_seconds',
  help: 'PostgreSQL: time spent waiting for a pooled connection.',
  buckets: DB_BUCKETS,
  registers: [metricsRegistry],
});

/** What `vigil_db_pool_connections` reads; pg's Pool has exactly these counters. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}
const pools = new Set<PoolCounts>();

export const dbPoolConnections = new Gauge({
  name: 'vigil_db_pool_connections',
  help: 'PostgreSQL pool: connections open (total), idle, and requests waiting for one (waiting).',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    let total = 0;
    let idle = 0;
    let waiting = 0;
    for (const pool of pools) {
      total += pool.totalCount;
      idle += pool.idleCount;
      waiting += pool.waitingCount;
    }
    this.set({ state: 'total' }, total);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'waiting' }, waiting);
  },
});

/** Reports a pool in `vigil_db_pool_connections` until the returned function is called. */
export function watchPool(pool: PoolCounts): () => void {
  pools.add(pool);
  return () => pools.delete(pool);
}

/** Where Redis serves: `rate_limit`, `response_cache`, `signature_failures`, `replay_store`. */
export type RedisUse = 'rate_limit' | 'response_cache' | 'signature_failures' | 'replay_store';

export const redisFailures = new Counter({
  name: 'vigil_redis_failures_total',
  help: 'Redis commands that failed or timed out, by use; each use falls back as docs/operations.md says (signed requests get 502).',
  labelNames: ['use'] as const,
  registers: [metricsRegistry],
});

export function countRedisFailure(use: RedisUse): void {
  redisFailures.inc({ use });
}

export const webhookAttempts = new Counter({
  name: 'vigil_webhook_attempts_total',
  help: 'Webhook delivery attempts, by outcome: success (2xx), http_error (another status), no_response (refused address, connect error, timeout).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const webhookAttemptDuration = new Histogram({
  name: 'vigil_webhook_attempt_duration_seconds',
  help: 'Webhook delivery attempt time, connect to answer.',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60, 120],
  registers: [metricsRegistry],
});

/** Counts one attempt: `status` null means no answer came. */
export function countWebhookAttempt(status: number | null, latencyMs: number): void {
  const outcome = status === null ? 'no_response' : status >= 200 && status < 300 ? 'success' : 'http_error';
  webhookAttempts.inc({ outcome });
  webhookAttemptDuration.observe(latencyMs / 1000);
}

export const registryFetchAttempts = new Counter({
  name: 'vigil_registry_fetch_attempts_total',
  help: 'Registry fetch attempts finished by this process, by outcome: stored, retry (tried again later) or failed (for good).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const verifyCacheLookups = new Counter({
  name: 'vigil_verify_cache_lookups_total',
  help: 'References looked up in the verify cache of POST /v1/artifacts/verify and its batch, by result: hit or miss.',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});

let defaultMetricsStarted = false;

/**
 * Process metrics (`process_*`, `nodejs_*`: CPU, memory, event loop lag, GC, handles), started
 * once per process and only when a metrics listener opens: the event-loop monitor is not free.
 */
export function startProcessMetrics(): void {
  if (defaultMetricsStarted) return;
  defaultMetricsStarted = true;
  collectDefaultMetrics({ register: metricsRegistry });
}
