import type { AttestationSubmission } from '@vigil/core';
import { sql, type Kysely, type Transaction } from 'kysely';
import { skipLockedClause } from '../../../platform/db/dialect.js';
import type { Database, RoundsTable, TaskLeasesTable, TrackName } from '../../../platform/db/schema.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { recordAttestation, type CheckedSnapshot, type RecordedAttestation } from '../attestations/attestations.js';
import { recordAttestations, type AttestationBatchResult } from '../attestations/attestations-batch.js';
import { VigilError } from '../../../platform/errors.js';

import { REPLICAS } from './replicas.js';
import { incumbentRounds } from './fast-tasks.js';

export { REPLICAS } from './replicas.js';
/** How long a lease holds its replica slot without a heartbeat (progress report). */
export const LEASE_MS = 10 * 60_000;
/** How long after its lease expired a validator may still submit the task's attestation. */
export const LEASE_GRACE_MS = LEASE_MS;
/** Lock-and-recount passes per round: a task found full on the recount is replaced by the next candidate. */
const CLAIM_ATTEMPTS = 3;

export interface ClaimedTask {
  taskId: string;
  leaseExpiresAt: number;
  minerHotkey: string;
  agentHash: string;
  bundleHash: string;
  sha256: string;
}

export interface TaskClaimResult {
  /** The round the tasks belong to; null when no round is in its evaluation phase. */
  round: Pick<RoundsTable, 'round_id' | 'track' | 'round_number' | 'policy_version' | 'closes_at'> | null;
  tasks: ClaimedTask[];
}

/** A lease holds a replica slot while completed, or leased/running and not yet expired. */
function holdsSlot(lease: Pick<TaskLeasesTable, 'state' | 'expires_at'>, now: number): boolean {
  return lease.state === 'completed' || ((lease.state === 'leased' || lease.state === 'running') && lease.expires_at > now);
}

/**
 * Task ids of a round this validator may take, fewest occupied slots first, locked (PostgreSQL,
 * SKIP LOCKED: a concurrent claimer takes other tasks instead of waiting). The slot count here may
 * be stale under concurrency; the caller recounts once the rows are locked.
 */
async function lockCandidates(
  trx: Transaction<Database>,
  input: { roundId: string; fast: boolean; validatorHotkey: string; now: number; limit: number; exclude: readonly string[] },
): Promise<string[]> {
  const { roundId, validatorHotkey: v, now } = input;
  // Validators holding a slot: live or completed leases, plus attestations recorded without a lease
  // (written by other paths than the signed endpoint) so they are not run a fourth time.
  const occupied = sql<number>`(
    (select count(*) from task_leases l
      where l.task_id = t.task_id
        and (l.state = 'completed' or (l.state in ('leased', 'running') and l.expires_at > ${now})))
    + (select count(*) from attestations a
      where a.task_id = t.task_id
        and not exists (select 1 from task_leases l2
          where l2.task_id = a.task_id and l2.validator_hotkey = a.validator_hotkey and l2.state = 'completed')))`;
  const excluded =
    input.exclude.length === 0 ? sql`` : sql`and t.task_id not in (${sql.join(input.exclude.map((id) => sql`${id}`))})`;
  const result = await sql<{ task_id: string }>`
    select t.task_id from tasks t
    where t.round_id = ${roundId}
      and t.fast = ${input.fast ? 1 : 0}
      and not exists (select 1 from task_leases m where m.task_id = t.task_id and m.validator_hotkey = ${v})
      and not exists (select 1 from attestations m where m.task_id = t.task_id and m.validator_hotkey = ${v})
      ${excluded}
      and ${occupied} < ${REPLICAS}
    order by ${occupied}, t.created_at, t.task_id
    limit ${input.limit}
    ${skipLockedClause(trx, 't')}`.execute(trx);
  return result.rows.map((r) => r.task_id);
}

/** Of the locked tasks, those that still have a free slot and were never leased to or attested by the validator. */
async function stillClaimable(trx: Transaction<Database>, ids: readonly string[], validatorHotkey: string, now: number): Promise<string[]> {
  if (ids.length === 0) return [];
  const leases = await trx
    .selectFrom('task_leases')
    .select(['task_id', 'validator_hotkey', 'state', 'expires_at'])
    .where('task_id', 'in', ids)
    .execute();
  const attestations = await trx.selectFrom('attestations').select(['task_id', 'validator_hotkey']).where('task_id', 'in', ids).execute();
  const holders = new Map<string, Set<string>>(ids.map((id) => [id, new Set<string>()]));
  const mine = new Set<string>();
  for (const lease of leases) {
    if (lease.validator_hotkey === validatorHotkey) mine.add(lease.task_id);
    if (holdsSlot(lease, now)) holders.get(lease.task_id)!.add(lease.validator_hotkey);
  }
  for (const a of attestations) {
    if (a.validator_hotkey === validatorHotkey) mine.add(a.task_id);
    holders.get(a.task_id)!.add(a.validator_hotkey);
  }
  return ids.filter((id) => !mine.has(id) && holders.get(id)!.size < REPLICAS);
}

