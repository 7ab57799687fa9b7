import { NetworkDashboard, ThreatTrends } from '@vigil/core';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test-support/databases.js';
import { DAY, HOUR, T0, attest, bundle, finding, newKey, seedRound } from '../../../test-support/fixtures.js';
import { createPublicReadService } from './public-read-service.js';
import { registerValidator, setValidatorStatus } from '../validators/validators.js';

const X = { label: 'clawhub', sourceId: 'x-skill', kind: 'live' as const };
const Y = { label: 'clawhub', sourceId: 'y-skill', kind: 'live' as const };
const Z = { label: 'clawhub', sourceId: 'z-skill', kind: 'live' as const };

describeEachDialect('threat trends and dashboard aggregates', (ctx) => {
  it('counts an artifact flagged by three miners on two validators once in every trends bucket', async () => {
    const db = ctx.db();
    const [m1, m2, m3] = [newKey(), newKey(), newKey()];
    const [v1, v2] = [newKey(), newKey()];
    const seeded = await seedRound(db, { now: T0 - 5 * DAY, miners: [m1, m2, m3], validators: [v1, v2], artifacts: [X, Y, Z] });
    const [x, y, z] = [bundle('skills', X), bundle('skills', Y), bundle('skills', Z)];
    const now = T0;
    const injection = finding('prompt_injection', 'HIGH');
    await attest(db, seeded, m1, x, v1, { verdict: 'BLOCK', findings: [injection], now });
    await attest(db, seeded, m1, x, v2, { verdict: 'BLOCK', findings: [injection], now });
    await attest(db, seeded, m2, x, v1, { verdict: 'WARN', findings: [finding('exfiltration', 'CRIT')], now });
    await attest(db, seeded, m2, x, v2, { verdict: 'WARN', findings: [finding('exfiltration', 'CRIT')], now });
    await attest(db, seeded, m3, x, v1, { verdict: 'BLOCK', findings: [injection, finding('malware', 'CRIT')], now });
    for (const m of [m1, m2, m3]) await attest(db, seeded, m, y, v1, { verdict: 'ALLOW', findings: [finding('obfuscation', 'LOW')], now });
    await attest(db, seeded, m1, z, v1, { verdict: 'WARN', findings: [finding('typosquat', 'MED')], now: T0 - 3 * DAY });

    const service = createPublicReadService(db);
    const trends = await service.threatTrends(30, new Date(T0 + HOUR));
    expect(ThreatTrends.parse(trends)).toEqual(trends);
    expect(trends.days).toBe(30);
    expect(trends.attestations).toBe(9);
    expect(trends.scanned).toBe(3);
    expect(trends.series).toHaveLength(30);
    expect(trends.series[0]!.day).toBe('2026-10-23');
    expect(trends.series.at(-1)).toEqual({ day: '2026-11-21', scanned: 2, flagged: 1, blocked: 1, warned: 1 });
    expect(trends.series.at(-4)).toEqual({ day: '2026-11-18', scanned: 1, flagged: 1, blocked: 0, warned: 1 });
    expect(trends.series.slice(0, -4).every((d) => d.scanned === 0)).toBe(true);
    expect(trends.totals).toEqual({ blocked: 1, warned: 2, flagged_artifacts: 2 });
    // LOW comes from an ALLOW attestation only: findings count for flagged verdicts.
    expect(trends.severity).toEqual({ CRIT: 1, HIGH: 1, MED: 1, LOW: 0 });
    expect(trends.categories).toEqual([
      { category: 'exfiltration', count: 1 },
      { category: 'malware', count: 1 },
      { category: 'prompt_injection', count: 1 },
      { category: 'typosquat', count: 1 },
    ]);
    expect(trends.by_plane).toEqual([
      { label: 'prompt', value: 1 },
      { label: 'install', value: 1 },
      { label: 'runtime', value: 1 },
    ]);
    expect(trends.by_track).toEqual([
      { label: 'skills', value: 2 },
      { label: 'mcp_servers', value: 0 },
      { label: 'packages', value: 0 },
      { label: 'repositories', value: 0 },
    ]);
    expect(trends.week).toEqual({ findings: 2, prev_findings: 0 });
    expect(trends.last_update).toBe('2026-11-21T11:00:00.000+00:00');

    // A two-day window no longer reaches Z (last flagged three days ago).
    const short = await service.threatTrends(2, new Date(T0 + HOUR));
    expect(short.series.map((d) => d.day)).toEqual(['2026-11-20', '2026-11-21']);
    expect(short).toMatchObject({ attestations: 8, scanned: 2, totals: { blocked: 1, warned: 1, flagged_artifacts: 1 } });
    expect(short.severity).toEqual({ CRIT: 1, HIGH: 1, MED: 0, LOW: 0 });

    // X flagged again the next day: still one artifact in the window, and one in each day's bucket.
    await attest(db, seeded, m3, x, v2, { verdict: 'WARN', findings: [injection], now: T0 + DAY });
    const later = await service.threatTrends(30, new Date(T0 + DAY + HOUR));
    expect(later.totals).toEqual({ blocked: 1, warned: 2, flagged_artifacts: 2 });
    expect(later.severity).toEqual({ CRIT: 1, HIGH: 1, MED: 1, LOW: 0 });
    expect(later.series.at(-1)).toEqual({ day: '2026-11-22', scanned: 1, flagged: 1, blocked: 0, warned: 1 });
    expect(later.series.at(-2)).toEqual({ day: '2026-11-21', scanned: 2, flagged: 1, blocked: 1, warned: 1 });
    // Two days later X's last BLOCK (day 0) is outside a 1-day window, its WARN (day 1) too.
    const narrow = await service.threatTrends(1, new Date(T0 + 2 * DAY));
    expect(narrow).toMatchObject({ scanned: 0, attestations: 0, totals: { blocked: 0, warned: 0, flagged_artifacts: 0 } });
    // First flags: X and Z within the week ending today; a week later they are last week's.
    const nextWeek = await service.threatTrends(30, new Date(T0 + 7 * DAY));
    expect(nextWeek.week).toEqual({ findings: 0, prev_findings: 2 });
  });

  it('dashboard: lifetime counts, 24 hourly buckets, tasks and reruns in the last 24 hours', async () => {
    const db = ctx.db();
    const [m1, m2] = [newKey(), newKey()];
    const [v1, v2, v3] = [newKey(), newKey(), newKey()];
    const A = { label: 'clawhub', sourceId: 'a', kind: 'live' as const };
    const B = { label: 'clawhub', sourceId: 'b', kind: 'live' as const };
    const seeded = await seedRound(db, { now: T0 - 2 * DAY, miners: [m1, m2], validators: [v1, v2], artifacts: [A, B] });
    await registerValidator(db, { hotkey: v3.hotkey, uid: 9, allowedIps: [], now: T0 });
    await setValidatorStatus(db, { hotkey: v3.hotkey, status: 'suspended', now: T0 });
    const [a, b] = [bundle('skills', A), bundle('skills', B)];
    await attest(db, seeded, m1, a, v1, { verdict: 'ALLOW', now: T0 - 24 * HOUR }); // outside the 24 buckets
    await attest(db, seeded, m1, a, v2, { verdict: 'BLOCK', now: T0 - 23 * HOUR }); // rerun, oldest bucket
    await attest(db, seeded, m1, b, v1, { verdict: 'WARN', now: T0 });
    await attest(db, seeded, m2, a, v1, { verdict: 'BLOCK', now: T0 + 10 });
    await attest(db, seeded, m2, a, v2, { verdict: 'BLOCK', now: T0 + 20 });

    const dashboard = await createPublicReadService(db).networkDashboard(new Date(T0 + 30 * 60_000));
    expect(NetworkDashboard.parse(dashboard)).toEqual(dashboard);
    expect(dashboard).toMatchObject({
      last_update: '2026-11-21T10:30:00.000+00:00',
      validators: { active: 2, total: 3 },
      miners: { total: 2 },
      agents: { total: 2, by_track: { skills: 2, mcp_servers: 0, packages: 0, repositories: 0 } },
      attestations: 5,
      tasks_24h: 2,
      reruns_24h: 2,
      verdicts: { ALLOW: 1, WARN: 1, BLOCK: 3 },
    });
    expect(dashboard.throughput).toEqual([1, ...new Array<number>(22).fill(0), 3]);
    expect(dashboard.track_mix).toEqual([
      { label: 'skills', value: 5 },
      { label: 'mcp_servers', value: 0 },
      { label: 'packages', value: 0 },
      { label: 'repositories', value: 0 },
    ]);
  });

  it('stays exact when attestations of one artifact arrive concurrently', async () => {
    const db = ctx.db();
    const miners = [newKey(), newKey(), newKey()];
    const validators = [newKey(), newKey(), newKey()];
    const seeded = await seedRound(db, { now: T0 - DAY, miners, validators, artifacts: [X] });
    const x = bundle('skills', X);
    await Promise.all(
      miners.flatMap((m) =>
        validators.map((v, i) => attest(db, seeded, m, x, v, { verdict: i === 0 ? 'WARN' : 'BLOCK', findings: [finding('malware', 'HIGH')], now: T0 })),
      ),
    );
    const service = createPublicReadService(db);
    const trends = await service.threatTrends(7, new Date(T0));
    expect(trends).toMatchObject({ attestations: 9, scanned: 1, totals: { blocked: 1, warned: 1, flagged_artifacts: 1 } });
    expect(trends.series.at(-1)).toEqual({ day: '2026-11-21', scanned: 1, flagged: 1, blocked: 1, warned: 1 });
    expect(trends.severity.HIGH).toBe(1);
    const dashboard = await service.networkDashboard(new Date(T0));
    expect(dashboard).toMatchObject({ attestations: 9, tasks_24h: 3, reruns_24h: 6 });
  });

  it('answers with zeros on an empty database', async () => {
    const service = createPublicReadService(ctx.db());
    const dashboard = await service.networkDashboard(new Date(T0));
    expect(NetworkDashboard.parse(dashboard)).toMatchObject({ attestations: 0, throughput: new Array<number>(24).fill(0) });
    const trends = await service.threatTrends(180, new Date(T0));
    expect(ThreatTrends.parse(trends).series).toHaveLength(180);
    expect(trends.categories).toEqual([]);
    await expect(service.threatTrends(181, new Date(T0))).rejects.toThrow(/^days:/);
  });
});
