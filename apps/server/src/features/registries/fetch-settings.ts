import { ConfigError } from '../../platform/config/config-error.js';
import { createNpmRegistry, createPypiRegistry } from '@vigil/registries';
import { envInteger, envText, type Env } from '../../platform/config/env.js';

/** On-demand registry fetching (docs/registries.md, "In the server"; docs/configuration.md). */
export interface RegistryFetchSettings {
  /** VIGIL_REGISTRY_FETCH: false turns every fetch off (an air-gapped deployment): no fetch is queued, verification answers as without registries. */
  enabled: boolean;
  /** VIGIL_REGISTRY_WORKER: whether `serve` also runs the fetch worker (a `worker` process always does when fetching is on). */
  runInServe: boolean;
  npm: { url: string; token: string | null };
  pypi: { url: string; token: string | null };
  /** VIGIL_REGISTRY_POLL_S, in ms: how often an idle fetch worker looks for due fetches. */
  pollMs: number;
  /** VIGIL_REGISTRY_RETRY_S, in ms: the wait before the first retry of a fetch the registry did not answer; doubled per attempt, at most an hour. */
  retryBaseMs: number;
  /** VIGIL_REGISTRY_MAX_ATTEMPTS: attempts before a fetch the registry never answered is `failed`. */
  maxAttempts: number;
  /** VIGIL_REGISTRY_CONCURRENCY: fetches one worker runs at once, so one slow registry answer holds up no other fetch. */
  concurrency: number;
  /**
   * VIGIL_REGISTRY_REQUESTS_PER_SECOND and VIGIL_REGISTRY_BURST: the token bucket of each of the
   * process's connectors to one registry (the fetch worker's and the watcher's are two), so a
   * deployment on its own mirror can go past the public registries' polite default.
   */
  rate: { requestsPerSecond: number; burst: number };
  /** Following releases (docs/watches.md): the watcher runs wherever the fetch worker runs. */
  watch: {
    /** VIGIL_WATCH_INTERVAL_S, in ms: the time between two polls of one watched name (before jitter). */
    intervalMs: number;
    /** VIGIL_WATCH_CONCURRENCY: polls one watcher has in flight at once. */
    concurrency: number;
    /** VIGIL_WATCH_MAX_PER_ACCOUNT: watches one account may have (those from its repositories included). */
    maxPerAccount: number;
  };
}

export const DEFAULT_NPM_REGISTRY_URL = 'https://registry.npmjs.org';
export const DEFAULT_PYPI_URL = 'https://pypi.org';
export const DEFAULT_REGISTRY_POLL_S = 2;
export const DEFAULT_REGISTRY_RETRY_S = 30;
export const DEFAULT_REGISTRY_MAX_ATTEMPTS = 8;
export const DEFAULT_REGISTRY_CONCURRENCY = 4;
export const DEFAULT_REGISTRY_REQUESTS_PER_SECOND = 20;
export const DEFAULT_REGISTRY_BURST = 40;
export const DEFAULT_WATCH_INTERVAL_S = 300;
export const DEFAULT_WATCH_CONCURRENCY = 8;
export const DEFAULT_WATCH_MAX_PER_ACCOUNT = 1000;
/** The longest wait between two attempts of one fetch. */
export const MAX_REGISTRY_RETRY_MS = 3_600_000;

/** Every variable `registryFetchSettingsFromEnv` reads, with its default and what it accepts. */
export const REGISTRY_FETCH_VARIABLES = [
  { name: 'VIGIL_REGISTRY_FETCH', default: 'true', accepts: 'true or false: whether verification fetches unseen npm and PyPI references from the registries (false: air-gapped, nothing is fetched)' },
  { name: 'VIGIL_REGISTRY_WORKER', default: 'true', accepts: 'true or false: whether `serve` also runs the registry fetch worker (`worker` always does when fetching is on)' },
  { name: 'VIGIL_NPM_REGISTRY_URL', default: DEFAULT_NPM_REGISTRY_URL, accepts: 'http(s) URL of the npm registry or mirror fetched from (a path prefix is kept)' },
  { name: 'VIGIL_NPM_REGISTRY_TOKEN', default: 'unset', accepts: 'bearer token sent to the npm registry URL\u2019s origin only' },
  { name: 'VIGIL_PYPI_URL', default: DEFAULT_PYPI_URL, accepts: 'http(s) URL of the PyPI index or mirror fetched from (serving /pypi/\u2026/json and /simple/)' },
  { name: 'VIGIL_PYPI_TOKEN', default: 'unset', accepts: 'bearer token sent to the PyPI URL\u2019s origin only' },
  { name: 'VIGIL_REGISTRY_POLL_S', default: String(DEFAULT_REGISTRY_POLL_S), accepts: 'integer seconds 1-3600 between an idle fetch worker\u2019s looks for due fetches' },
  { name: 'VIGIL_REGISTRY_RETRY_S', default: String(DEFAULT_REGISTRY_RETRY_S), accepts: 'integer seconds 1-3600 before the first retry of a fetch whose registry did not answer (doubled per attempt, at most 1 h)' },
  { name: 'VIGIL_REGISTRY_MAX_ATTEMPTS', default: String(DEFAULT_REGISTRY_MAX_ATTEMPTS), accepts: 'integer 1-100: attempts before such a fetch is failed' },
  { name: 'VIGIL_REGISTRY_CONCURRENCY', default: String(DEFAULT_REGISTRY_CONCURRENCY), accepts: 'integer 1-64: fetches one worker process runs at once' },
  { name: 'VIGIL_REGISTRY_REQUESTS_PER_SECOND', default: String(DEFAULT_REGISTRY_REQUESTS_PER_SECOND), accepts: 'integer 1-10000: requests per second each connector of a process sends to one registry (the fetch worker and the watcher have one each)' },
  { name: 'VIGIL_REGISTRY_BURST', default: String(DEFAULT_REGISTRY_BURST), accepts: 'integer 1-10000: requests such a connector may send at once before the rate applies' },
  { name: 'VIGIL_WATCH_INTERVAL_S', default: String(DEFAULT_WATCH_INTERVAL_S), accepts: 'integer seconds 10-86400 between two polls of one watched package name (each poll time jittered by \u00b120%)' },
  { name: 'VIGIL_WATCH_CONCURRENCY', default: String(DEFAULT_WATCH_CONCURRENCY), accepts: 'integer 1-256: registry polls one watcher process has in flight at once' },
  { name: 'VIGIL_WATCH_MAX_PER_ACCOUNT', default: String(DEFAULT_WATCH_MAX_PER_ACCOUNT), accepts: 'integer 1-100000: watches one account may have (those made from its repositories included)' },
] as const;

