import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { LIMITS } from '@vigil/core';
import { isValidKeyName, parseVerifierKey, SIGNATURE_TYPE_COSIGNATURE_V1 } from '@vigil/tlog';
import { z } from 'zod';
import { ConfigError } from './platform/config/config-error.js';
import { envText } from './platform/config/env.js';
import { DEFAULT_DB_CONNECT_TIMEOUT_MS, DEFAULT_DB_MIGRATION_STATEMENT_TIMEOUT_MS, DEFAULT_DB_STATEMENT_TIMEOUT_MS } from './platform/db/database.js';
import { DEFAULT_MIGRATION_LOCK_TIMEOUT_MS } from './platform/db/migrate.js';
import { redactUrl } from './platform/log/redact-url.js';
import { DEMO_HISTORY_DAYS, MIN_DEMO_HISTORY_DAYS } from './seed/demo-history.js';
import { SIGNED_AUTH_VARIABLES, signedAuthSettingsFromEnv, type SignedAuthSettings } from './features/network/index.js';
import { METAGRAPH_VARIABLES, metagraphSettingsFromEnv, type MetagraphSettings } from './features/network/index.js';
import { REPOSITORY_WORKER_VARIABLES, repositoryWorkerSettingsFromEnv, type RepositoryWorkerSettings } from './features/repositories/index.js';
import { WEBHOOK_VARIABLES, webhookSettingsFromEnv, type WebhookSettings } from './features/webhooks/index.js';
import { REGISTRY_FETCH_VARIABLES, registryFetchSettingsFromEnv, type RegistryFetchSettings } from './features/registries/index.js';
import { SCHEDULER_VARIABLES, schedulerSettingsFromEnv, type SchedulerSettings } from './features/network/index.js';
import { METRICS_VARIABLES, metricsSettingsFromEnv, type MetricsSettings } from './platform/metrics/index.js';
import { DASHBOARD_VARIABLES, dashboardSettingsFromEnv, type DashboardSettings } from './features/dashboard/index.js';
import { BLOB_STORE_VARIABLES, blobStoreSettingsFromEnv, type BlobStoreSettings } from './platform/blobs/blob-store-settings.js';

export { ConfigError };

/** How often `serve` signs a checkpoint when VIGIL_LOG_CHECKPOINT_INTERVAL_MS is unset: one minute. */
export const DEFAULT_LOG_CHECKPOINT_INTERVAL_MS = 60_000;


/** 16 MiB: ample for an agent's source, small enough that a bundle never strains memory. */
export const DEFAULT_BUNDLE_LIMIT_BYTES = 16 * 1024 * 1024;
/** VIGIL_ARTIFACT_LIMIT_BYTES: the largest artifact a customer may upload (docs/artifacts.md). */
export const DEFAULT_ARTIFACT_LIMIT_BYTES = 64 * 1024 * 1024;
/** Generous for a 16 MiB bundle on a slow link; a client that stalls mid-body is cut off. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_DRAIN_IDLE_MS = 1_000;
export const DEFAULT_REDIS_TIMEOUT_MS = 1_000;


export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `false`, `true` (trust every hop), a hop count, or the proxy addresses/CIDRs to trust. */
export type TrustProxy = boolean | number | string[];

