import { TRACKS } from '@vigil/core';
import type { Kysely } from 'kysely';
import { Gauge, Registry } from 'prom-client';
import { pendingMigrations } from '../db/migrate.js';
import type { Database } from '../db/schema.js';
import { metricsRegistry } from './metrics.js';

/**
 * Counts read on scrape stop here: past it a backlog is an incident whatever its exact size, and
 * counting ten million rows on every scrape would be one more.
 */
export const METRIC_COUNT_CAP = 100_000;

const ROUND_PHASES = ['submission', 'evaluation', 'between'] as const;

/**
 * The gauges read from the database, apart from the rest: a scrape whose reads failed leaves them
 * out (prom-client would print a label-less gauge as 0, which reads as "no backlog").
 */
export const databaseRegistry = new Registry();

export const databaseUp = new Gauge({
  name: 'vigil_metrics_database_up',
  help: '1 when the database reads of the last scrape succeeded within VIGIL_METRICS_QUERY_TIMEOUT_MS; 0 otherwise (the gauges read from the database are then absent).',
  registers: [metricsRegistry],
});
const outboxBacklog = new Gauge({
  name: 'vigil_outbox_backlog_events',
  help: `Events in the outbox not yet fanned out into webhook deliveries (capped at ${METRIC_COUNT_CAP}).`,
  registers: [databaseRegistry],
});
const outboxOldestAge = new Gauge({
  name: 'vigil_outbox_oldest_age_seconds',
  help: 'Age of the oldest event not yet fanned out into deliveries; 0 when none.',
  registers: [databaseRegistry],
});
const deliveries = new Gauge({
  name: 'vigil_webhook_deliveries',
  help: `Webhook deliveries by state: pending (waiting for an attempt or a retry) and delivering (an attempt in flight); each capped at ${METRIC_COUNT_CAP}.`,
  labelNames: ['state'] as const,
  registers: [databaseRegistry],
});
const deliveryOverdue = new Gauge({
  name: 'vigil_webhook_delivery_overdue_seconds',
  help: 'How long the most overdue pending delivery has been due; 0 when none is due.',
  registers: [databaseRegistry],
});
const roundPhase = new Gauge({
  name: 'vigil_round_phase',
  help: 'Phase of each track: 1 for its current phase (submission, evaluation, or between: no round open), 0 for the others.',
  labelNames: ['track', 'phase'] as const,
  registers: [databaseRegistry],
});
const roundOverdue = new Gauge({
  name: 'vigil_round_overdue_seconds',
  help: "How far past its planned time the track's next scheduler transition is (submission close, round close, next round open); 0 when on time.",
  labelNames: ['track'] as const,
  registers: [databaseRegistry],
});
const registryFetches = new Gauge({
  name: 'vigil_registry_fetches',
  help: `Registry fetches by state: queued (waiting for a worker or a retry) and running; each capped at ${METRIC_COUNT_CAP}.`,
  labelNames: ['state'] as const,
  registers: [databaseRegistry],
});
const registryFetchOverdue = new Gauge({
  name: 'vigil_registry_fetch_overdue_seconds',
  help: 'How long the most overdue queued registry fetch has been due; 0 when none is due.',
  registers: [databaseRegistry],
});

// Readiness's other reason (docs/operations.md, "Probes"): the VigilNotReady alert reads it
// alongside vigil_metrics_database_up. A migration table that cannot be read fails the reads (up 0).
const migrationsPending = new Gauge({
  name: 'vigil_migrations_pending',
  help: 'Migrations this release knows that the database has not applied (then /ready answers 503 "migrations behind"); 0 when up to date.',
  registers: [databaseRegistry],
});

const READ_GAUGES = [migrationsPending, outboxBacklog, outboxOldestAge, deliveries, deliveryOverdue, roundPhase, roundOverdue, registryFetches, registryFetchOverdue];

const seconds = (ms: number) => Math.max(0, ms) / 1000;