async function claimInRound(
  trx: Transaction<Database>,
  input: { roundId: string; fast: boolean; validatorHotkey: string; max: number; now: number },
): Promise<string[]> {
  const claimed: string[] = [];
  const seen: string[] = [];
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS && claimed.length < input.max; attempt++) {
    const want = input.max - claimed.length;
    const candidates = await lockCandidates(trx, { ...input, limit: want, exclude: seen });
    if (candidates.length === 0) break;
    seen.push(...candidates);
    claimed.push(...(await stillClaimable(trx, candidates, input.validatorHotkey, input.now)));
    if (candidates.length < want) break;
  }
  if (claimed.length === 0) return [];
  const expiresAt = input.now + LEASE_MS;
  await trx
    .insertInto('task_leases')
    .values(
      claimed.map((taskId) => ({
        task_id: taskId,
        validator_hotkey: input.validatorHotkey,
        state: 'leased' as const,
        detail: null,
        leased_at: input.now,
        updated_at: input.now,
        expires_at: expiresAt,
        completed_at: null,
      })),
    )
    .execute();
  return claimed;
}

/**
 * Leases up to `max` tasks of one round to a validator: the fast tasks of a track's incumbents
 * first (tasks made between rounds in the track's last closed round, docs/rounds.md), else the tasks
 * of an open round in its evaluation phase (of `track` when given; the round closing first otherwise): tasks with the fewest occupied replica slots first,
 * never a task this validator leased or attested before, never beyond REPLICAS slots per task.
 * Atomic: PostgreSQL locks the chosen task rows (FOR UPDATE SKIP LOCKED) and recounts their slots
 * under the lock; SQLite runs the claim as one write transaction.
 */
export async function claimTasks(
  db: Kysely<Database>,
  input: { validatorHotkey: string; track?: TrackName | undefined; max: number; now: number },
): Promise<TaskClaimResult> {
  if (!Number.isInteger(input.max) || input.max < 1) throw new VigilError('invalid_argument', 'max: expected a positive integer');
  return inTransaction(db, async (trx) => {
    // Fast tasks first (docs/rounds.md, "Verdicts between rounds"): they sit in the last closed round
    // of their track, whose winners are the incumbents, and an artifact waiting for them has no verdict yet.
    const incumbents = await incumbentRounds(trx, input.track);
    const closed = incumbents.length === 0
      ? []
      : await trx
          .selectFrom('rounds')
          .select(['round_id', 'track', 'round_number', 'policy_version', 'closes_at'])
          .where('round_id', 'in', incumbents.map((r) => r.roundId))
          .orderBy('closed_at')
          .orderBy('round_id')
          .execute();
    const rounds = await trx
      .selectFrom('rounds')
      .select(['round_id', 'track', 'round_number', 'policy_version', 'closes_at'])
      .where('status', '=', 'open')
      .where('phase', '=', 'evaluation')
      .$if(input.track !== undefined, (qb) => qb.where('track', '=', input.track!))
      .orderBy('closes_at')
      .orderBy('round_id')
      .execute();
    const candidates = [...closed.map((round) => ({ round, fast: true })), ...rounds.map((round) => ({ round, fast: false }))];
    for (const { round, fast } of candidates) {
      const ids = await claimInRound(trx, { roundId: round.round_id, fast, validatorHotkey: input.validatorHotkey, max: input.max, now: input.now });
      if (ids.length === 0) continue;
      const rows = await trx
        .selectFrom('tasks')
        .innerJoin('round_agents', (j) =>
          j.onRef('round_agents.round_id', '=', 'tasks.round_id').onRef('round_agents.hotkey', '=', 'tasks.hotkey'),
        )
        .innerJoin('artifacts', 'artifacts.id', 'tasks.artifact_id')
        .select(['tasks.task_id', 'tasks.hotkey', 'round_agents.code_hash', 'artifacts.bundle_hash', 'artifacts.content_hash'])
        .where('tasks.task_id', 'in', ids)
        .execute();
      const byId = new Map(rows.map((r) => [r.task_id, r]));
      return {
        round: { ...round, round_number: Number(round.round_number), closes_at: Number(round.closes_at) },
        tasks: ids.map((id) => {
          const row = byId.get(id)!;
          return {
            taskId: id,
            leaseExpiresAt: input.now + LEASE_MS,
            minerHotkey: row.hotkey,
            agentHash: row.code_hash,
            bundleHash: row.bundle_hash,
            sha256: row.content_hash,
          };
        }),
      };
    }
    const first = rounds[0];
    return { round: first === undefined ? null : { ...first, closes_at: Number(first.closes_at) }, tasks: [] };
  });
}