export interface Config {
  port: number;
  host: string;
  /** Undefined means the embedded SQLite database under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  rateLimitPerMinute: number;
  endpointRateLimitPerMinute: number;
  bodyLimitBytes: number;
  handlerTimeoutMs: number;
  /** VIGIL_REQUEST_TIMEOUT_MS: the longest a client may take to send a whole request (headers and body). */
  requestTimeoutMs: number;
  /** VIGIL_DRAIN_IDLE_MS: on SIGTERM, how long open keep-alive connections may still send a request. */
  drainIdleMs: number;
  /** VIGIL_DB_CONNECT_TIMEOUT_MS (PostgreSQL). */
  dbConnectTimeoutMs: number;
  /** VIGIL_DB_STATEMENT_TIMEOUT_MS (PostgreSQL). */
  dbStatementTimeoutMs: number;
  /** VIGIL_DB_MIGRATION_STATEMENT_TIMEOUT_MS (PostgreSQL): the same bound for migration statements. */
  dbMigrationStatementTimeoutMs: number;
  /** VIGIL_REDIS_TIMEOUT_MS: the longest any Redis command may take before its documented fallback applies. */
  redisTimeoutMs: number;
  /** VIGIL_MIGRATION_LOCK_TIMEOUT_MS: how long migrations wait while another process migrates the database. */
  migrationLockTimeoutMs: number;
  corsOrigins: string[];
  trustProxy: TrustProxy;
  /** VIGIL_LOG_ORIGIN: the transparency log's origin line and key name; undefined means `vigil/<server_hotkey>` (docs/log.md). */
  logOrigin: string | undefined;
  /** VIGIL_LOG_WITNESSES: witness verifier keys (type 0x04) whose checkpoint cosignatures the server keeps and serves. */
  logWitnesses: string[];
  /** VIGIL_LOG_CHECKPOINT_INTERVAL_MS: `serve` signs and keeps a checkpoint this often (docs/log.md). */
  logCheckpointIntervalMs: number;
  /** VIGIL_ADMIN_ALLOWLIST: IPs and CIDRs that may call /v1/admin/*; empty means the admin API is not served. */
  adminAllowlist: string[];
  debug: boolean;
  logLevel: LogLevel;
  production: boolean;
  /** VIGIL_BUNDLE_LIMIT_BYTES: the largest agent bundle a miner may upload. */
  bundleLimitBytes: number;
  /** VIGIL_ARTIFACT_LIMIT_BYTES: the largest artifact `POST /v1/artifacts` accepts (413 beyond). */
  artifactLimitBytes: number;
  /** Days of round history the demo seed writes (`seed --demo`, `serve --seed-demo-if-empty`). */
  demoHistoryDays: number;
  /** VIGIL_SCHEDULER: whether `serve` also advances rounds (a `worker` process always does). */
  runScheduler: boolean;
  metagraph: MetagraphSettings;
  signedAuth: SignedAuthSettings;
  scheduler: SchedulerSettings;
  /** Repository push verification: the worker and the GitHub client (docs/repositories.md). */
  repositories: RepositoryWorkerSettings;
  /** The web dashboard at `/` (docs/dashboard.md). */
  dashboard: DashboardSettings;
  /** Webhook delivery and the URL rules of endpoints (docs/webhooks.md). */
  webhooks: WebhookSettings;
  /** On-demand registry fetching: registries, tokens, the fetch worker (docs/registries.md). */
  registries: RegistryFetchSettings;
  /** Where artifact files and agent bundles live: local disk or an S3 bucket (docs/storage.md). */
  blobs: BlobStoreSettings;
  /** The metrics listener and readiness checks (docs/operations.md). */
  metrics: MetricsSettings;
}