/** Rows matching a condition, counted up to METRIC_COUNT_CAP (the subquery stops there). */
async function cappedCount(db: Kysely<Database>, table: 'webhook_deliveries' | 'registry_fetches', state: string): Promise<number> {
  const row = await db
    .selectFrom((eb) => eb.selectFrom(table).select('state').where('state', '=', state as never).limit(METRIC_COUNT_CAP).as('capped'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function earliestDue(db: Kysely<Database>, table: 'webhook_deliveries' | 'registry_fetches', state: string, now: number): Promise<number | null> {
  // (state, next_attempt_at) indexes both tables: this is one index probe.
  const row = await db
    .selectFrom(table)
    .select('next_attempt_at')
    .where('state', '=', state as never)
    .where('next_attempt_at', 'is not', null)
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(1)
    .executeTakeFirst();
  return row?.next_attempt_at == null ? null : Number(row.next_attempt_at);
}

async function readOutbox(db: Kysely<Database>, now: number): Promise<void> {
  // Both read outbox_pending_idx, the partial index on seq of the rows not yet fanned out.
  const count = await db
    .selectFrom((eb) => eb.selectFrom('outbox_events').select('seq').where('delivered_at', 'is', null).limit(METRIC_COUNT_CAP).as('capped'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  const oldest = await db.selectFrom('outbox_events').select('created_at').where('delivered_at', 'is', null).orderBy('seq').limit(1).executeTakeFirst();
  outboxBacklog.set(Number(count?.n ?? 0));
  outboxOldestAge.set(oldest === undefined ? 0 : seconds(now - Number(oldest.created_at)));
}

async function readDeliveries(db: Kysely<Database>, now: number): Promise<void> {
  const pending = await cappedCount(db, 'webhook_deliveries', 'pending');
  const delivering = await cappedCount(db, 'webhook_deliveries', 'delivering');
  const due = await earliestDue(db, 'webhook_deliveries', 'pending', now);
  deliveries.set({ state: 'pending' }, pending);
  deliveries.set({ state: 'delivering' }, delivering);
  deliveryOverdue.set(due === null ? 0 : seconds(now - due));
}

async function readRegistryFetches(db: Kysely<Database>, now: number): Promise<void> {
  const queued = await cappedCount(db, 'registry_fetches', 'queued');
  const running = await cappedCount(db, 'registry_fetches', 'running');
  const due = await earliestDue(db, 'registry_fetches', 'queued', now);
  registryFetches.set({ state: 'queued' }, queued);
  registryFetches.set({ state: 'running' }, running);
  registryFetchOverdue.set(due === null ? 0 : seconds(now - due));
}

async function readRounds(db: Kysely<Database>, now: number): Promise<void> {
  const open = await db.selectFrom('rounds').select(['track', 'phase', 'submission_closes_at', 'closes_at']).where('status', '=', 'open').execute();
  for (const track of TRACKS) {
    const round = open.find((r) => r.track === track);
    let phase: (typeof ROUND_PHASES)[number];
    let dueAt: number | null;
    if (round !== undefined) {
      phase = round.phase === 'submission' ? 'submission' : 'evaluation';
      dueAt = Number(round.phase === 'submission' ? round.submission_closes_at : round.closes_at);
    } else {
      phase = 'between';
      // rounds_status_idx (status, track): the track's closed rounds, the latest close first.
      const last = await db
        .selectFrom('rounds')
        .select('next_round_opens_at')
        .where('status', '=', 'closed')
        .where('track', '=', track)
        .orderBy('closed_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      dueAt = last?.next_round_opens_at == null ? null : Number(last.next_round_opens_at);
    }
    for (const p of ROUND_PHASES) roundPhase.set({ track, phase: p }, p === phase ? 1 : 0);
    roundOverdue.set({ track }, dueAt === null ? 0 : seconds(now - dueAt));
  }
}

class ScrapeTimeout extends Error {
  override name = 'ScrapeTimeout';
}

/**
 * Sets the gauges read from the database, all within `timeoutMs`. On failure (or past the bound)
 * they are removed rather than left at stale values, `vigil_metrics_database_up` is 0, and the
 * error is returned for the log. Reads still running past the bound finish in the background
 * under the database's own statement timeout.
 */
export async function refreshDatabaseGauges(db: Kysely<Database>, options: { now: number; timeoutMs: number }): Promise<Error | null> {
  const { now, timeoutMs } = options;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ScrapeTimeout(`database reads took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  // One statement at a time: a scrape holds at most one pooled connection, never the API's share.
  const reads = (async () => {
    await readOutbox(db, now);
    await readDeliveries(db, now);
    await readRegistryFetches(db, now);
    await readRounds(db, now);
    migrationsPending.set((await pendingMigrations(db)).length);
  })();
  try {
    await Promise.race([reads, bound]);
    databaseUp.set(1);
    return null;
  } catch (error) {
    reads.catch(() => undefined);
    for (const g of READ_GAUGES) g.reset();
    databaseUp.set(0);
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    clearTimeout(timer);
  }
}
