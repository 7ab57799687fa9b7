import { VigilApiError, VigilResponseError } from '@vigil/client';
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../api.js';
import { MIN_ERROR_RETRY_SECONDS, retryDelaySeconds } from './retry.js';

const apiError = (status: number, detail: string, retryAfterSeconds: number | null = null) =>
  new VigilApiError({ status, detail, requestId: 'req-1', retryAfterSeconds, body: { detail } });

describe('what a failed read shows and when it is tried again', () => {
  it('429 waits exactly Retry-After, or the one-minute window when the header is missing', () => {
    const limited = describeFailure(apiError(429, 'rate limit exceeded', 17));
    expect(limited).toEqual({ kind: 'rate_limited', retryAfterSeconds: 17 });
    expect(retryDelaySeconds(limited, 60)).toBe(17);
    expect(retryDelaySeconds(describeFailure(apiError(429, 'rate limit exceeded')), 30)).toBe(60);
  });

  it('5xx keeps its detail and request id and is retried with backoff from 30 s up to the polling period', () => {
    const failure = describeFailure(apiError(502, 'upstream dependency unavailable'));
    expect(failure).toEqual({ kind: 'server', status: 502, detail: 'upstream dependency unavailable', requestId: 'req-1' });
    // Threats polls every 600 s: a single failed poll is tried again after 30 s, not 10 minutes.
    expect([1, 2, 3, 4, 5, 6, 20].map((n) => retryDelaySeconds(failure, 600, n))).toEqual([30, 60, 120, 240, 480, 600, 600]);
    expect(retryDelaySeconds(failure, 600)).toBe(MIN_ERROR_RETRY_SECONDS);
    expect(retryDelaySeconds(failure, 60, 5)).toBe(60);
    expect(retryDelaySeconds(failure, null, 3)).toBe(MIN_ERROR_RETRY_SECONDS);
  });

  it('an unreachable server is retried; a 404, a refusal or a contract mismatch is not', () => {
    expect(retryDelaySeconds(describeFailure(new TypeError('fetch failed')), 30)).toBe(30);
    expect(retryDelaySeconds(describeFailure(apiError(404, 'round not found')), 30)).toBeNull();
    expect(retryDelaySeconds(describeFailure(apiError(422, 'Validation error')), 30)).toBeNull();
    expect(describeFailure(new VigilResponseError('rows', 'expected array', { status: 200, endpoint: 'GET /v1/leaderboard' }))).toMatchObject({ kind: 'mismatch' });
  });
});
