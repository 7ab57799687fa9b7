import { ConfigError } from '../../../../platform/config/config-error.js';
import { envText, type Env } from '../../../../platform/config/env.js';

/** Round timings and sizes the scheduler works with (durations in milliseconds). */
export interface SchedulerSettings {
  /** How long a round accepts agent submissions. */
  submissionMs: number;
  /** How long validators evaluate after submissions close. */
  evaluationMs: number;
  /** Time between a round closing and the track's next round opening (0: at the next tick). */
  gapMs: number;
  /** How often the scheduler takes a step. */
  intervalMs: number;
  /** Stored on every round the scheduler opens. */
  policyVersion: string;
  /** Labeled (ground-truth) artifacts a round evaluates, at most. */
  labeledArtifacts: number;
  /** Live artifacts a round evaluates, at most. */
  liveArtifacts: number;
}

/** Every variable `schedulerSettingsFromEnv` reads, with its default and what it accepts. */
export const SCHEDULER_VARIABLES = [
  { name: 'VIGIL_ROUND_SUBMISSION_S', default: '86400', accepts: 'integer seconds ≥ 1' },
  { name: 'VIGIL_ROUND_EVALUATION_S', default: '172800', accepts: 'integer seconds ≥ 1' },
  { name: 'VIGIL_ROUND_GAP_S', default: '3600', accepts: 'integer seconds ≥ 0 between a close and the next open' },
  { name: 'VIGIL_SCHEDULER_INTERVAL_S', default: '15', accepts: 'integer seconds ≥ 1' },
  { name: 'VIGIL_POLICY_VERSION', default: 'vigil-policy-1', accepts: '1-64 characters: letters, digits, . _ - :' },
  { name: 'VIGIL_ROUND_ARTIFACTS', default: '20+30', accepts: '<labeled>+<live> artifact counts, e.g. 20+30 (total ≥ 1)' },
] as const;

export const DEFAULT_SCHEDULER_SETTINGS: Readonly<SchedulerSettings> = {
  submissionMs: 86_400_000,
  evaluationMs: 172_800_000,
  gapMs: 3_600_000,
  intervalMs: 15_000,
  policyVersion: 'vigil-policy-1',
  labeledArtifacts: 20,
  liveArtifacts: 30,
};

// A bound that keeps every computed instant a safe integer of milliseconds: ten years.
const MAX_SECONDS = 10 * 366 * 86_400;
const POLICY_RE = /^[A-Za-z0-9._:-]{1,64}$/;
const ARTIFACTS_RE = /^(\d{1,6})\s*\+\s*(\d{1,6})$/;

const text = envText;

function seconds(env: Env, name: string, min: number, fallbackMs: number): number {
  const value = text(env, name);
  if (value === undefined) return fallbackMs;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= MAX_SECONDS)) {
    throw new ConfigError(name, `expected integer seconds ${min}-${MAX_SECONDS}, got ${JSON.stringify(value)}`);
  }
  return n * 1000;
}

/**
 * Reads the round scheduler's variables. Unset and empty ones take their defaults; the first
 * invalid one throws a `ConfigError` naming it and quoting the bad value.
 */
export function schedulerSettingsFromEnv(env: Env = process.env): SchedulerSettings {
  const d = DEFAULT_SCHEDULER_SETTINGS;
  const policyVersion = text(env, 'VIGIL_POLICY_VERSION') ?? d.policyVersion;
  if (!POLICY_RE.test(policyVersion)) {
    throw new ConfigError(
      'VIGIL_POLICY_VERSION',
      `expected 1-64 characters of letters, digits, . _ - :, got ${JSON.stringify(env.VIGIL_POLICY_VERSION)}`,
    );
  }
  let labeledArtifacts = d.labeledArtifacts;
  let liveArtifacts = d.liveArtifacts;
  const artifacts = text(env, 'VIGIL_ROUND_ARTIFACTS');
  if (artifacts !== undefined) {
    const match = ARTIFACTS_RE.exec(artifacts);
    if (match === null || Number(match[1]) + Number(match[2]) === 0) {
      throw new ConfigError(
        'VIGIL_ROUND_ARTIFACTS',
        `expected <labeled>+<live> counts with a total ≥ 1, e.g. 20+30, got ${JSON.stringify(env.VIGIL_ROUND_ARTIFACTS)}`,
      );
    }
    labeledArtifacts = Number(match[1]);
    liveArtifacts = Number(match[2]);
  }
  return {
    submissionMs: seconds(env, 'VIGIL_ROUND_SUBMISSION_S', 1, d.submissionMs),
    evaluationMs: seconds(env, 'VIGIL_ROUND_EVALUATION_S', 1, d.evaluationMs),
    gapMs: seconds(env, 'VIGIL_ROUND_GAP_S', 0, d.gapMs),
    intervalMs: seconds(env, 'VIGIL_SCHEDULER_INTERVAL_S', 1, d.intervalMs),
    policyVersion,
    labeledArtifacts,
    liveArtifacts,
  };
}