/** Every variable `loadConfig` reads, with its default and what it accepts (also shown by `vigil-server help`). */
export const CONFIG_VARIABLES = [
  { name: 'PORT', default: '8080', accepts: 'integer 1-65535' },
  { name: 'HOST', default: '0.0.0.0', accepts: 'address or host name to listen on' },
  {
    name: 'DATABASE_URL',
    default: 'SQLite file <VIGIL_DATA_DIR>/vigil.db',
    accepts: 'postgres://…, postgresql://…, sqlite:<file>, :memory: or sqlite::memory:',
  },
  { name: 'VIGIL_DATA_DIR', default: './.vigil', accepts: 'directory (created if missing)' },
  { name: 'REDIS_URL', default: 'unset (in-process state)', accepts: 'redis://… or rediss://…' },
  { name: 'VIGIL_RATE_LIMIT_PER_MINUTE', default: String(LIMITS.globalRateLimitPerMinute), accepts: 'integer ≥ 1' },
  {
    name: 'VIGIL_ENDPOINT_RATE_LIMIT_PER_MINUTE',
    default: String(LIMITS.endpointRateLimitPerMinute),
    accepts: 'integer ≥ 1',
  },
  { name: 'VIGIL_BODY_LIMIT_BYTES', default: String(LIMITS.bodyLimitBytes), accepts: 'integer ≥ 1' },
  { name: 'VIGIL_HANDLER_TIMEOUT_MS', default: String(LIMITS.handlerTimeoutMs), accepts: 'integer ≥ 1' },
  {
    name: 'VIGIL_REQUEST_TIMEOUT_MS',
    default: String(DEFAULT_REQUEST_TIMEOUT_MS),
    accepts: 'integer ≥ 100: a client must send its whole request (headers and body) within this, else 408',
  },
  {
    name: 'VIGIL_DRAIN_IDLE_MS',
    default: String(DEFAULT_DRAIN_IDLE_MS),
    accepts: 'integer ≥ 0: on SIGTERM, how long open keep-alive connections may still send a request (answered with Connection: close)',
  },
  {
    name: 'VIGIL_DB_CONNECT_TIMEOUT_MS',
    default: String(DEFAULT_DB_CONNECT_TIMEOUT_MS),
    accepts: 'integer ≥ 1: PostgreSQL, wait this long for a connection, then 502',
  },
  {
    name: 'VIGIL_DB_STATEMENT_TIMEOUT_MS',
    default: String(DEFAULT_DB_STATEMENT_TIMEOUT_MS),
    accepts: 'integer ≥ 1: PostgreSQL statement_timeout; a silent server is given up 1 s later (502)',
  },
  {
    name: 'VIGIL_DB_MIGRATION_STATEMENT_TIMEOUT_MS',
    default: String(DEFAULT_DB_MIGRATION_STATEMENT_TIMEOUT_MS),
    accepts: 'integer ≥ 1: PostgreSQL statement_timeout of each migration statement (its own connection); a silent server is given up 1 s later',
  },
  {
    name: 'VIGIL_REDIS_TIMEOUT_MS',
    default: String(DEFAULT_REDIS_TIMEOUT_MS),
    accepts: 'integer ≥ 1: longest Redis command (and connect); past it the documented fallback applies',
  },
  {
    name: 'VIGIL_MIGRATION_LOCK_TIMEOUT_MS',
    default: String(DEFAULT_MIGRATION_LOCK_TIMEOUT_MS),
    accepts: 'integer 1-2147483647: how long migrations wait for another process migrating the same database, then exit 1',
  },
  { name: 'VIGIL_CORS_ORIGINS', default: 'none', accepts: 'comma-separated origins, e.g. https://a.example' },
  { name: 'VIGIL_TRUST_PROXY', default: 'false', accepts: 'false, true, a hop count, or comma-separated IPs/CIDRs' },
  {
    name: 'VIGIL_LOG_ORIGIN',
    default: 'vigil/<server_hotkey>',
    accepts: 'the transparency log origin and key name: no +, no whitespace, e.g. vigil.example.com/log',
  },
  {
    name: 'VIGIL_LOG_WITNESSES',
    default: 'none (cosignatures refused)',
    accepts: 'comma-separated witness verifier keys of type 0x04 (C2SP tlog-cosignature): <name>+<key id>+<base64>',
  },
  {
    name: 'VIGIL_LOG_CHECKPOINT_INTERVAL_MS',
    default: String(DEFAULT_LOG_CHECKPOINT_INTERVAL_MS),
    accepts: 'integer 1000-86400000: how often `serve` signs and keeps a checkpoint of the log',
  },
  {
    name: 'VIGIL_ADMIN_ALLOWLIST',
    default: 'empty (admin API not served)',
    accepts: 'comma-separated IPs/CIDRs allowed to call /v1/admin/* (with an admin-scoped key)',
  },
  { name: 'VIGIL_DEBUG', default: 'false', accepts: 'true or false; refused when NODE_ENV=production' },
  { name: 'LOG_LEVEL', default: 'info', accepts: LOG_LEVELS.join(', ') },
  { name: 'VIGIL_BUNDLE_LIMIT_BYTES', default: String(DEFAULT_BUNDLE_LIMIT_BYTES), accepts: 'integer ≥ 1: largest agent bundle a miner may upload' },
  { name: 'VIGIL_ARTIFACT_LIMIT_BYTES', default: String(DEFAULT_ARTIFACT_LIMIT_BYTES), accepts: 'integer ≥ 1: largest artifact a customer may upload (POST /v1/artifacts)' },
  { name: 'VIGIL_SCHEDULER', default: 'true', accepts: 'true or false: whether `serve` also advances rounds (`worker` always does)' },
  {
    name: 'VIGIL_DEMO_HISTORY_DAYS',
    default: String(DEMO_HISTORY_DAYS),
    accepts: `integer ${MIN_DEMO_HISTORY_DAYS}-365: days of rounds the demo seed writes (seed --demo, serve --seed-demo-if-empty)`,
  },
  { name: 'NODE_ENV', default: 'unset', accepts: '`production` refuses VIGIL_DEBUG' },
] as const;

