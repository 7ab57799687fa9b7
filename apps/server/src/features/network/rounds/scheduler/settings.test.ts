import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../platform/config/config-error.js';
import { DEFAULT_SCHEDULER_SETTINGS, SCHEDULER_VARIABLES, schedulerSettingsFromEnv } from './settings.js';

describe('schedulerSettingsFromEnv', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(schedulerSettingsFromEnv({})).toEqual({
      submissionMs: 86_400_000,
      evaluationMs: 172_800_000,
      gapMs: 3_600_000,
      intervalMs: 15_000,
      policyVersion: 'vigil-policy-1',
      labeledArtifacts: 20,
      liveArtifacts: 30,
    });
    expect(schedulerSettingsFromEnv({ VIGIL_ROUND_GAP_S: '  ' })).toEqual(DEFAULT_SCHEDULER_SETTINGS);
    // The help table and the defaults agree.
    const defaults = Object.fromEntries(SCHEDULER_VARIABLES.map((v) => [v.name, v.default]));
    expect(schedulerSettingsFromEnv(defaults)).toEqual(DEFAULT_SCHEDULER_SETTINGS);
  });

  it('reads every variable', () => {
    expect(
      schedulerSettingsFromEnv({
        VIGIL_ROUND_SUBMISSION_S: '60',
        VIGIL_ROUND_EVALUATION_S: '120',
        VIGIL_ROUND_GAP_S: '0',
        VIGIL_SCHEDULER_INTERVAL_S: '5',
        VIGIL_POLICY_VERSION: 'policy-2026.11',
        VIGIL_ROUND_ARTIFACTS: '10 + 0',
      }),
    ).toEqual({
      submissionMs: 60_000,
      evaluationMs: 120_000,
      gapMs: 0,
      intervalMs: 5000,
      policyVersion: 'policy-2026.11',
      labeledArtifacts: 10,
      liveArtifacts: 0,
    });
  });

  it.each([
    ['VIGIL_ROUND_SUBMISSION_S', '0'],
    ['VIGIL_ROUND_EVALUATION_S', '1.5'],
    ['VIGIL_ROUND_GAP_S', '-1'],
    ['VIGIL_SCHEDULER_INTERVAL_S', 'soon'],
    ['VIGIL_ROUND_SUBMISSION_S', '999999999999'],
    ['VIGIL_POLICY_VERSION', 'has spaces'],
    ['VIGIL_ROUND_ARTIFACTS', '20'],
    ['VIGIL_ROUND_ARTIFACTS', '0+0'],
  ])('refuses %s=%s with a one-line error naming it', (name, value) => {
    let caught: unknown;
    try {
      schedulerSettingsFromEnv({ [name]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.variable).toBe(name);
    expect(error.message.startsWith(`${name}: `)).toBe(true);
    expect(error.message).toContain(JSON.stringify(value));
    expect(error.message).not.toContain('\n');
  });
});
