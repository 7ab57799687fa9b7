import type { UnavailableReason } from './registry-http.js';

/**
 * The states every connector answers in besides success (docs/registries.md, "States"). None is
 * thrown: a registry that is down or lies is a state of the reference, not an error.
 */
export type RegistryFailure =
  /** The registry has no such package. */
  | { state: 'not_found'; detail: string }
  /** The package exists; this version or tag does not (and never did, as far as the registry says). */
  | { state: 'version_not_found'; detail: string }
  /**
   * The version existed and was removed (npm unpublish); the package itself may remain.
   * `unpublished_at`: the registry's time for a fully unpublished package, or when this connector
   * noticed the version gone; null when the registry only says it once existed.
   */
  | { state: 'unpublished'; detail: string; unpublished_at: string | null }
  /** The downloaded bytes do not match the digest the registry published. Never returned as bytes. */
  | { state: 'integrity_mismatch'; detail: string; expected: string; actual: string }
  /** The artifact (or metadata) is larger than the limit; reading stopped there. */
  | { state: 'too_large'; detail: string; limit_bytes: number; declared_bytes: number | null }
  /** The metadata answered but is not what the API promises (not JSON, no digest, no file). */
  | { state: 'invalid_metadata'; detail: string }
  /** The registry refused the request with a 4xx other than 404 and 429 (401, 403…): not retried. */
  | { state: 'registry_refused'; detail: string; status: number }
  /** No usable answer after every retry: down, hanging, resetting, truncating or rate limiting. */
  | { state: 'registry_unavailable'; detail: string; reason: UnavailableReason; attempts: number };

export type RegistryFailureState = RegistryFailure['state'];
