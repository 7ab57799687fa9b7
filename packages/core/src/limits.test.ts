import { describe, expect, it } from 'vitest';
import { CACHE_TTL_SECONDS, LIMITS, NETUID } from './limits.js';

describe('limits of spec part 8', () => {
  it('carry the spec values', () => {
    expect(LIMITS).toMatchObject({
      globalRateLimitPerMinute: 300,
      endpointRateLimitPerMinute: 120,
      bodyLimitBytes: 67_108_864,
      handlerTimeoutMs: 60_000,
      signatureFreshnessSeconds: 120,
      webhookTimestampToleranceSeconds: 300,
      maxPageSize: 100,
      trendsDaysMin: 1,
      trendsDaysMax: 180,
      trendsDaysDefault: 30,
      roundsLimitMin: 1,
      roundsLimitMax: 200,
      roundsLimitDefault: 60,
      maxAgentsReturned: 500,
      maxTasksPerAttestationSet: 500,
      maxFindingsPerTask: 50,
      roundIdMinLength: 8,
      roundIdMaxLength: 64,
      hotkeyMinLength: 47,
      hotkeyMaxLength: 48,
    });
    expect(NETUID).toBe(76);
  });

  it('carry the spec cache lifetimes', () => {
    expect(CACHE_TTL_SECONDS).toMatchObject({
      dashboardNetwork: 60,
      threatTrends: 600,
      roundsStatus: 30,
      rounds: 30,
      leaderboard: 30,
      agents: 30,
    });
  });
});