/** Every variable the server reads: its own and those of the metagraph, signed requests and the scheduler. */
export const ALL_CONFIG_VARIABLES = [
  ...CONFIG_VARIABLES,
  ...METAGRAPH_VARIABLES,
  ...SIGNED_AUTH_VARIABLES,
  ...SCHEDULER_VARIABLES,
  ...REPOSITORY_WORKER_VARIABLES,
  ...DASHBOARD_VARIABLES,
  ...WEBHOOK_VARIABLES,
  ...REGISTRY_FETCH_VARIABLES,
  ...BLOB_STORE_VARIABLES,
  ...METRICS_VARIABLES,
];

const INT_RE = /^\d+$/;

/** A witness's verifier key: a valid vkey of type 0x04 (a log's 0x01 key is never a witness). */
function isWitnessKey(text: string): boolean {
  try {
    return parseVerifierKey(text).type === SIGNATURE_TYPE_COSIGNATURE_V1;
  } catch {
    return false;
  }
}

function intIn(min: number, max: number) {
  return z.string().refine((text) => {
    if (!INT_RE.test(text)) return false;
    const n = Number(text);
    return Number.isSafeInteger(n) && n >= min && n <= max;
  }, max === Number.MAX_SAFE_INTEGER ? `expected an integer >= ${min}` : `expected an integer ${min}-${max}`);
}

const BOOLEAN_TEXT = { true: true, false: false, '1': true, '0': false } as const;
const booleanText = z.enum(['true', 'false', '1', '0'], { error: 'expected true or false' });

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
  } catch {
    return false;
  }
}

