import { AttestationDetail, Leaderboard, ThreatTrends, VerifyResult, RoundsStatusResponse, formatNaiveTimestamp, formatOffsetTimestamp } from '@vigil/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { withDates } from '../src/dates.js';
import type { Dated } from '../src/dates.js';

describe('timestamps as Date', () => {
  it('types every timestamp field of a core schema as Date and leaves the rest alone', () => {
    expectTypeOf<Dated<typeof VerifyResult>['decided_at']>().toEqualTypeOf<Date | null>();
    expectTypeOf<Dated<typeof VerifyResult>['artifact']>().toEqualTypeOf<string>();
    expectTypeOf<Dated<typeof Leaderboard>['meta']['last_update']>().toEqualTypeOf<Date>();
    expectTypeOf<Dated<typeof Leaderboard>['rows'][number]['updated_at']>().toEqualTypeOf<Date>();
    expectTypeOf<Dated<typeof ThreatTrends>['series'][number]['day']>().toEqualTypeOf<string>();
    expectTypeOf<Dated<typeof AttestationDetail>['attestation']['recorded_at']>().toEqualTypeOf<Date>();
  });

  it('reads the naive family as UTC and the offset family at its offset', () => {
    const at = Date.UTC(2026, 10, 21, 10, 0, 0, 123);
    const status = RoundsStatusResponse.parse({
      tracks: [],
      server_time: formatNaiveTimestamp(at),
      next_round_opens_at: null,
      seconds_until_next_round: null,
    });
    const dated = withDates(RoundsStatusResponse, status);
    expect(dated.server_time).toBeInstanceOf(Date);
    expect(dated.server_time.getTime()).toBe(at);
    expect(dated.next_round_opens_at).toBeNull();
    expect(formatOffsetTimestamp(at)).toBe('2026-11-21T10:00:00.123+00:00');
  });
});
