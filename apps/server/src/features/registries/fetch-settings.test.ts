import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../platform/config/config-error.js';
import { registryFetchSettingsFromEnv } from './fetch-settings.js';

describe('registry fetch settings', () => {
  it('reads every variable, trimmed', () => {
    expect(
      registryFetchSettingsFromEnv({
        VIGIL_REGISTRY_FETCH: ' false ',
        VIGIL_REGISTRY_WORKER: '0',
        VIGIL_NPM_REGISTRY_URL: 'https://nexus.example/repository/npm-proxy',
        VIGIL_NPM_REGISTRY_TOKEN: ' npm-secret ',
        VIGIL_PYPI_URL: 'http://127.0.0.1:8080',
        VIGIL_PYPI_TOKEN: 'pypi-secret',
        VIGIL_REGISTRY_POLL_S: '5',
        VIGIL_REGISTRY_RETRY_S: '10',
        VIGIL_REGISTRY_MAX_ATTEMPTS: '3',
        VIGIL_REGISTRY_CONCURRENCY: '2',
        VIGIL_REGISTRY_REQUESTS_PER_SECOND: '500',
        VIGIL_REGISTRY_BURST: ' 1000 ',
        VIGIL_WATCH_INTERVAL_S: ' 60 ',
        VIGIL_WATCH_CONCURRENCY: '16',
        VIGIL_WATCH_MAX_PER_ACCOUNT: '50',
      }),
    ).toEqual({
      enabled: false,
      runInServe: false,
      npm: { url: 'https://nexus.example/repository/npm-proxy', token: 'npm-secret' },
      pypi: { url: 'http://127.0.0.1:8080', token: 'pypi-secret' },
      pollMs: 5_000,
      retryBaseMs: 10_000,
      maxAttempts: 3,
      concurrency: 2,
      rate: { requestsPerSecond: 500, burst: 1000 },
      watch: { intervalMs: 60_000, concurrency: 16, maxPerAccount: 50 },
    });
  });

  it.each([
    [{ VIGIL_REGISTRY_FETCH: 'maybe' }, 'VIGIL_REGISTRY_FETCH'],
    [{ VIGIL_NPM_REGISTRY_URL: 'ftp://mirror.example' }, 'VIGIL_NPM_REGISTRY_URL'],
    [{ VIGIL_NPM_REGISTRY_URL: 'https://user:pass@mirror.example' }, 'VIGIL_NPM_REGISTRY_URL'],
    [{ VIGIL_PYPI_URL: 'not a url' }, 'VIGIL_PYPI_URL'],
    [{ VIGIL_WATCH_INTERVAL_S: '5' }, 'VIGIL_WATCH_INTERVAL_S'],
    [{ VIGIL_WATCH_CONCURRENCY: '0' }, 'VIGIL_WATCH_CONCURRENCY'],
    [{ VIGIL_WATCH_MAX_PER_ACCOUNT: 'many' }, 'VIGIL_WATCH_MAX_PER_ACCOUNT'],
    [{ VIGIL_PYPI_URL: 'https://pypi.example/?x=1' }, 'VIGIL_PYPI_URL'],
    [{ VIGIL_REGISTRY_POLL_S: '0' }, 'VIGIL_REGISTRY_POLL_S'],
    [{ VIGIL_REGISTRY_MAX_ATTEMPTS: '101' }, 'VIGIL_REGISTRY_MAX_ATTEMPTS'],
    [{ VIGIL_REGISTRY_CONCURRENCY: '0' }, 'VIGIL_REGISTRY_CONCURRENCY'],
    [{ VIGIL_REGISTRY_REQUESTS_PER_SECOND: '0' }, 'VIGIL_REGISTRY_REQUESTS_PER_SECOND'],
    [{ VIGIL_REGISTRY_REQUESTS_PER_SECOND: '2.5' }, 'VIGIL_REGISTRY_REQUESTS_PER_SECOND'],
    [{ VIGIL_REGISTRY_BURST: '10001' }, 'VIGIL_REGISTRY_BURST'],
    // Hosts the connectors refuse are refused with the variable's name, before anything else starts.
    [{ VIGIL_NPM_REGISTRY_URL: 'http://169.254.169.254' }, 'VIGIL_NPM_REGISTRY_URL'],
    [{ VIGIL_PYPI_URL: 'http://metadata.google.internal' }, 'VIGIL_PYPI_URL'],
    [{ VIGIL_NPM_REGISTRY_TOKEN: 'a\r\nb' }, 'VIGIL_NPM_REGISTRY_TOKEN'],
  ])('refuses %j naming the variable', (env, name) => {
    expect(() => registryFetchSettingsFromEnv(env)).toThrow(ConfigError);
    expect(() => registryFetchSettingsFromEnv(env)).toThrow(name);
  });

  it('defaults to the connectors\' polite rate: 20 requests per second, bursts of 40', () => {
    expect(registryFetchSettingsFromEnv({}).rate).toEqual({ requestsPerSecond: 20, burst: 40 });
  });
});
