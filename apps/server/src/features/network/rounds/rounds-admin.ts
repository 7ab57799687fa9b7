import { randomUUID } from 'node:crypto';
import { formatOffsetTimestamp, TRACKS, type AdminRoundClosed, type AdminRoundSchedule, type AdminRoundView } from '@vigil/core';
import type { Kysely } from 'kysely';
import { lockForUpdate } from '../../../platform/db/dialect.js';
import type { Database } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';
import { recordAudit, type AuditActor } from '../../../platform/audit-log.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { ROUND_SCHEDULER_LOCK } from './scheduler/create-scheduler.js';
import type { SchedulerSettings } from './scheduler/settings.js';
import { runExclusively } from './scheduler/single-runner.js';
import { closeRound, latestRound, type RoundRow } from './rounds.js';

function isOverdue(round: RoundRow, now: number): boolean {
  if (round.status !== 'open') return false;
  return round.phase === 'submission' ? now >= round.submission_closes_at : now >= round.closes_at;
}

function roundView(round: RoundRow, now: number): AdminRoundView {
  return {
    round_id: round.round_id,
    round_number: round.round_number,
    status: round.status,
    phase: round.phase,
    policy_version: round.policy_version,
    opened_at: formatOffsetTimestamp(Number(round.opened_at)),
    submission_closes_at: formatOffsetTimestamp(Number(round.submission_closes_at)),
    closes_at: formatOffsetTimestamp(Number(round.closes_at)),
    closed_at: round.closed_at === null ? null : formatOffsetTimestamp(Number(round.closed_at)),
    overdue: isOverdue(round, now),
  };
}

/** `GET /v1/admin/rounds`: every track's latest round and when its next one opens. */
export async function readRoundSchedule(
  db: Kysely<Database>,
  input: { now: number; settings: SchedulerSettings },
): Promise<AdminRoundSchedule> {
  const { now, settings } = input;
  const tracks = await Promise.all(
    TRACKS.map(async (track) => {
      const latest = await latestRound(db, track);
      let next: number | null = null;
      if (latest?.status === 'closed') next = latest.next_round_opens_at === null ? null : Number(latest.next_round_opens_at);
      else if (latest !== undefined) next = Number(latest.closes_at) + settings.gapMs;
      return {
        track,
        current: latest === undefined ? null : roundView(latest, now),
        next_round_opens_at: next === null ? null : formatOffsetTimestamp(next),
      };
    }),
  );
  return {
    server_time: formatOffsetTimestamp(now),
    settings: {
      submission_s: settings.submissionMs / 1000,
      evaluation_s: settings.evaluationMs / 1000,
      gap_s: settings.gapMs / 1000,
      interval_s: settings.intervalMs / 1000,
      policy_version: settings.policyVersion,
    },
    tracks,
  };
}

/** Why a round cannot be closed now, or nothing when it can. */
function refusal(round: RoundRow | undefined, now: number, force: boolean): VigilError | undefined {
  if (round === undefined) return new VigilError('round_not_found');
  if (round.status === 'closed') return new VigilError('round_not_open', `round_id: round ${round.round_id} is already closed`);
  if (round.phase !== 'evaluation') {
    return new VigilError(
      'round_wrong_phase',
      `round_id: round ${round.round_id} is in its ${round.phase} phase; only a round in evaluation can be closed`,
    );
  }
  if (!force && now < Number(round.closes_at)) {
    return new VigilError(
      'round_not_due',
      `round_id: round ${round.round_id} closes at ${formatOffsetTimestamp(Number(round.closes_at))}; send {"force": true} to close it now`,
    );
  }
  return undefined;
}

/**
 * Closes a round now (`POST /v1/admin/rounds/{round_id}/close`): the scheduler's own close —
 * `closeRound` with next_round_opens_at = now + gap — under the scheduler's single-runner lock, so
 * it never runs beside a scheduler step (a step in progress: 409 `round_scheduler_busy`). Only a
 * round in evaluation; before its closes_at only with `force`. Audited in the close's transaction.
 */
export async function closeRoundNow(
  db: Kysely<Database>,
  input: { roundId: string; force: boolean; now: number; settings: SchedulerSettings; actor: AuditActor; leaseMs?: number },
): Promise<AdminRoundClosed> {
  const { roundId, force, now } = input;
  // Refusals that need no lock are answered without waiting for (or blocking) the scheduler.
  const before = await db.selectFrom('rounds').selectAll().where('round_id', '=', roundId).executeTakeFirst();
  const early = refusal(before, now, force);
  if (early) throw early;

  const run = await runExclusively(
    db,
    { name: ROUND_SCHEDULER_LOCK, holderId: `admin-${randomUUID()}`, now, leaseMs: input.leaseMs ?? 300_000 },
    (locked) =>
      inTransaction(locked, async (trx) => {
        // The scheduler may have moved the round between the check above and the lock.
        const round = await trx.selectFrom('rounds').selectAll().where('round_id', '=', roundId).$call(lockForUpdate(trx)).executeTakeFirst();
        const late = refusal(round, now, force);
        if (late) throw late;
        const closesAt = Number(round!.closes_at);
        const nextRoundOpensAt = now + input.settings.gapMs;
        const result = await closeRound(trx, { roundId, now, nextRoundOpensAt });
        const forced = now < closesAt;
        await recordAudit(trx, input.actor, {
          action: 'round.close',
          target: roundId,
          detail: { track: round!.track, round_number: round!.round_number, forced, scored: result.scored, winners: result.winners },
          at: now,
        });
        return {
          round_id: roundId,
          track: round!.track,
          round_number: round!.round_number,
          status: 'closed' as const,
          phase: 'complete' as const,
          closed_at: formatOffsetTimestamp(now),
          next_round_opens_at: formatOffsetTimestamp(nextRoundOpensAt),
          forced,
          scored: result.scored,
          winners: result.winners,
          verdict_changes: result.verdictChanges,
        };
      }),
  );
  if (!run.acquired) throw new VigilError('round_scheduler_busy');
  return run.value;
}