function isIpOrCidr(text: string): boolean {
  const [address, prefix, ...rest] = text.split('/');
  if (rest.length > 0 || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!INT_RE.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

function isDatabaseUrl(text: string): boolean {
  if (text === ':memory:') return true;
  if (text.startsWith('sqlite:')) return text.length > 'sqlite:'.length;
  try {
    const url = new URL(text);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isRedisUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'redis:' || url.protocol === 'rediss:';
  } catch {
    return false;
  }
}

const commaList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** One schema per variable, so the first failing one is reported by name. */
const VARIABLES = {
  PORT: intIn(1, 65535),
  HOST: z.string().regex(/^\S+$/, 'expected an address without spaces'),
  DATABASE_URL: z
    .string()
    .refine(isDatabaseUrl, 'expected postgres://…, postgresql://…, sqlite:<file>, :memory: or sqlite::memory:'),
  VIGIL_DATA_DIR: z.string(),
  REDIS_URL: z.string().refine(isRedisUrl, 'expected redis://… or rediss://…'),
  VIGIL_RATE_LIMIT_PER_MINUTE: intIn(1, Number.MAX_SAFE_INTEGER),
  VIGIL_ENDPOINT_RATE_LIMIT_PER_MINUTE: intIn(1, Number.MAX_SAFE_INTEGER),
  VIGIL_BODY_LIMIT_BYTES: intIn(1, Number.MAX_SAFE_INTEGER),
  // setTimeout's ceiling (2^31 - 1 ms); beyond it Node fires at once.
  VIGIL_HANDLER_TIMEOUT_MS: intIn(1, 2_147_483_647),
  VIGIL_REQUEST_TIMEOUT_MS: intIn(100, 2_147_483_647),
  VIGIL_DRAIN_IDLE_MS: intIn(0, 2_147_483_647),
  VIGIL_DB_CONNECT_TIMEOUT_MS: intIn(1, 2_147_483_647),
  VIGIL_DB_STATEMENT_TIMEOUT_MS: intIn(1, 2_147_483_647),
  VIGIL_DB_MIGRATION_STATEMENT_TIMEOUT_MS: intIn(1, 2_147_483_647),
  VIGIL_REDIS_TIMEOUT_MS: intIn(1, 2_147_483_647),
  VIGIL_MIGRATION_LOCK_TIMEOUT_MS: intIn(1, 2_147_483_647),
  VIGIL_CORS_ORIGINS: z
    .string()
    .refine(
      (text) => commaList(text).every(isOrigin),
      'expected comma-separated origins like https://app.example.com (scheme, host, optional port; no path)',
    ),
  VIGIL_TRUST_PROXY: z
    .string()
    .refine(
      (text) =>
        text === 'true' ||
        text === 'false' ||
        INT_RE.test(text) ||
        (commaList(text).length > 0 && commaList(text).every(isIpOrCidr)),
      'expected false, true, a hop count, or comma-separated IP addresses/CIDRs',
    ),
  VIGIL_LOG_ORIGIN: z.string().refine(isValidKeyName, 'expected a key name: no +, no whitespace (a schema-less URL such as vigil.example.com/log)'),
  VIGIL_LOG_WITNESSES: z.string().refine(
    (text) => commaList(text).length > 0 && commaList(text).every(isWitnessKey),
    'expected comma-separated witness verifier keys of type 0x04 (<name>+<8 hex key id>+<base64 of 0x04 and the 32-byte key>)',
  ),
  VIGIL_LOG_CHECKPOINT_INTERVAL_MS: intIn(1000, 86_400_000),
  VIGIL_ADMIN_ALLOWLIST: z
    .string()
    .refine((text) => commaList(text).every(isIpOrCidr), 'expected comma-separated IP addresses/CIDRs'),
  VIGIL_DEBUG: booleanText,
  VIGIL_BUNDLE_LIMIT_BYTES: intIn(1, Number.MAX_SAFE_INTEGER),
  VIGIL_ARTIFACT_LIMIT_BYTES: intIn(1, Number.MAX_SAFE_INTEGER),
  VIGIL_SCHEDULER: booleanText,
  VIGIL_DEMO_HISTORY_DAYS: intIn(MIN_DEMO_HISTORY_DAYS, 365),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }),
} as const;

type VariableName = keyof typeof VARIABLES;