/**
 * Leases of this validator that are live (leased/running, unexpired) on a round still in evaluation,
 * or on a fast task (whose round is closed: the incumbents').
 */
function liveLeases(db: Kysely<Database>, validatorHotkey: string, now: number) {
  return db
    .selectFrom('task_leases')
    .innerJoin('tasks', 'tasks.task_id', 'task_leases.task_id')
    .innerJoin('rounds', 'rounds.round_id', 'tasks.round_id')
    .where('task_leases.validator_hotkey', '=', validatorHotkey)
    .where('task_leases.state', 'in', ['leased', 'running'])
    .where('task_leases.expires_at', '>', now)
    .where((eb) =>
      eb.or([
        eb.and([eb('tasks.fast', '=', 0), eb('rounds.status', '=', 'open'), eb('rounds.phase', '=', 'evaluation')]),
        eb.and([eb('tasks.fast', '=', 1), eb('rounds.status', '=', 'closed')]),
      ]),
    );
}

/** Whether an artifact with this content is part of a task live-leased to the validator. */
export async function hasLeasedArtifact(
  db: Kysely<Database>,
  input: { validatorHotkey: string; sha256: string; now: number },
): Promise<boolean> {
  const row = await liveLeases(db, input.validatorHotkey, input.now)
    .innerJoin('artifacts', 'artifacts.id', 'tasks.artifact_id')
    .select('tasks.task_id')
    .where('artifacts.content_hash', '=', input.sha256)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether agent code with this hash is frozen into a round where the validator live-leases one of the agent's tasks. */
export async function hasLeasedAgent(
  db: Kysely<Database>,
  input: { validatorHotkey: string; agentHash: string; now: number },
): Promise<boolean> {
  const row = await liveLeases(db, input.validatorHotkey, input.now)
    .innerJoin('round_agents', (j) =>
      j.onRef('round_agents.round_id', '=', 'tasks.round_id').onRef('round_agents.hotkey', '=', 'tasks.hotkey'),
    )
    .select('tasks.task_id')
    .where('round_agents.code_hash', '=', input.agentHash)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export interface ProgressResult {
  taskId: string;
  state: 'running' | 'failed';
  leaseExpiresAt: number;
}

/**
 * Records a validator's progress on a live lease. `running` is a heartbeat: the lease is extended to
 * now + LEASE_MS. `failed` releases the lease at once, so another validator can take the slot (this
 * one never gets the task again).
 */
export async function reportProgress(
  db: Kysely<Database>,
  input: { validatorHotkey: string; taskId: string; state: 'running' | 'failed'; detail?: string | undefined; now: number },
): Promise<ProgressResult> {
  const expiresAt = input.state === 'running' ? input.now + LEASE_MS : input.now;
  return inTransaction(db, async (trx) => {
    const live = await liveLeases(trx, input.validatorHotkey, input.now)
      .select('task_leases.task_id')
      .where('task_leases.task_id', '=', input.taskId)
      .executeTakeFirst();
    if (live === undefined) throw new VigilError('task_not_found', `task_id: task ${input.taskId} is not leased to this validator`);
    // Only a live lease moves: a submission that completed it concurrently is never undone.
    const updated = await trx
      .updateTable('task_leases')
      .set({ state: input.state, detail: input.detail ?? null, updated_at: input.now, expires_at: expiresAt })
      .where('task_id', '=', input.taskId)
      .where('validator_hotkey', '=', input.validatorHotkey)
      .where('state', 'in', ['leased', 'running'])
      .where('expires_at', '>', input.now)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw new VigilError('task_not_found', `task_id: task ${input.taskId} is not leased to this validator`);
    return { taskId: input.taskId, state: input.state, leaseExpiresAt: expiresAt };
  });
}

export type LeasedSubmission = { status: 'not_leased' } | ({ status: 'recorded' } & RecordedAttestation);

/**
 * Whether a validator's lease still entitles it to submit the task's attestation: live, expired
 * less than LEASE_GRACE_MS ago, or already completed (a retried submission); a failed (released)
 * lease no longer qualifies.
 */
function acceptsSubmission(lease: { state: string; expires_at: number | string }, now: number): boolean {
  return (
    lease.state === 'completed' || ((lease.state === 'leased' || lease.state === 'running') && Number(lease.expires_at) + LEASE_GRACE_MS > now)
  );
}

/** Of these tasks, those whose lease lets the validator submit an attestation now (see recordLeasedAttestation). */
export async function submittableTasks(
  db: Kysely<Database>,
  input: { validatorHotkey: string; taskIds: readonly string[]; now: number },
): Promise<Set<string>> {
  const taskIds = [...new Set(input.taskIds)];
  if (taskIds.length === 0) return new Set();
  const leases = await db
    .selectFrom('task_leases')
    .select(['task_id', 'state', 'expires_at'])
    .where('task_id', 'in', taskIds)
    .where('validator_hotkey', '=', input.validatorHotkey)
    .execute();
  return new Set(leases.filter((lease) => acceptsSubmission(lease, input.now)).map((lease) => lease.task_id));
}

/** Marks the validator's held (leased or running) leases of these tasks completed. */
export async function completeLeases(
  db: Kysely<Database>,
  input: { validatorHotkey: string; taskIds: readonly string[]; now: number },
): Promise<void> {
  const taskIds = [...new Set(input.taskIds)];
  if (taskIds.length === 0) return;
  await db
    .updateTable('task_leases')
    .set({ state: 'completed', completed_at: input.now, updated_at: input.now })
    .where('task_id', 'in', taskIds)
    .where('validator_hotkey', '=', input.validatorHotkey)
    // A lease released (failed) meanwhile stays released: only a held lease is completed.
    .where('state', 'in', ['leased', 'running'])
    .execute();
}

/**
 * Records an attestation submitted by the validator holding the task's lease, and completes the
 * lease, in one transaction. The lease must be live, expired less than LEASE_GRACE_MS ago, or
 * already completed (a retried submission); a failed (released) lease no longer qualifies.
 * The envelope's hash, signature and permit must have been verified by the caller.
 */
export async function recordLeasedAttestation(
  db: Kysely<Database>,
  envelope: AttestationSubmission,
  input: { validatorHotkey: string; now: number; checkedAgainst?: CheckedSnapshot | null },
): Promise<LeasedSubmission> {
  const taskIds = [envelope.payload.task_id];
  return inTransaction(db, async (trx) => {
    const usable = await submittableTasks(trx, { validatorHotkey: input.validatorHotkey, taskIds, now: input.now });
    if (!usable.has(envelope.payload.task_id)) return { status: 'not_leased' };
    const recorded = await recordAttestation(trx, envelope, { now: input.now, checkedAgainst: input.checkedAgainst ?? null });
    await completeLeases(trx, { validatorHotkey: input.validatorHotkey, taskIds, now: input.now });
    return { status: 'recorded', ...recorded };
  });
}

/**
 * The batch form of recordLeasedAttestation, in ONE transaction: the lease check, every attestation
 * with its aggregates and events, and the completion of the leases commit together or not at all,
 * so a failure midway (a lost connection, a statement timeout) leaves nothing half-written. Each
 * envelope gets `not_leased`, or recordAttestations' outcome for it (recorded, duplicate, refused).
 */
export async function recordLeasedAttestations(
  db: Kysely<Database>,
  envelopes: readonly AttestationSubmission[],
  input: { validatorHotkey: string; now: number; checkedAgainst?: CheckedSnapshot | null },
): Promise<Array<{ status: 'not_leased' } | ({ status: 'submitted' } & AttestationBatchResult)>> {
  return inTransaction(db, async (trx) => {
    const taskIds = envelopes.map((envelope) => envelope.payload.task_id);
    const leased = await submittableTasks(trx, { validatorHotkey: input.validatorHotkey, taskIds, now: input.now });
    const submitted = envelopes.filter((envelope) => leased.has(envelope.payload.task_id));
    const recorded = await recordAttestations(trx, submitted, { now: input.now, checkedAgainst: input.checkedAgainst ?? null });
    const completed = submitted.filter((_, i) => recorded[i]!.outcome !== 'refused').map((envelope) => envelope.payload.task_id);
    // Like the single path: every recorded (or already recorded) envelope completes its lease.
    await completeLeases(trx, { validatorHotkey: input.validatorHotkey, taskIds: completed, now: input.now });
    let next = 0;
    return envelopes.map((envelope) =>
      leased.has(envelope.payload.task_id) ? { status: 'submitted' as const, ...recorded[next++]! } : { status: 'not_leased' as const },
    );
  });
}
