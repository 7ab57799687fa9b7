import { describe, expect, it } from 'vitest';
import { HealthStatus, NetworkDashboard, ServerIdentity, ThreatTrends } from './network.js';
import { healthStatus, networkDashboard, serverIdentity, threatTrends } from '../test-support/fixtures.js';
import { REMOVE, expectAccepted, expectRejectedAt, rejectCase, withChange } from '../test-support/schema-cases.js';

describe('HealthStatus and ServerIdentity', () => {
  it('accept the spec shapes', () => {
    expect(expectAccepted(HealthStatus, healthStatus())).toEqual({ status: 'ok' });
    expectAccepted(ServerIdentity, serverIdentity());
  });

  it.each([
    ['status other than ok', HealthStatus, { status: 'down' }, ['status']],
    ['server_hotkey in uppercase hex', ServerIdentity, { server_hotkey: 'D75A'.repeat(16) }, ['server_hotkey']],
    ['server_hotkey of 63 hex', ServerIdentity, { server_hotkey: 'a'.repeat(63) }, ['server_hotkey']],
    ['server_hotkey as an ss58 address', ServerIdentity, { server_hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY' }, ['server_hotkey']],
  ] as const)('reject %s', (_name, schema, value, path) => {
    expectRejectedAt(schema, value, path);
  });
});

describe('NetworkDashboard', () => {
  it('accepts the spec shape', () => {
    expect(expectAccepted(NetworkDashboard, networkDashboard())).toEqual(networkDashboard());
  });

  it.each([
    rejectCase('throughput of 23 items', ['throughput'], Array(23).fill(1)),
    rejectCase('throughput of 25 items', ['throughput'], Array(25).fill(1)),
    rejectCase('a negative throughput bucket', ['throughput', 3], -1),
    rejectCase('a fractional count', ['attestations'], 1.5),
    rejectCase('a count sent as a string', ['tasks_24h'], '18220'),
    rejectCase('a naive last_update (wrong timestamp family)', ['last_update'], '2026-11-21T10:00:00.000'),
    rejectCase('last_update that is not a date', ['last_update'], 'yesterday'),
    rejectCase('verdicts without BLOCK', ['verdicts', 'BLOCK'], REMOVE),
    rejectCase('agents.by_track without repositories', ['agents', 'by_track', 'repositories'], REMOVE),
    rejectCase('a track_mix value that is not an integer', ['track_mix', 0, 'value'], 'many'),
    rejectCase('validators.active missing', ['validators', 'active'], REMOVE),
  ])('rejects $name', ({ path, value, at }) => {
    expectRejectedAt(NetworkDashboard, withChange(networkDashboard(), path, value), at ?? path);
  });
});

describe('ThreatTrends', () => {
  it('accepts the spec shape, including the window bounds 1 and 180', () => {
    expectAccepted(ThreatTrends, threatTrends());
    expectAccepted(ThreatTrends, withChange(threatTrends(), ['days'], 1));
    expectAccepted(ThreatTrends, withChange(threatTrends(), ['days'], 180));
  });

  it.each([
    rejectCase('days 0', ['days'], 0),
    rejectCase('days 181', ['days'], 181),
    rejectCase('a series day that does not exist', ['series', 0, 'day'], '2026-02-30'),
    rejectCase('a series day with a time', ['series', 0, 'day'], '2026-11-20T00:00:00'),
    rejectCase('a negative flagged count', ['series', 1, 'flagged'], -3),
    rejectCase('severity without CRIT', ['severity', 'CRIT'], REMOVE),
    rejectCase('week without prev_findings', ['week', 'prev_findings'], REMOVE),
    rejectCase('totals.flagged_artifacts as a string', ['totals', 'flagged_artifacts'], '4580'),
    rejectCase('a category count that is fractional', ['categories', 0, 'count'], 0.5),
    rejectCase('a by_plane label that is not a string', ['by_plane', 0, 'label'], 1),
    rejectCase('a naive last_update', ['last_update'], '2026-11-21T10:00:00'),
  ])('rejects $name', ({ path, value, at }) => {
    expectRejectedAt(ThreatTrends, withChange(threatTrends(), path, value), at ?? path);
  });
});
