import { planeOfCategory } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database, TrackName, VerdictName } from '../../../platform/db/schema.js';
import { epochDay, epochHour } from '../../../platform/db/time.js';
import { chunkRows } from '../../../platform/db/chunk-rows.js';

/**
 * Write-side maintenance of every dashboard and trends aggregate (definitions: docs/aggregates.md).
 * Runs inside the transaction that inserts the attestation, after the artifact row is locked, so
 * the read side never scans attestations.
 */

export interface AttestationFacts {
  artifactId: number;
  track: TrackName;
  verdict: VerdictName;
  findings: readonly { severity: string; category: string }[];
  /** Server receive time (epoch ms): fixes the hour and the UTC day the attestation counts in. */
  recordedAt: number;
  /** Another attestation of the same task was recorded before this one. */
  isRerun: boolean;
}

const SCANNED_BIT = 1;
const WARNED_BIT = 2;
const BLOCKED_BIT = 4;
const FLAGGED_BITS = WARNED_BIT | BLOCKED_BIT;

/** Holds the first (not the last) flagged day; never moves once written. */
export const FIRST_FLAGGED_METRIC = 'first_flagged';

function verdictBits(verdict: VerdictName): number {
  if (verdict === 'BLOCK') return SCANNED_BIT | BLOCKED_BIT;
  if (verdict === 'WARN') return SCANNED_BIT | WARNED_BIT;
  return SCANNED_BIT;
}

function signalKey(metric: string, key: string): string {
  return `${metric}\u0000${key}`;
}

/** The (metric, key) signals an attestation shows for its artifact. Findings count only on flagged verdicts. */
function signalsOf(facts: AttestationFacts): { metric: string; key: string }[] {
  const signals = [{ metric: 'scanned', key: '' }];
  if (facts.verdict === 'ALLOW') return signals;
  signals.push({ metric: 'flagged', key: '' }, { metric: 'track', key: facts.track }, { metric: FIRST_FLAGGED_METRIC, key: '' });
  signals.push({ metric: facts.verdict === 'BLOCK' ? 'blocked' : 'warned', key: '' });
  const seen = new Set<string>();
  for (const finding of facts.findings) {
    for (const [metric, key] of [
      ['severity', finding.severity],
      ['category', finding.category],
      ['plane', planeOfCategory(finding.category)],
    ] as const) {
      const id = signalKey(metric, key);
      if (seen.has(id)) continue;
      seen.add(id);
      signals.push({ metric, key });
    }
  }
  return signals;
}

// ---------------------------------------------------------------------------------------------
// One write path: every attestation, alone or in a batch, goes through the batched statements.

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function add(map: Map<string, number>, key: string, delta: number): void {
  map.set(key, (map.get(key) ?? 0) + delta);
}

async function bumpCountersBatch(trx: Kysely<Database>, batch: readonly AttestationFacts[]): Promise<void> {
  const deltas = new Map<string, number>();
  for (const facts of batch) {
    add(deltas, 'attestations', 1);
    add(deltas, `verdict:${facts.verdict}`, 1);
    add(deltas, `track:${facts.track}`, 1);
  }
  // `attestations` first, as in the single path: every writer takes that row before any other
  // counter, so concurrent writers queue on it instead of deadlocking on the rest.
  const names = [...deltas.keys()].filter((n) => n !== 'attestations').sort(compareText);
  await trx
    .insertInto('stat_counters')
    .values(['attestations', ...names].map((name) => ({ name, value: deltas.get(name)! })))
    .onConflict((oc) =>
      oc.column('name').doUpdateSet((eb) => ({ value: eb('stat_counters.value', '+', eb.ref('excluded.value')) })),
    )
    .execute();
}