function flag(env: Env, name: string): boolean {
  const text = envText(env, name);
  if (text !== undefined && !['true', 'false', '1', '0'].includes(text)) throw new ConfigError(name, `expected true or false, got ${JSON.stringify(text)}`);
  return text === undefined || text === 'true' || text === '1';
}

function url(env: Env, name: string, fallback: string): string {
  const text = envText(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new ConfigError(name, `expected an http(s) URL, got ${JSON.stringify(text)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(name, `expected an http(s) URL, got ${JSON.stringify(text)}`);
  if (parsed.username !== '' || parsed.password !== '' || parsed.search !== '' || parsed.hash !== '') {
    throw new ConfigError(name, 'expected a URL without credentials, query or fragment (a token goes in its _TOKEN variable)');
  }
  return text;
}

/**
 * Refuses, naming the variable, a registry URL or token the connectors would refuse when created
 * (a link-local or cloud-metadata host, a token that cannot go into a header): checked with the
 * connectors' own rules, at startup, before the database is touched.
 */
function connectorAccepts(create: typeof createNpmRegistry | typeof createPypiRegistry, registry: { url: string; token: string | null }, urlName: string, tokenName: string): void {
  try {
    create({ url: registry.url, ...(registry.token === null ? {} : { token: registry.token }) }).close();
  } catch (error) {
    const message = (error as Error).message;
    throw new ConfigError(/token/i.test(message) ? tokenName : urlName, message);
  }
}

export function registryFetchSettingsFromEnv(env: Env = process.env): RegistryFetchSettings {
  const npm = { url: url(env, 'VIGIL_NPM_REGISTRY_URL', DEFAULT_NPM_REGISTRY_URL), token: envText(env, 'VIGIL_NPM_REGISTRY_TOKEN') ?? null };
  const pypi = { url: url(env, 'VIGIL_PYPI_URL', DEFAULT_PYPI_URL), token: envText(env, 'VIGIL_PYPI_TOKEN') ?? null };
  connectorAccepts(createNpmRegistry, npm, 'VIGIL_NPM_REGISTRY_URL', 'VIGIL_NPM_REGISTRY_TOKEN');
  connectorAccepts(createPypiRegistry, pypi, 'VIGIL_PYPI_URL', 'VIGIL_PYPI_TOKEN');
  return {
    enabled: flag(env, 'VIGIL_REGISTRY_FETCH'),
    runInServe: flag(env, 'VIGIL_REGISTRY_WORKER'),
    npm,
    pypi,
    pollMs: envInteger(env, 'VIGIL_REGISTRY_POLL_S', DEFAULT_REGISTRY_POLL_S, { min: 1, max: 3600, expected: 'an integer 1-3600' }) * 1000,
    retryBaseMs: envInteger(env, 'VIGIL_REGISTRY_RETRY_S', DEFAULT_REGISTRY_RETRY_S, { min: 1, max: 3600, expected: 'an integer 1-3600' }) * 1000,
    maxAttempts: envInteger(env, 'VIGIL_REGISTRY_MAX_ATTEMPTS', DEFAULT_REGISTRY_MAX_ATTEMPTS, { min: 1, max: 100, expected: 'an integer 1-100' }),
    concurrency: envInteger(env, 'VIGIL_REGISTRY_CONCURRENCY', DEFAULT_REGISTRY_CONCURRENCY, { min: 1, max: 64, expected: 'an integer 1-64' }),
    rate: {
      requestsPerSecond: envInteger(env, 'VIGIL_REGISTRY_REQUESTS_PER_SECOND', DEFAULT_REGISTRY_REQUESTS_PER_SECOND, { min: 1, max: 10_000, expected: 'an integer 1-10000' }),
      burst: envInteger(env, 'VIGIL_REGISTRY_BURST', DEFAULT_REGISTRY_BURST, { min: 1, max: 10_000, expected: 'an integer 1-10000' }),
    },
    watch: {
      intervalMs: envInteger(env, 'VIGIL_WATCH_INTERVAL_S', DEFAULT_WATCH_INTERVAL_S, { min: 10, max: 86_400, expected: 'an integer 10-86400' }) * 1000,
      concurrency: envInteger(env, 'VIGIL_WATCH_CONCURRENCY', DEFAULT_WATCH_CONCURRENCY, { min: 1, max: 256, expected: 'an integer 1-256' }),
      maxPerAccount: envInteger(env, 'VIGIL_WATCH_MAX_PER_ACCOUNT', DEFAULT_WATCH_MAX_PER_ACCOUNT, { min: 1, max: 100_000, expected: 'an integer 1-100000' }),
    },
  };
}
