import { describe, expect, it } from 'vitest';
import { createNpmRegistry } from './npm-registry.js';
import { createPypiRegistry } from './pypi-registry.js';
import { resolveRegistrySettings, type RegistrySettings } from './registry-settings.js';

const url = 'http://127.0.0.1:4873';

describe('registry settings', () => {
  it('accepts any positive requestsPerSecond, fractions below 1 included', () => {
    for (const rate of [0.1, 0.5, 1.5, 20]) expect(resolveRegistrySettings({ url, requestsPerSecond: rate }).requestsPerSecond).toBe(rate);
    for (const rate of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => resolveRegistrySettings({ url, requestsPerSecond: rate })).toThrow(TypeError);
  });

  it('refuses a url with a query, a fragment or credentials when the connector is created', () => {
    for (const bad of [`${url}?q=1`, `${url}/p#frag`, `${url}/p?`, `${url}#`, 'http://u:p@127.0.0.1:4873', 'http://169.254.169.254/npm', 'http://metadata.google.internal']) {
      expect(() => createNpmRegistry({ url: bad }), bad).toThrow(TypeError);
      expect(() => createPypiRegistry({ url: bad }), bad).toThrow(TypeError);
    }
    expect(resolveRegistrySettings({ url: `${url}/repository/npm-proxy//` }).url).toBe(`${url}/repository/npm-proxy`);
  });

  it('refuses a token that cannot go into a header when the connector is created', () => {
    for (const token of ['abc\r\nX-Evil: 1', 'abc\n', 'a\u0000b', 'tök\u2028en']) expect(() => createNpmRegistry({ url, token }), JSON.stringify(token)).toThrow(TypeError);
    expect(resolveRegistrySettings({ url, token: 'npm_abcDEF123-._~+/=' }).token).toBe('npm_abcDEF123-._~+/=');
  });

  it('requires numbers, integers except requestsPerSecond', () => {
    const bad: Partial<RegistrySettings>[] = [
      { responseTimeoutMs: '100' as unknown as number },
      { retries: '1' as unknown as number },
      { concurrency: 2.5 },
      { burst: 0 },
      { retries: -1 },
      { metadataCacheEntries: 1.5 },
      { requestsPerSecond: '5' as unknown as number },
    ];
    for (const settings of bad) expect(() => resolveRegistrySettings({ url, ...settings }), JSON.stringify(settings)).toThrow(TypeError);
    expect(resolveRegistrySettings({ url, retries: 0, backoffBaseMs: 0, metadataCacheEntries: 0 }).retries).toBe(0);
  });
});
