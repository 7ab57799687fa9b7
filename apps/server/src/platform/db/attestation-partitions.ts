import { sql, type Kysely } from 'kysely';
import { dialectOf, TRANSACTION_LOCK_NAMESPACE } from './dialect.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * On PostgreSQL `attestations` is range-partitioned by the UTC month of `recorded_at` (migration
 * 0024, docs/storage.md "Attestation partitions"); SQLite keeps one table. This module is the
 * PostgreSQL side's upkeep and the one place a service learns which partition a hash lives in.
 */

/** How many months after the current one `ensureAttestationPartitions` keeps created. */
export const ATTESTATION_PARTITION_MONTHS_AHEAD = 3;

/** How often a running server re-checks its partitions (serve and worker, PostgreSQL only). */
export const ATTESTATION_PARTITION_CHECK_INTERVAL_MS = 6 * 3_600_000;

/** First millisecond (UTC) of the month holding `ms`. */
export function monthStartMs(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** First millisecond (UTC) of the month `months` after the one starting at `startMs`. */
export function addMonths(startMs: number, months: number): number {
  const d = new Date(startMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1);
}

/** `attestations_p2026_11`: the partition holding rows recorded in that UTC month. */
export function attestationPartitionName(startMs: number): string {
  const d = new Date(startMs);
  return `attestations_p${String(d.getUTCFullYear()).padStart(4, '0')}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * An attestation of a round is recorded after the round opened (its task was made then or later),
 * so a read by round may skip the months before `opened_at`. The margin covers instances whose
 * clocks disagree; months are what is pruned, so it costs nothing.
 */
export const ROUND_RECORDED_MARGIN_MS = 86_400_000;

/** The partition every row outside the monthly ones lands in (none should, once upkeep runs). */
export const ATTESTATION_DEFAULT_PARTITION = 'attestations_default';

/** Whether this database's `attestations` is the partitioned table (PostgreSQL after migration 0024). */
export async function attestationsArePartitioned(db: AnyDb): Promise<boolean> {
  if (dialectOf(db) !== 'postgres') return false;
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_partitioned_table p
    join pg_class c on c.oid = p.partrelid
    where c.relname = 'attestations' and c.relnamespace = current_schema()::regnamespace`.execute(db);
  return (rows[0]?.n ?? 0) > 0;
}

/** The monthly partitions that exist, by name. */
async function existingPartitions(db: AnyDb): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    where p.relname = 'attestations' and p.relnamespace = current_schema()::regnamespace`.execute(db);
  return new Set(rows.map((r) => r.name));
}

/**
 * Creates the monthly partition starting at `startMs`. A plain `CREATE TABLE … PARTITION OF` is
 * refused while the default partition holds rows of that month (stragglers written before upkeep ran),
 * so those rows are moved first: the month's table is made standalone, filled from the default
 * partition, then attached. Runs inside the caller's transaction.
 */
export async function createAttestationPartition(trx: AnyDb, startMs: number): Promise<void> {
  const endMs = addMonths(startMs, 1);
  const name = sql.id(attestationPartitionName(startMs));
  const stragglers = await sql<{ n: number }>`
    select count(*)::int as n from ${sql.id(ATTESTATION_DEFAULT_PARTITION)}
    where recorded_at >= ${startMs} and recorded_at < ${endMs}`.execute(trx);
  if ((stragglers.rows[0]?.n ?? 0) === 0) {
    await sql`create table ${name} partition of attestations for values from (${sql.lit(startMs)}) to (${sql.lit(endMs)})`.execute(trx);
    return;
  }
  await sql`create table ${name} (like attestations including defaults including constraints)`.execute(trx);
  await sql`with moved as (
      delete from ${sql.id(ATTESTATION_DEFAULT_PARTITION)} where recorded_at >= ${startMs} and recorded_at < ${endMs} returning *
    ) insert into ${name} select * from moved`.execute(trx);
  await sql`alter table attestations attach partition ${name} for values from (${sql.lit(startMs)}) to (${sql.lit(endMs)})`.execute(trx);
}

/**
 * The months (first ms, UTC) that rows in the default partition fall in: rows written for a month
 * with no partition (the demo seed's past days, a backfill, a process whose upkeep was refused its
 * lock). The default partition stays small, so reading it whole is cheap.
 */
async function monthsInDefaultPartition(db: AnyDb): Promise<number[]> {
  const { rows } = await sql<{ month: string | number }>`
    select distinct (extract(epoch from date_trunc('month', to_timestamp(recorded_at / 1000.0) at time zone 'UTC')) * 1000)::bigint as month
    from ${sql.id(ATTESTATION_DEFAULT_PARTITION)}`.execute(db);
  return rows.map((r) => monthStartMs(Number(r.month)));
}

export interface PartitionUpkeep {
  /** Partitions created by this call, by name, oldest first. */
  created: string[];
}

/**
 * Makes sure the partitions of the current month and the `monthsAhead` after it exist, so no
 * attestation lands in the default partition (and, with `since`, every month from that one on:
 * rows loaded with past receive times, as the benchmark's generator writes), plus the month of every
 * row found in the default partition (which is then moved into it). Nothing on SQLite (and no query: starting on SQLite
 * costs nothing), nor on a PostgreSQL database not yet partitioned. Processes doing it at once take
 * turns on an advisory lock; DDL waits at most `lockTimeoutMs` for the table (a long read holding
 * it), and a call that timed out is simply repeated at the next check.
 */
export async function ensureAttestationPartitions(
  db: AnyDb,
  nowMs: number,
  options: { monthsAhead?: number; lockTimeoutMs?: number; since?: number } = {},
): Promise<PartitionUpkeep> {
  if (!(await attestationsArePartitioned(db))) return { created: [] };
  const ahead = options.monthsAhead ?? ATTESTATION_PARTITION_MONTHS_AHEAD;
  const last = addMonths(monthStartMs(nowMs), ahead);
  const wanted: number[] = [];
  for (let start = monthStartMs(Math.min(options.since ?? nowMs, nowMs)); start <= last; start = addMonths(start, 1)) wanted.push(start);
  // Months already holding rows in the default partition are created too, so their rows move out.
  for (const start of await monthsInDefaultPartition(db)) if (!wanted.includes(start)) wanted.push(start);
  wanted.sort((a, b) => a - b);
  const present = await existingPartitions(db);
  if (wanted.every((start) => present.has(attestationPartitionName(start)))) return { created: [] };
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${TRANSACTION_LOCK_NAMESPACE}::integer, hashtext(current_schema() || '/attestation-partitions'))`.execute(trx);
    await sql`select set_config('lock_timeout', ${String(options.lockTimeoutMs ?? 5_000)}, true)`.execute(trx);
    const now = await existingPartitions(trx);
    const created: string[] = [];
    for (const start of wanted) {
      const name = attestationPartitionName(start);
      if (now.has(name)) continue;
      await createAttestationPartition(trx, start);
      created.push(name);
    }
    return { created };
  });
}