async function bumpHoursBatch(trx: Kysely<Database>, batch: readonly AttestationFacts[]): Promise<void> {
  const hours = new Map<number, { hour: number; attestations: number; first_attestations: number; reruns: number }>();
  for (const facts of batch) {
    const hour = epochHour(facts.recordedAt);
    const entry = hours.get(hour) ?? { hour, attestations: 0, first_attestations: 0, reruns: 0 };
    entry.attestations += 1;
    if (facts.isRerun) entry.reruns += 1;
    else entry.first_attestations += 1;
    hours.set(hour, entry);
  }
  await trx
    .insertInto('attestation_hours')
    .values([...hours.values()].sort((a, b) => a.hour - b.hour))
    .onConflict((oc) =>
      oc.column('hour').doUpdateSet((eb) => ({
        attestations: eb('attestation_hours.attestations', '+', eb.ref('excluded.attestations')),
        first_attestations: eb('attestation_hours.first_attestations', '+', eb.ref('excluded.first_attestations')),
        reruns: eb('attestation_hours.reruns', '+', eb.ref('excluded.reruns')),
      })),
    )
    .execute();
}

/**
 * artifact_days and trend_days for the whole batch: the (artifact, day) masks are replayed in
 * batch order from their stored values, so each attestation contributes exactly the trend_days
 * increments it would have alone; the increments are then summed per (day, track).
 */
async function bumpDaysBatch(trx: Kysely<Database>, batch: readonly AttestationFacts[]): Promise<void> {
  const artifactIds = [...new Set(batch.map((f) => f.artifactId))];
  const days = [...new Set(batch.map((f) => epochDay(f.recordedAt)))];
  const stored = await trx
    .selectFrom('artifact_days')
    .select(['artifact_id', 'day', 'mask'])
    .where('artifact_id', 'in', artifactIds)
    .where('day', 'in', days)
    .execute();
  const pairKey = (artifactId: number, day: number) => `${artifactId}:${day}`;
  const initial = new Map(stored.map((r) => [pairKey(r.artifact_id, r.day), r.mask]));
  const masks = new Map<string, { artifact_id: number; day: number; mask: number }>();
  const trend = new Map<string, { day: number; track: TrackName; attestations: number; scanned: number; flagged: number; blocked: number; warned: number }>();

  for (const facts of batch) {
    const day = epochDay(facts.recordedAt);
    const id = pairKey(facts.artifactId, day);
    const current = masks.get(id) ?? { artifact_id: facts.artifactId, day, mask: initial.get(id) ?? 0 };
    const before = current.mask;
    const after = before | verdictBits(facts.verdict);
    current.mask = after;
    masks.set(id, current);
    const newly = (bit: number) => ((after & bit) !== 0 && (before & bit) === 0 ? 1 : 0);
    const trendId = `${day}\u0000${facts.track}`;
    const entry = trend.get(trendId) ?? { day, track: facts.track, attestations: 0, scanned: 0, flagged: 0, blocked: 0, warned: 0 };
    entry.attestations += 1;
    entry.scanned += newly(SCANNED_BIT);
    entry.flagged += (after & FLAGGED_BITS) !== 0 && (before & FLAGGED_BITS) === 0 ? 1 : 0;
    entry.blocked += newly(BLOCKED_BIT);
    entry.warned += newly(WARNED_BIT);
    trend.set(trendId, entry);
  }

  // Written only where the single path would have written: new pairs and changed masks.
  const changed = [...masks.entries()]
    .filter(([id, row]) => initial.get(id) !== row.mask)
    .map(([, row]) => row)
    .sort((a, b) => a.artifact_id - b.artifact_id || a.day - b.day);
  for (const rows of chunkRows(changed, 3)) {
    await trx
      .insertInto('artifact_days')
      .values(rows)
      .onConflict((oc) => oc.columns(['artifact_id', 'day']).doUpdateSet((eb) => ({ mask: eb.ref('excluded.mask') })))
      .execute();
  }
  await trx
    .insertInto('trend_days')
    .values([...trend.values()].sort((a, b) => a.day - b.day || compareText(a.track, b.track)))
    .onConflict((oc) =>
      oc.columns(['day', 'track']).doUpdateSet((eb) => ({
        attestations: eb('trend_days.attestations', '+', eb.ref('excluded.attestations')),
        scanned: eb('trend_days.scanned', '+', eb.ref('excluded.scanned')),
        flagged: eb('trend_days.flagged', '+', eb.ref('excluded.flagged')),
        blocked: eb('trend_days.blocked', '+', eb.ref('excluded.blocked')),
        warned: eb('trend_days.warned', '+', eb.ref('excluded.warned')),
      })),
    )
    .execute();
}

