import {
  PLANES,
  SEVERITIES,
  TRACKS,
  formatDay,
  formatOffsetTimestamp,
  type NetworkDashboard,
  type ThreatTrends,
} from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { dayStartMs, epochDay, epochHour } from '../../../platform/db/time.js';
import { FIRST_FLAGGED_METRIC } from '../attestations/aggregates.js';

const HOURS_IN_WINDOW = 24;
const WEEK_DAYS = 7;

/** GET /v1/dashboard/network from the write-side rollups (docs/aggregates.md). */
export async function readNetworkDashboard(db: Kysely<Database>, now: Date): Promise<NetworkDashboard> {
  const nowMs = now.getTime();
  const lastHour = epochHour(nowMs);
  const firstHour = lastHour - (HOURS_IN_WINDOW - 1);
  const [validators, agents, miners, counters, hours] = await Promise.all([
    db.selectFrom('validators').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute(),
    db
      .selectFrom('agents')
      .select(['track', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', '=', 'active')
      .groupBy('track')
      .execute(),
    db
      .selectFrom('miners')
      .innerJoin('agents', (j) => j.onRef('agents.hotkey', '=', 'miners.hotkey').onRef('agents.track', '=', 'miners.track'))
      .select((eb) => eb.fn.count<number>('miners.hotkey').distinct().as('n'))
      .where('miners.status', '=', 'registered')
      .where('agents.status', '=', 'active')
      .executeTakeFirst(),
    db.selectFrom('stat_counters').select(['name', 'value']).execute(),
    db
      .selectFrom('attestation_hours')
      .select(['hour', 'attestations', 'first_attestations', 'reruns'])
      .where('hour', '>=', firstHour)
      .where('hour', '<=', lastHour)
      .execute(),
  ]);

  const counter = new Map(counters.map((c) => [c.name, Number(c.value)]));
  const byTrack = Object.fromEntries(TRACKS.map((t) => [t, 0])) as Record<(typeof TRACKS)[number], number>;
  for (const row of agents) byTrack[row.track] = Number(row.n);
  const throughput = new Array<number>(HOURS_IN_WINDOW).fill(0);
  let tasks24h = 0;
  let reruns24h = 0;
  for (const h of hours) {
    throughput[Number(h.hour) - firstHour] = Number(h.attestations);
    tasks24h += Number(h.first_attestations);
    reruns24h += Number(h.reruns);
  }
  const validatorCount = (status: string) => Number(validators.find((v) => v.status === status)?.n ?? 0);
  return {
    last_update: formatOffsetTimestamp(now),
    validators: {
      active: validatorCount('active'),
      total: validators.reduce((sum, v) => sum + Number(v.n), 0),
    },
    miners: { total: Number(miners?.n ?? 0) },
    agents: { total: Object.values(byTrack).reduce((a, b) => a + b, 0), by_track: byTrack },
    attestations: counter.get('attestations') ?? 0,
    tasks_24h: tasks24h,
    reruns_24h: reruns24h,
    throughput,
    verdicts: {
      ALLOW: counter.get('verdict:ALLOW') ?? 0,
      WARN: counter.get('verdict:WARN') ?? 0,
      BLOCK: counter.get('verdict:BLOCK') ?? 0,
    },
    track_mix: TRACKS.map((t) => ({ label: t, value: counter.get(`track:${t}`) ?? 0 })),
  };
}

/** GET /v1/threats/trends: window = the `days` UTC days ending today (docs/aggregates.md). */
export async function readThreatTrends(db: Kysely<Database>, days: number, now: Date): Promise<ThreatTrends> {
  if (!Number.isInteger(days) || days < 1 || days > 180) throw new RangeError('days: expected an integer from 1 to 180');
  const today = epochDay(now.getTime());
  const start = today - (days - 1);
  const [signals, series, week] = await Promise.all([
    db
      .selectFrom('trend_last_days')
      .select(['metric', 'key', (eb) => eb.fn.sum<number>('artifacts').as('n')])
      .where('day', '>=', start)
      .where('metric', '<>', FIRST_FLAGGED_METRIC)
      .groupBy(['metric', 'key'])
      .execute(),
    db
      .selectFrom('trend_days')
      .select((eb) => [
        'day',
        eb.fn.sum<number>('attestations').as('attestations'),
        eb.fn.sum<number>('scanned').as('scanned'),
        eb.fn.sum<number>('flagged').as('flagged'),
        eb.fn.sum<number>('blocked').as('blocked'),
        eb.fn.sum<number>('warned').as('warned'),
      ])
      .where('day', '>=', start)
      .where('day', '<=', today)
      .groupBy('day')
      .execute(),
    db
      .selectFrom('trend_last_days')
      .select((eb) => [
        eb.fn
          .sum<number>(eb.case().when('day', '>=', today - (WEEK_DAYS - 1)).then(eb.ref('artifacts')).else(0).end())
          .as('findings'),
        eb.fn
          .sum<number>(eb.case().when('day', '<', today - (WEEK_DAYS - 1)).then(eb.ref('artifacts')).else(0).end())
          .as('prev_findings'),
      ])
      .where('metric', '=', FIRST_FLAGGED_METRIC)
      .where('day', '>=', today - (2 * WEEK_DAYS - 1))
      .where('day', '<=', today)
      .executeTakeFirst(),
  ]);

  const count = (metric: string, key = '') =>
    Number(signals.find((s) => s.metric === metric && s.key === key)?.n ?? 0);
  const byDay = new Map(series.map((s) => [Number(s.day), s]));
  const seriesOut = [];
  let attestations = 0;
  for (let day = start; day <= today; day++) {
    const row = byDay.get(day);
    attestations += Number(row?.attestations ?? 0);
    seriesOut.push({
      day: formatDay(dayStartMs(day)),
      scanned: Number(row?.scanned ?? 0),
      flagged: Number(row?.flagged ?? 0),
      blocked: Number(row?.blocked ?? 0),
      warned: Number(row?.warned ?? 0),
    });
  }
  const categories = signals
    .filter((s) => s.metric === 'category' && Number(s.n) > 0)
    .map((s) => ({ category: s.key, count: Number(s.n) }))
    .sort((a, b) => b.count - a.count || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));

  return {
    last_update: formatOffsetTimestamp(now),
    days,
    attestations,
    scanned: count('scanned'),
    series: seriesOut,
    week: { findings: Number(week?.findings ?? 0), prev_findings: Number(week?.prev_findings ?? 0) },
    totals: { blocked: count('blocked'), warned: count('warned'), flagged_artifacts: count('flagged') },
    severity: Object.fromEntries(SEVERITIES.map((s) => [s, count('severity', s)])) as ThreatTrends['severity'],
    categories,
    by_plane: PLANES.map((p) => ({ label: p, value: count('plane', p) })),
    by_track: TRACKS.map((t) => ({ label: t, value: count('track', t) })),
  };
}
