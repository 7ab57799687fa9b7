import { ConfigError } from '../../../platform/config/config-error.js';
import { envInteger, envText, type Env } from '../../../platform/config/env.js';

export interface GithubSettings {
  /** VIGIL_GITHUB_API_URL without a trailing slash. */
  apiUrl: string;
  /** VIGIL_GITHUB_TOKEN: sent as a bearer token when set (private repositories, a higher rate limit). */
  token: string | undefined;
  /** VIGIL_GITHUB_TIMEOUT_MS: the longest one GitHub request may take, body included. */
  timeoutMs: number;
}

export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';
export const DEFAULT_GITHUB_TIMEOUT_MS = 10_000;

/** Every variable `githubSettingsFromEnv` reads, with its default and what it accepts. */
export const GITHUB_VARIABLES = [
  { name: 'VIGIL_GITHUB_API_URL', default: DEFAULT_GITHUB_API_URL, accepts: 'http(s):// base URL of the GitHub REST API (GitHub Enterprise: https://<host>/api/v3)' },
  { name: 'VIGIL_GITHUB_TOKEN', default: 'unset (anonymous: public repositories, 60 requests per hour)', accepts: 'a GitHub token with read access to the repositories\u2019 contents' },
  { name: 'VIGIL_GITHUB_TIMEOUT_MS', default: String(DEFAULT_GITHUB_TIMEOUT_MS), accepts: 'integer 100-600000: the longest one GitHub request may take' },
] as const;

export function githubSettingsFromEnv(env: Env = process.env): GithubSettings {
  const apiText = envText(env, 'VIGIL_GITHUB_API_URL') ?? DEFAULT_GITHUB_API_URL;
  let api: URL;
  try {
    api = new URL(apiText);
  } catch {
    throw new ConfigError('VIGIL_GITHUB_API_URL', `expected an http(s):// URL, got ${JSON.stringify(apiText)}`);
  }
  if ((api.protocol !== 'http:' && api.protocol !== 'https:') || api.search !== '' || api.hash !== '' || api.username !== '' || api.password !== '') {
    throw new ConfigError('VIGIL_GITHUB_API_URL', `expected an http(s):// URL without credentials, query or fragment, got ${JSON.stringify(apiText)}`);
  }
  return {
    apiUrl: api.toString().replace(/\/+$/, ''),
    token: envText(env, 'VIGIL_GITHUB_TOKEN'),
    timeoutMs: envInteger(env, 'VIGIL_GITHUB_TIMEOUT_MS', DEFAULT_GITHUB_TIMEOUT_MS, { min: 100, max: 600_000, expected: 'an integer 100-600000' }),
  };
}