/**
 * artifact_signals and the trend_last_days histogram for the whole batch. Last days are replayed
 * in batch order from their stored values; every histogram move is summed per (metric, key, day),
 * and every row a move touches is written even when its moves cancel out (+1 then −1), because
 * the single path leaves such a row behind with its net count.
 */
async function bumpSignalsBatch(trx: Kysely<Database>, batch: readonly AttestationFacts[]): Promise<void> {
  const artifactIds = [...new Set(batch.map((f) => f.artifactId))];
  const stored = await trx
    .selectFrom('artifact_signals')
    .select(['artifact_id', 'metric', 'key', 'last_day'])
    .where('artifact_id', 'in', artifactIds)
    .execute();
  const rowKey = (artifactId: number, metric: string, key: string) => `${artifactId}\u0000${signalKey(metric, key)}`;
  const lastDays = new Map(stored.map((r) => [rowKey(r.artifact_id, r.metric, r.key), r.last_day]));
  const writes = new Map<string, { artifact_id: number; metric: string; key: string; last_day: number }>();
  const histogram = new Map<string, { metric: string; key: string; day: number; artifacts: number }>();
  const addHistogram = (metric: string, key: string, d: number, delta: number) => {
    const id = `${signalKey(metric, key)}\u0000${d}`;
    const entry = histogram.get(id) ?? { metric, key, day: d, artifacts: 0 };
    entry.artifacts += delta;
    histogram.set(id, entry);
  };

  for (const facts of batch) {
    const day = epochDay(facts.recordedAt);
    for (const { metric, key } of signalsOf(facts)) {
      const id = rowKey(facts.artifactId, metric, key);
      const previous = lastDays.get(id);
      if (previous === undefined) {
        addHistogram(metric, key, day, 1);
      } else if (day > previous && metric !== FIRST_FLAGGED_METRIC) {
        addHistogram(metric, key, previous, -1);
        addHistogram(metric, key, day, 1);
      } else {
        continue;
      }
      lastDays.set(id, day);
      writes.set(id, { artifact_id: facts.artifactId, metric, key, last_day: day });
    }
  }
  if (writes.size === 0) return;

  const signalRows = [...writes.values()].sort(
    (a, b) => a.artifact_id - b.artifact_id || compareText(a.metric, b.metric) || compareText(a.key, b.key),
  );
  for (const rows of chunkRows(signalRows, 4)) {
    await trx
      .insertInto('artifact_signals')
      .values(rows)
      .onConflict((oc) => oc.columns(['artifact_id', 'metric', 'key']).doUpdateSet((eb) => ({ last_day: eb.ref('excluded.last_day') })))
      .execute();
  }
  // Same global lock order as the single path: (metric, key, day).
  const histogramRows = [...histogram.values()].sort(
    (a, b) => compareText(a.metric, b.metric) || compareText(a.key, b.key) || a.day - b.day,
  );
  for (const rows of chunkRows(histogramRows, 4)) {
    await trx
      .insertInto('trend_last_days')
      .values(rows)
      .onConflict((oc) =>
        oc
          .columns(['metric', 'key', 'day'])
          .doUpdateSet((eb) => ({ artifacts: eb('trend_last_days.artifacts', '+', eb.ref('excluded.artifacts')) })),
      )
      .execute();
  }
}

/**
 * The aggregates of many attestations, in their order, exactly as if each had been recorded alone
 * one after the other (the single path is this one with one row), but with a number of
 * statements that grows with the distinct keys the batch touches (hours, days, artifacts,
 * signals), not with its length. Runs in the transaction that inserts the attestations, after
 * their artifact rows are locked.
 */
export async function applyAttestationAggregatesBatch(trx: Kysely<Database>, batch: readonly AttestationFacts[]): Promise<void> {
  if (batch.length === 0) return;
  await bumpCountersBatch(trx, batch);
  await bumpHoursBatch(trx, batch);
  await bumpDaysBatch(trx, batch);
  await bumpSignalsBatch(trx, batch);
}

/** One attestation's aggregates: the batch path with one row, so the two can never disagree. */
export async function applyAttestationAggregates(trx: Kysely<Database>, facts: AttestationFacts): Promise<void> {
  await applyAttestationAggregatesBatch(trx, [facts]);
}
