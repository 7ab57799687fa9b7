import { ConfigError } from '../../../platform/config/config-error.js';
import { envInteger, type Env } from '../../../platform/config/env.js';

export interface SignedAuthSettings {
  /** Accepted clock skew of X-Vigil-Signed-At, either side of the server clock (spec part 8). */
  freshnessSeconds: number;
  /** Signature failures per source IP and hotkey per minute before 429 `too many signature failures`. */
  failureLimitPerMinute: number;
  /**
   * `open`: a permitted hotkey's first registration is active at once. `approval`: it is stored
   * `pending` and admits nothing until an operator approves it (`vigil-server validators approve`).
   */
  validatorRegistration: ValidatorRegistrationMode;
}

export const VALIDATOR_REGISTRATION_MODES = ['open', 'approval'] as const;
export type ValidatorRegistrationMode = (typeof VALIDATOR_REGISTRATION_MODES)[number];

/** Spec part 8 fixes the freshness default; the failure threshold is ours (spec: "not shown"). */
export const SIGNED_AUTH_DEFAULTS: Readonly<SignedAuthSettings> = {
  freshnessSeconds: 120,
  // An honest signer fails only on clock skew or a bug, a few times at most; 20 a minute leaves
  // room for a misconfigured fleet behind one address while capping what a flood costs.
  failureLimitPerMinute: 20,
  validatorRegistration: 'open',
};

/** The variables `signedAuthSettingsFromEnv` reads, in the style of CONFIG_VARIABLES. */
export const SIGNED_AUTH_VARIABLES = [
  {
    name: 'VIGIL_SIGNATURE_FRESHNESS_S',
    default: String(SIGNED_AUTH_DEFAULTS.freshnessSeconds),
    accepts: 'integer 1-3600 (seconds either side of the server clock)',
  },
  {
    name: 'VIGIL_SIGNATURE_FAILURE_LIMIT',
    default: String(SIGNED_AUTH_DEFAULTS.failureLimitPerMinute),
    accepts: 'integer ≥ 1 (failed signatures per source IP and hotkey per minute; 10x per source IP)',
  },
  {
    name: 'VIGIL_VALIDATOR_REGISTRATION',
    default: SIGNED_AUTH_DEFAULTS.validatorRegistration,
    accepts: 'open (a first registration is active at once) or approval (pending until `vigil-server validators approve`)',
  },
] as const;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const expected = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer ${min}-${max}`;
  return envInteger(env, name, fallback, { min, max, expected });
}

/**
 * Reads VIGIL_SIGNATURE_FRESHNESS_S and VIGIL_SIGNATURE_FAILURE_LIMIT; unset or empty means the
 * default. A bad value throws a ConfigError naming the variable and quoting the value.
 */
export function signedAuthSettingsFromEnv(env: Env): SignedAuthSettings {
  return {
    // Above an hour the replay store would have to hold claims for hours, and skew that large is a
    // broken clock, not a slow network.
    freshnessSeconds: integer(env, 'VIGIL_SIGNATURE_FRESHNESS_S', SIGNED_AUTH_DEFAULTS.freshnessSeconds, 1, 3600),
    failureLimitPerMinute: integer(
      env,
      'VIGIL_SIGNATURE_FAILURE_LIMIT',
      SIGNED_AUTH_DEFAULTS.failureLimitPerMinute,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    validatorRegistration: registrationMode(env),
  };
}

function registrationMode(env: Readonly<Record<string, string | undefined>>): ValidatorRegistrationMode {
  const raw = env.VIGIL_VALIDATOR_REGISTRATION?.trim();
  if (raw === undefined || raw === '') return SIGNED_AUTH_DEFAULTS.validatorRegistration;
  if ((VALIDATOR_REGISTRATION_MODES as readonly string[]).includes(raw)) return raw as ValidatorRegistrationMode;
  throw new ConfigError('VIGIL_VALIDATOR_REGISTRATION', `expected open or approval, got ${JSON.stringify(env.VIGIL_VALIDATOR_REGISTRATION)}`);
}
