import { ConfigError } from '../../../platform/config/config-error.js';
import { envInteger, envText, type Env } from '../../../platform/config/env.js';
import { GITHUB_VARIABLES, githubSettingsFromEnv, type GithubSettings } from '../providers/github-settings.js';

export interface RepositoryWorkerSettings {
  /** VIGIL_REPOSITORY_WORKER: whether `serve` also verifies pushes (a `worker` process always does). */
  runInServe: boolean;
  /** VIGIL_REPOSITORY_POLL_S, in ms: how often an idle worker looks for due pushes. */
  pollMs: number;
  github: GithubSettings;
}

export const DEFAULT_REPOSITORY_POLL_S = 5;

/** Every variable `repositoryWorkerSettingsFromEnv` reads, with its default and what it accepts. */
export const REPOSITORY_WORKER_VARIABLES = [
  { name: 'VIGIL_REPOSITORY_WORKER', default: 'true', accepts: 'true or false: whether `serve` also verifies repository pushes (`worker` always does)' },
  { name: 'VIGIL_REPOSITORY_POLL_S', default: String(DEFAULT_REPOSITORY_POLL_S), accepts: 'integer seconds 1-3600 between looks for due pushes (retries, other instances\u2019 hooks)' },
  ...GITHUB_VARIABLES,
] as const;

export function repositoryWorkerSettingsFromEnv(env: Env = process.env): RepositoryWorkerSettings {
  const flag = envText(env, 'VIGIL_REPOSITORY_WORKER');
  if (flag !== undefined && !['true', 'false', '1', '0'].includes(flag)) {
    throw new ConfigError('VIGIL_REPOSITORY_WORKER', `expected true or false, got ${JSON.stringify(flag)}`);
  }
  return {
    runInServe: flag === undefined || flag === 'true' || flag === '1',
    pollMs: envInteger(env, 'VIGIL_REPOSITORY_POLL_S', DEFAULT_REPOSITORY_POLL_S, { min: 1, max: 3600, expected: 'an integer 1-3600' }) * 1000,
    github: githubSettingsFromEnv(env),
  };
}
