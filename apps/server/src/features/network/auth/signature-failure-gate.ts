import type { ErrorCode } from '@vigil/core';
import type { FastifyRequest } from 'fastify';
import { VigilError } from '../../../platform/errors.js';
import { countRedisFailure } from '../../../platform/metrics/index.js';
import { SIGNATURE_FAILURE_WINDOW_MS, type SignatureFailureStore } from './signature-failure-store.js';
import { signedHeaders } from './signed-headers.js';

/** Failure-store outages are logged at most this often, not once per request. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/**
 * The per-IP ceiling, as a multiple of the per-(IP, hotkey) limit: a host behind a shared address
 * that keeps failing for its own hotkey cannot lock out the honest validators next to it, while
 * one address cycling through made-up hotkeys is still stopped.
 */
export const FAILURE_CEILING_FACTOR = 10;

export interface SignatureFailureGate {
  /** Throws the 429 when this source IP and hotkey (or the IP alone) failed too often this window. */
  refuseIfOverLimit(request: FastifyRequest): Promise<void>;
  /**
   * A failed signature check: counted against the source IP and the hotkey it names, then
   * answered. Counting first means parallel forgeries see each other: once the count passes the
   * limit the answer is 429, however many arrived at once.
   */
  failure(request: FastifyRequest, code: ErrorCode): Promise<VigilError>;
}

/**
 * Counts failed signature checks per source IP and hotkey (`limit` per window) and refuses a caller
 * past the limit. A store outage counts nothing rather than refusing: like the rate limiter, a
 * Redis outage must not lock every validator out.
 */
export function createSignatureFailureGate(store: SignatureFailureStore, limit: number, now: () => number): SignatureFailureGate {
  let lastOutageLog = Number.NEGATIVE_INFINITY;
  const logOutage = (request: FastifyRequest, error: unknown) => {
    if (now() - lastOutageLog <= OUTAGE_LOG_INTERVAL_MS) return;
    lastOutageLog = now();
    request.log.warn({ err: error }, 'signature-failure store unavailable; not counting');
  };
  const windowNow = () => Math.floor(now() / SIGNATURE_FAILURE_WINDOW_MS);
  const failureKeys = (request: FastifyRequest) => {
    const hotkey = signedHeaders(request).hotkey ?? '';
    // Bounded: a made-up header cannot grow a counter key without limit.
    return { pair: `${request.ip}|${hotkey.slice(0, 64)}`, ip: request.ip };
  };
  const tooMany = (window: number) => {
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * SIGNATURE_FAILURE_WINDOW_MS - now()) / 1000));
    return new VigilError('too_many_signature_failures', { headers: { 'retry-after': String(retryAfter) } });
  };

  return {
    async refuseIfOverLimit(request) {
      const window = windowNow();
      const keys = failureKeys(request);
      let counts: [number, number];
      try {
        counts = await Promise.all([store.failures(window, keys.pair), store.failures(window, keys.ip)]);
      } catch (error) {
        countRedisFailure('signature_failures');
        logOutage(request, error);
        counts = [0, 0];
      }
      if (counts[0] >= limit || counts[1] >= limit * FAILURE_CEILING_FACTOR) throw tooMany(window);
    },
    async failure(request, code) {
      const window = windowNow();
      const keys = failureKeys(request);
      try {
        const counts = await Promise.all([store.record(window, keys.pair), store.record(window, keys.ip)]);
        if (counts[0] > limit || counts[1] > limit * FAILURE_CEILING_FACTOR) return tooMany(window);
      } catch (error) {
        countRedisFailure('signature_failures');
        logOutage(request, error);
      }
      return new VigilError(code);
    },
  };
}
