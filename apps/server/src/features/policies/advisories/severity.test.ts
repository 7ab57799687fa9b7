import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OsvRecord } from './osv-record.js';
import { cvssBaseScore, ratingOfScore, severityOf } from './severity.js';

const FIXTURES = join(import.meta.dirname, '../../../../test/fixtures/osv');
const record = (file: string) => OsvRecord.parse(JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')));

describe('advisory severity', () => {
  it("takes GitHub's own rating when the record carries one", () => {
    expect(severityOf(record('GHSA-xvch-5gv4-984h.json'), undefined)).toBe('critical');
    expect(severityOf(record('GHSA-35jh-r3h4-6jhm.json'), undefined)).toBe('high');
    expect(severityOf(record('GHSA-h5c8-rqwp-cp95.json'), undefined)).toBe('moderate');
  });

  it('without one, rates the CVSS v3 base score of the real vectors', () => {
    const strip = (file: string) => ({ ...record(file), database_specific: undefined });
    // CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H is 7.2.
    expect(cvssBaseScore('CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H')).toBe(7.2);
    expect(severityOf(strip('GHSA-35jh-r3h4-6jhm.json'), undefined)).toBe('high');
    expect(severityOf(strip('GHSA-xvch-5gv4-984h.json'), undefined)).toBe('critical');
    expect(severityOf(strip('GHSA-h5c8-rqwp-cp95.json'), undefined)).toBe('moderate');
    // A CVSS 3.0 vector (node-fetch) is scored too: 8.8.
    expect(cvssBaseScore('CVSS:3.0/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H')).toBe(8.8);
  });

  it('prefers a CVSS v4 vector to a v3 one, and an affected entry’s own vector to the record’s', () => {
    const base = { ...record('GHSA-35jh-r3h4-6jhm.json'), database_specific: undefined };
    const v4 = { type: 'CVSS_V4', score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N' };
    expect(cvssBaseScore(v4.score)).toBe(9.3);
    expect(severityOf({ ...base, severity: [...base.severity!, v4] }, undefined)).toBe('critical');
    expect(severityOf({ ...base, severity: undefined }, [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N' }])).toBe('low');
  });

  it('is unknown without a rating or a usable v3/v4 vector', () => {
    const base = { ...record('GHSA-35jh-r3h4-6jhm.json'), database_specific: undefined };
    expect(severityOf({ ...base, severity: undefined }, undefined)).toBe('unknown');
    expect(severityOf({ ...base, severity: [{ type: 'CVSS_V2', score: 'AV:N/AC:L/Au:N/C:P/I:P/A:P' }] }, undefined)).toBe('unknown');
    expect(severityOf({ ...base, severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N' }] }, undefined)).toBe('unknown');
    expect(severityOf({ ...base, severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:Q/AC:L' }] }, undefined)).toBe('unknown');
  });

  it('uses the CVSS rating bands', () => {
    expect([0, 0.1, 3.9, 4, 6.9, 7, 8.9, 9, 10].map(ratingOfScore)).toEqual(['low', 'low', 'low', 'moderate', 'moderate', 'high', 'high', 'critical', 'critical']);
  });
});