/** PostgreSQL's codes for a lock not had within `lock_timeout` and a statement cancelled by a timeout. */
const LOCK_OR_TIMEOUT_CODES = new Set(['55P03', '57014']);

/** Whether `error` is the upkeep giving up on its lock (a long transaction holds `attestations`). */
export function isPartitionLockTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && LOCK_OR_TIMEOUT_CODES.has(code);
}

/**
 * The upkeep as `migrate`, `serve` and `worker` run it at start: one output line per partition
 * created. Not having the lock in time (a `pg_dump` or other long reader holding `attestations`
 * near a month's rollover) is not fatal: the process goes on, rows of a missing month land in the
 * default partition, and the next check or start creates the month and moves them. Any other error
 * is thrown.
 */
export async function attestationPartitionUpkeepAtStart(
  db: AnyDb,
  nowMs: number,
  options: { lockTimeoutMs?: number } = {},
): Promise<string[]> {
  try {
    const { created } = await ensureAttestationPartitions(db, nowMs, options);
    return created.map((name) => `created attestation partition: ${name}`);
  } catch (error) {
    if (!isPartitionLockTimeout(error)) throw error;
    return [
      `attestation partition upkeep skipped, retried at the next check: ${(error as Error).message} (a transaction holds attestations; rows of a month without a partition go to ${ATTESTATION_DEFAULT_PARTITION} meanwhile)`,
    ];
  }
}

/**
 * The partition keys (`recorded_at`) of the attestations with these canonical hashes, read from
 * `attestation_keys` (one primary-key probe per hash), so a lookup by hash can name them and
 * PostgreSQL reads one partition per hash instead of probing every month. `undefined` where there
 * is nothing to narrow (SQLite, or a database not partitioned yet): the caller looks up by hash
 * alone. An empty list means none of the hashes is stored. Every PostgreSQL database this code runs
 * on has `attestation_keys`: `serve` migrates before it answers.
 */
export async function partitionKeysOfHashes(db: AnyDb, hashes: readonly string[]): Promise<number[] | undefined> {
  if (dialectOf(db) !== 'postgres' || hashes.length === 0) return undefined;
  const { rows } = await sql<{ recorded_at: string | number }>`
    select distinct recorded_at from attestation_keys where canonical_hash = any(${[...hashes]}::text[])`.execute(db);
  return rows.map((r) => Number(r.recorded_at));
}

/** Whether this database has partitions to keep (PostgreSQL): the upkeep loop runs only there. */
export function hasAttestationPartitions(db: AnyDb): boolean {
  return dialectOf(db) === 'postgres';
}

export interface PartitionUpkeepLoop {
  start(): void;
  stop(): void;
}

/**
 * Repeats `ensureAttestationPartitions` every `intervalMs` in a running process, so one that runs
 * for months still creates the next month before its first attestation arrives. Errors (a lock
 * not had, the database away) are reported and retried at the next interval; the timer never holds
 * the process open.
 */
export function partitionUpkeepEvery(
  db: AnyDb,
  intervalMs: number,
  report: { created(names: readonly string[]): void; failed(error: unknown): void },
  now: () => number = Date.now,
): PartitionUpkeepLoop {
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      const { created } = await ensureAttestationPartitions(db, now());
      if (created.length > 0) report.created(created);
    } catch (error) {
      report.failed(error);
    }
  };
  return {
    start() {
      if (timer !== undefined) return;
      timer = setInterval(() => void tick(), intervalMs);
      timer.unref();
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}
