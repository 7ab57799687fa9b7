import { describe, expect, it } from 'vitest';
import { AttestationListQuery } from './customer-attestations.js';

describe('AttestationListQuery since/until', () => {
  it('accepts an instant in any zone and reads it as that instant', () => {
    const utc = Date.UTC(2026, 10, 21, 10, 0, 0);
    for (const text of ['2026-11-21T10:00:00Z', '2026-11-21T10:00:00.000+00:00', '2026-11-21T12:00:00+02:00', '2026-11-21T08:30:00-0130']) {
      expect(AttestationListQuery.parse({ since: text }).since).toBe(utc);
    }
  });

  it.each(['2026-11-21T10:00:00', '2026-11-21', '2026-11-21T10:00:00+25:00', '2026-02-30T10:00:00Z', 'yesterday'])('refuses %j', (text) => {
    const result = AttestationListQuery.safeParse({ until: text });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['until']);
  });
});