/**
 * Reads and validates the server's environment. Unset and empty variables take their defaults;
 * the first invalid one throws a `ConfigError` whose message names it and quotes the bad value.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const read = (name: VariableName): string | undefined => {
    const text = envText(env, name);
    if (text === undefined) return undefined;
    const raw = env[name] as string;
    const result = VARIABLES[name].safeParse(text);
    if (!result.success) {
      const message = result.error.issues[0]?.message ?? 'invalid value';
      // A connection URL may carry a password: never echo it.
      const shown = name === 'DATABASE_URL' || name === 'REDIS_URL' ? redactUrl(raw) : raw;
      throw new ConfigError(name, `${message}, got ${JSON.stringify(shown)}`);
    }
    return text;
  };
  const int = (name: VariableName, fallback: number): number => {
    const text = read(name);
    return text === undefined ? fallback : Number(text);
  };

  const production = envText(env, 'NODE_ENV') === 'production';
  const debugText = read('VIGIL_DEBUG');
  const debug = debugText === undefined ? false : BOOLEAN_TEXT[debugText as keyof typeof BOOLEAN_TEXT];
  if (debug && production) {
    throw new ConfigError('VIGIL_DEBUG', 'debug mode (/docs, /redoc, /openapi.json) is refused when NODE_ENV=production');
  }

  const dataDir = resolve(cwd, read('VIGIL_DATA_DIR') ?? '.vigil');
  const schedulerText = read('VIGIL_SCHEDULER');
  return {
    port: int('PORT', 8080),
    host: read('HOST') ?? '0.0.0.0',
    databaseUrl: read('DATABASE_URL'),
    dataDir,
    redisUrl: read('REDIS_URL'),
    rateLimitPerMinute: int('VIGIL_RATE_LIMIT_PER_MINUTE', LIMITS.globalRateLimitPerMinute),
    endpointRateLimitPerMinute: int('VIGIL_ENDPOINT_RATE_LIMIT_PER_MINUTE', LIMITS.endpointRateLimitPerMinute),
    bodyLimitBytes: int('VIGIL_BODY_LIMIT_BYTES', LIMITS.bodyLimitBytes),
    handlerTimeoutMs: int('VIGIL_HANDLER_TIMEOUT_MS', LIMITS.handlerTimeoutMs),
    requestTimeoutMs: int('VIGIL_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS),
    drainIdleMs: int('VIGIL_DRAIN_IDLE_MS', DEFAULT_DRAIN_IDLE_MS),
    dbConnectTimeoutMs: int('VIGIL_DB_CONNECT_TIMEOUT_MS', DEFAULT_DB_CONNECT_TIMEOUT_MS),
    dbStatementTimeoutMs: int('VIGIL_DB_STATEMENT_TIMEOUT_MS', DEFAULT_DB_STATEMENT_TIMEOUT_MS),
    dbMigrationStatementTimeoutMs: int('VIGIL_DB_MIGRATION_STATEMENT_TIMEOUT_MS', DEFAULT_DB_MIGRATION_STATEMENT_TIMEOUT_MS),
    redisTimeoutMs: int('VIGIL_REDIS_TIMEOUT_MS', DEFAULT_REDIS_TIMEOUT_MS),
    migrationLockTimeoutMs: int('VIGIL_MIGRATION_LOCK_TIMEOUT_MS', DEFAULT_MIGRATION_LOCK_TIMEOUT_MS),
    corsOrigins: commaList(read('VIGIL_CORS_ORIGINS') ?? ''),
    trustProxy: parseTrustProxy(read('VIGIL_TRUST_PROXY')),
    adminAllowlist: commaList(read('VIGIL_ADMIN_ALLOWLIST') ?? ''),
    logOrigin: read('VIGIL_LOG_ORIGIN'),
    logWitnesses: commaList(read('VIGIL_LOG_WITNESSES') ?? ''),
    logCheckpointIntervalMs: int('VIGIL_LOG_CHECKPOINT_INTERVAL_MS', DEFAULT_LOG_CHECKPOINT_INTERVAL_MS),
    debug,
    logLevel: (read('LOG_LEVEL') ?? 'info') as LogLevel,
    production,
    bundleLimitBytes: int('VIGIL_BUNDLE_LIMIT_BYTES', DEFAULT_BUNDLE_LIMIT_BYTES),
    artifactLimitBytes: int('VIGIL_ARTIFACT_LIMIT_BYTES', DEFAULT_ARTIFACT_LIMIT_BYTES),
    demoHistoryDays: int('VIGIL_DEMO_HISTORY_DAYS', DEMO_HISTORY_DAYS),
    runScheduler: schedulerText === undefined ? true : BOOLEAN_TEXT[schedulerText as keyof typeof BOOLEAN_TEXT],
    metagraph: metagraphSettingsFromEnv(env, { defaultFile: join(dataDir, 'metagraph.json') }),
    signedAuth: signedAuthSettingsFromEnv(env),
    scheduler: schedulerSettingsFromEnv(env),
    repositories: repositoryWorkerSettingsFromEnv(env),
    dashboard: dashboardSettingsFromEnv(env),
    webhooks: webhookSettingsFromEnv(env),
    registries: registryFetchSettingsFromEnv(env),
    blobs: blobStoreSettingsFromEnv(env, dataDir),
    metrics: metricsSettingsFromEnv(env),
  };
}

function parseTrustProxy(text: string | undefined): TrustProxy {
  if (text === undefined || text === 'false') return false;
  if (text === 'true') return true;
  // Digits are a hop count here, never a boolean: `1` trusts one proxy, not all of them.
  if (INT_RE.test(text)) return Number(text) === 0 ? false : Number(text);
  return commaList(text);
}
