import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config-error.js';
import { signedAuthSettingsFromEnv } from './signed-auth-settings.js';

describe('signedAuthSettingsFromEnv', () => {
  it('defaults to 120 s freshness and 20 failures per minute', () => {
    expect(signedAuthSettingsFromEnv({})).toEqual({ freshnessSeconds: 120, failureLimitPerMinute: 20 });
    expect(signedAuthSettingsFromEnv({ VIGIL_SIGNATURE_FRESHNESS_S: '', VIGIL_SIGNATURE_FAILURE_LIMIT: '' })).toEqual({
      freshnessSeconds: 120,
      failureLimitPerMinute: 20,
    });
  });

  it('reads both variables', () => {
    expect(signedAuthSettingsFromEnv({ VIGIL_SIGNATURE_FRESHNESS_S: '30', VIGIL_SIGNATURE_FAILURE_LIMIT: '5' })).toEqual({
      freshnessSeconds: 30,
      failureLimitPerMinute: 5,
    });
  });

  for (const [name, value] of [
    ['VIGIL_SIGNATURE_FRESHNESS_S', '0'],
    ['VIGIL_SIGNATURE_FRESHNESS_S', '3601'],
    ['VIGIL_SIGNATURE_FRESHNESS_S', '2m'],
    ['VIGIL_SIGNATURE_FAILURE_LIMIT', '0'],
    ['VIGIL_SIGNATURE_FAILURE_LIMIT', '-1'],
    ['VIGIL_SIGNATURE_FAILURE_LIMIT', '1.5'],
  ] as const) {
    it(`refuses ${name}=${value} with a ConfigError naming it`, () => {
      let caught: unknown;
      try {
        signedAuthSettingsFromEnv({ [name]: value });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).variable).toBe(name);
      expect((caught as ConfigError).message).toBe(
        `${name}: expected ${name === 'VIGIL_SIGNATURE_FRESHNESS_S' ? 'an integer 1-3600' : 'an integer >= 1'}, got ${JSON.stringify(value)}`,
      );
    });
  }
});
