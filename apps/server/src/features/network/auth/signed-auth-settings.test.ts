import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../platform/config/config-error.js';
import { signedAuthSettingsFromEnv } from './signed-auth-settings.js';

describe('signedAuthSettingsFromEnv', () => {
  it('defaults to 120 s freshness and 20 failures per minute', () => {
    expect(signedAuthSettingsFromEnv({})).toEqual({ freshnessSeconds: 120, failureLimitPerMinute: 20, validatorRegistration: 'open' });
    expect(signedAuthSettingsFromEnv({ VIGIL_SIGNATURE_FRESHNESS_S: '', VIGIL_SIGNATURE_FAILURE_LIMIT: '' })).toEqual({
      freshnessSeconds: 120,
      failureLimitPerMinute: 20,
      validatorRegistration: 'open',
    });
  });

  it('reads every variable', () => {
    expect(
      signedAuthSettingsFromEnv({ VIGIL_SIGNATURE_FRESHNESS_S: '30', VIGIL_SIGNATURE_FAILURE_LIMIT: '5', VIGIL_VALIDATOR_REGISTRATION: 'approval' }),
    ).toEqual({
      freshnessSeconds: 30,
      failureLimitPerMinute: 5,
      validatorRegistration: 'approval',
    });
  });

  for (const [name, value] of [
    ['VIGIL_SIGNATURE_FRESHNESS_S', '0'],
    ['VIGIL_SIGNATURE_FRESHNESS_S', '3601'],
    ['VIGIL_SIGNATURE_FRESHNESS_S', '2m'],
    ['VIGIL_SIGNATURE_FAILURE_LIMIT', '0'],
    ['VIGIL_SIGNATURE_FAILURE_LIMIT', '-1'],
    ['VIGIL_SIGNATURE_FAILURE_LIMIT', '1.5'],
    ['VIGIL_VALIDATOR_REGISTRATION', 'closed'],
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
      const expected =
        name === 'VIGIL_SIGNATURE_FRESHNESS_S' ? 'an integer 1-3600' : name === 'VIGIL_VALIDATOR_REGISTRATION' ? 'open or approval' : 'an integer >= 1';
      expect((caught as ConfigError).message).toBe(`${name}: expected ${expected}, got ${JSON.stringify(value)}`);
    });
  }
});
