import { isIP } from 'node:net';
import { ConfigError } from '../config/config-error.js';
import { envInteger, envText, type Env } from '../config/env.js';

export interface MetricsSettings {
  /** VIGIL_METRICS_PORT: the port of the metrics listener (`/metrics`, `/ready`); undefined: no listener. */
  port: number | undefined;
  /** VIGIL_METRICS_HOST: the address it binds. Loopback by default: metrics name routes and queue sizes. */
  host: string;
  /** VIGIL_METRICS_QUERY_TIMEOUT_MS: the bound on the database reads behind one scrape (and on a readiness check). */
  queryTimeoutMs: number;
}

export const DEFAULT_METRICS_HOST = '127.0.0.1';
export const DEFAULT_METRICS_QUERY_TIMEOUT_MS = 2_000;

/** Every variable `metricsSettingsFromEnv` reads, with its default and what it accepts. */
export const METRICS_VARIABLES = [
  {
    name: 'VIGIL_METRICS_PORT',
    default: 'unset (no metrics listener)',
    accepts: 'integer 1-65535: serve Prometheus metrics (/metrics) and readiness (/ready) on this port, for serve and worker',
  },
  { name: 'VIGIL_METRICS_HOST', default: DEFAULT_METRICS_HOST, accepts: 'IP address the metrics listener binds (0.0.0.0 or :: for every interface)' },
  {
    name: 'VIGIL_METRICS_QUERY_TIMEOUT_MS',
    default: String(DEFAULT_METRICS_QUERY_TIMEOUT_MS),
    accepts: 'integer 100-60000: bound on the database reads of one scrape and of one readiness check',
  },
] as const;

export function metricsSettingsFromEnv(env: Env = process.env): MetricsSettings {
  const portText = envText(env, 'VIGIL_METRICS_PORT');
  const port = portText === undefined ? undefined : envInteger(env, 'VIGIL_METRICS_PORT', 0, { min: 1, max: 65_535, expected: 'an integer 1-65535' });
  const host = envText(env, 'VIGIL_METRICS_HOST') ?? DEFAULT_METRICS_HOST;
  if (isIP(host) === 0) throw new ConfigError('VIGIL_METRICS_HOST', `expected an IP address, got ${JSON.stringify(host)}`);
  return {
    port,
    host,
    queryTimeoutMs: envInteger(env, 'VIGIL_METRICS_QUERY_TIMEOUT_MS', DEFAULT_METRICS_QUERY_TIMEOUT_MS, { min: 100, max: 60_000, expected: 'an integer 100-60000' }),
  };
}
