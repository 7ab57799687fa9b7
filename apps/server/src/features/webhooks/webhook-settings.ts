import { ConfigError } from '../../platform/config/config-error.js';
import { envInteger, envText, type Env } from '../../platform/config/env.js';

export interface WebhookSettings {
  /** VIGIL_WEBHOOK_WORKER: whether `serve` also delivers webhooks (a `worker` process always does). */
  runInServe: boolean;
  /** VIGIL_WEBHOOK_TIMEOUT_MS: one attempt's limit, connect to last byte read. */
  timeoutMs: number;
  /** VIGIL_WEBHOOK_CONCURRENCY: attempts in flight in one worker process. */
  concurrency: number;
  /** VIGIL_WEBHOOK_ENDPOINT_CONCURRENCY: attempts in flight to one endpoint, across every worker. */
  endpointConcurrency: number;
  /** VIGIL_WEBHOOK_ACCOUNT_CONCURRENCY: attempts in flight to one account's endpoints together, across every worker. */
  accountConcurrency: number;
  /** VIGIL_WEBHOOK_POLL_MS: how often an idle worker looks for new events and due retries. */
  pollMs: number;
  /** VIGIL_WEBHOOK_ALLOW_HTTP: accept `http://` endpoint URLs (development). */
  allowHttp: boolean;
  /** VIGIL_WEBHOOK_ALLOW_PRIVATE: accept and reach private, loopback and link-local addresses (development). */
  allowPrivate: boolean;
  /** VIGIL_EVENT_RETENTION_DAYS: how long fanned-out events (and finished deliveries) are kept. */
  retentionDays: number;
  /** VIGIL_WEBHOOK_MAX_ENDPOINTS: endpoints one account may have at once (paused and disabled ones included). */
  maxEndpointsPerAccount: number;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 15_000;
export const DEFAULT_WEBHOOK_CONCURRENCY = 32;
export const DEFAULT_WEBHOOK_ENDPOINT_CONCURRENCY = 4;
export const DEFAULT_WEBHOOK_ACCOUNT_CONCURRENCY = 8;
export const DEFAULT_WEBHOOK_POLL_MS = 250;
export const DEFAULT_EVENT_RETENTION_DAYS = 30;
export const DEFAULT_WEBHOOK_MAX_ENDPOINTS = 25;

/** Every variable `webhookSettingsFromEnv` reads, with its default and what it accepts. */
export const WEBHOOK_VARIABLES = [
  { name: 'VIGIL_WEBHOOK_WORKER', default: 'true', accepts: 'true or false: whether `serve` also delivers webhooks (`worker` always does)' },
  { name: 'VIGIL_WEBHOOK_TIMEOUT_MS', default: String(DEFAULT_WEBHOOK_TIMEOUT_MS), accepts: 'integer 100-120000: one delivery attempt, connect to answer' },
  { name: 'VIGIL_WEBHOOK_CONCURRENCY', default: String(DEFAULT_WEBHOOK_CONCURRENCY), accepts: 'integer 1-1000: attempts in flight per worker process' },
  {
    name: 'VIGIL_WEBHOOK_ENDPOINT_CONCURRENCY',
    default: String(DEFAULT_WEBHOOK_ENDPOINT_CONCURRENCY),
    accepts: 'integer 1-100: attempts in flight to one endpoint, across all workers',
  },
  {
    name: 'VIGIL_WEBHOOK_ACCOUNT_CONCURRENCY',
    default: String(DEFAULT_WEBHOOK_ACCOUNT_CONCURRENCY),
    accepts: "integer 1-1000: attempts in flight to one account's endpoints together, across all workers",
  },
  { name: 'VIGIL_WEBHOOK_POLL_MS', default: String(DEFAULT_WEBHOOK_POLL_MS), accepts: 'integer 10-60000: how often an idle worker looks for events and due retries' },
  { name: 'VIGIL_WEBHOOK_ALLOW_HTTP', default: 'false', accepts: 'true or false: accept http:// endpoint URLs (development only)' },
  {
    name: 'VIGIL_WEBHOOK_ALLOW_PRIVATE',
    default: 'false',
    accepts: 'true or false: accept and deliver to loopback, private, link-local and other non-public addresses (development only)',
  },
  { name: 'VIGIL_EVENT_RETENTION_DAYS', default: String(DEFAULT_EVENT_RETENTION_DAYS), accepts: 'integer 1-3650: days events and finished deliveries are kept' },
  {
    name: 'VIGIL_WEBHOOK_MAX_ENDPOINTS',
    default: String(DEFAULT_WEBHOOK_MAX_ENDPOINTS),
    accepts: 'integer 1-10000: webhook endpoints one account may have at once; one more is 409 webhook endpoint limit reached',
  },
] as const;

function flag(env: Env, name: string, fallback: boolean): boolean {
  const text = envText(env, name);
  if (text === undefined) return fallback;
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw new ConfigError(name, `expected true or false, got ${JSON.stringify(text)}`);
}

export function webhookSettingsFromEnv(env: Env = process.env): WebhookSettings {
  return {
    runInServe: flag(env, 'VIGIL_WEBHOOK_WORKER', true),
    timeoutMs: envInteger(env, 'VIGIL_WEBHOOK_TIMEOUT_MS', DEFAULT_WEBHOOK_TIMEOUT_MS, { min: 100, max: 120_000, expected: 'an integer 100-120000' }),
    concurrency: envInteger(env, 'VIGIL_WEBHOOK_CONCURRENCY', DEFAULT_WEBHOOK_CONCURRENCY, { min: 1, max: 1000, expected: 'an integer 1-1000' }),
    endpointConcurrency: envInteger(env, 'VIGIL_WEBHOOK_ENDPOINT_CONCURRENCY', DEFAULT_WEBHOOK_ENDPOINT_CONCURRENCY, { min: 1, max: 100, expected: 'an integer 1-100' }),
    accountConcurrency: envInteger(env, 'VIGIL_WEBHOOK_ACCOUNT_CONCURRENCY', DEFAULT_WEBHOOK_ACCOUNT_CONCURRENCY, { min: 1, max: 1000, expected: 'an integer 1-1000' }),
    pollMs: envInteger(env, 'VIGIL_WEBHOOK_POLL_MS', DEFAULT_WEBHOOK_POLL_MS, { min: 10, max: 60_000, expected: 'an integer 10-60000' }),
    allowHttp: flag(env, 'VIGIL_WEBHOOK_ALLOW_HTTP', false),
    allowPrivate: flag(env, 'VIGIL_WEBHOOK_ALLOW_PRIVATE', false),
    retentionDays: envInteger(env, 'VIGIL_EVENT_RETENTION_DAYS', DEFAULT_EVENT_RETENTION_DAYS, { min: 1, max: 3650, expected: 'an integer 1-3650' }),
    maxEndpointsPerAccount: envInteger(env, 'VIGIL_WEBHOOK_MAX_ENDPOINTS', DEFAULT_WEBHOOK_MAX_ENDPOINTS, { min: 1, max: 10_000, expected: 'an integer 1-10000' }),
  };
}
