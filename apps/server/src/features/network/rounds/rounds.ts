import { randomBytes } from 'node:crypto';
import { LIMITS, formatOffsetTimestamp, type RoundClosedData } from '@vigil/core';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { ROUND_RECORDED_MARGIN_MS } from '../../../platform/db/attestation-partitions.js';
import { lockForUpdate } from '../../../platform/db/dialect.js';
import type { Database, RoundsTable, TrackName } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';
import { enqueueOutboxEvent } from '../../../platform/outbox.js';
import { appendLogEntries, type LogEntryInput } from '../../log/index.js';
import { chunkRows } from '../../../platform/db/chunk-rows.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { publishArtifactVerdict } from './publish-verdict.js';
import { scoreRound, verdictsToPublish, type RoundAttestation, type VerdictToPublish } from './round-scoring.js';

export type RoundRow = Selectable<RoundsTable>;

export interface OpenRoundInput {
  track: TrackName;
  now: number;
  /** How long miners may submit (ms). */
  submissionMs: number;
  /** How long validators evaluate after submissions close (ms). */
  evaluationMs: number;
  policyVersion: string;
  /** Defaults to 16 random lowercase hex characters. */
  roundId?: string;
}

async function lockedRound(trx: Transaction<Database>, roundId: string): Promise<RoundRow> {
  const round = await trx
    .selectFrom('rounds')
    .selectAll()
    .where('round_id', '=', roundId)
    .$call(lockForUpdate(trx))
    .executeTakeFirst();
  if (round === undefined) throw new VigilError('round_not_found');
  return round;
}

/** Opens the next round of a track (number = previous + 1) in the submission phase. One open round per track. */
export async function openRound(db: Kysely<Database>, input: OpenRoundInput): Promise<RoundRow> {
  if (!(input.submissionMs > 0)) throw new VigilError('invalid_argument', 'submissionMs: must be positive');
  if (!(input.evaluationMs > 0)) throw new VigilError('invalid_argument', 'evaluationMs: must be positive');
  if (input.policyVersion.trim() === '') throw new VigilError('invalid_argument', 'policyVersion: must not be empty');
  const roundId = input.roundId ?? randomBytes(8).toString('hex');
  if (!/^[0-9a-f]{16,64}$/.test(roundId)) {
    throw new VigilError('invalid_argument', 'roundId: expected 16 to 64 lowercase hex characters');
  }
  return inTransaction(db, async (trx) => {
    const open = await trx
      .selectFrom('rounds')
      .select('round_id')
      .where('track', '=', input.track)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (open !== undefined) {
      throw new VigilError('round_already_open', `track: round ${open.round_id} of ${input.track} is still open`);
    }
    const last = await trx
      .selectFrom('rounds')
      .select((eb) => eb.fn.max('round_number').as('n'))
      .where('track', '=', input.track)
      .executeTakeFirst();
    const submissionClosesAt = input.now + input.submissionMs;
    const row: RoundRow = {
      round_id: roundId,
      track: input.track,
      // The (track, round_number) unique constraint turns a concurrent opener into an error, not a duplicate.
      round_number: Number(last?.n ?? 0) + 1,
      status: 'open',
      phase: 'submission',
      policy_version: input.policyVersion,
      opened_at: input.now,
      submission_closes_at: submissionClosesAt,
      closes_at: submissionClosesAt + input.evaluationMs,
      evaluation_started_at: null,
      closed_at: null,
      next_round_opens_at: null,
    };
    await trx.insertInto('rounds').values(row).execute();
    return row;
  });
}

/** A track's latest round (the open one, if any: openRound numbers rounds max + 1), or undefined. */
export function latestRound(db: Kysely<Database>, track: TrackName): Promise<Selectable<RoundsTable> | undefined> {
  return db.selectFrom('rounds').selectAll().where('track', '=', track).orderBy('round_number', 'desc').limit(1).executeTakeFirst();
}

/**
 * Ends the submission phase: freezes the current code hash and version of every active agent whose
 * miner is registered on the track into round_agents. Returns the number of agents frozen.
 */
export async function startEvaluation(db: Kysely<Database>, input: { roundId: string; now: number }): Promise<number> {
  return inTransaction(db, async (trx) => {
    const round = await lockedRound(trx, input.roundId);
    if (round.status !== 'open' || round.phase !== 'submission') {
      throw new VigilError('round_wrong_phase', `roundId: round ${round.round_id} is not in its submission phase`);
    }
    // At most LIMITS.maxAgentsPerRound, the earliest-submitted current versions first (then by
    // hotkey), so the cap is first come, first served and never depends on the database's order.
    const agents = await trx
      .selectFrom('agents')
      .innerJoin('miners', (j) => j.onRef('miners.hotkey', '=', 'agents.hotkey').onRef('miners.track', '=', 'agents.track'))
      .innerJoin('agent_versions', (j) =>
        j
          .onRef('agent_versions.hotkey', '=', 'agents.hotkey')
          .onRef('agent_versions.track', '=', 'agents.track')
          .onRef('agent_versions.version', '=', 'agents.version'),
      )
      .select(['agents.hotkey', 'agents.version', 'agents.code_hash', 'agents.name'])
      .where('agents.track', '=', round.track)
      .where('agents.status', '=', 'active')
      .where('miners.status', '=', 'registered')
      .orderBy('agent_versions.submitted_at')
      .orderBy('agents.hotkey')
      .limit(LIMITS.maxAgentsPerRound)
      .execute();
    const frozen = agents.map((a) => ({
      round_id: round.round_id,
      hotkey: a.hotkey,
      track: round.track,
      version: a.version,
      code_hash: a.code_hash,
      name: a.name,
      frozen_at: input.now,
    }));
    for (const chunk of chunkRows(frozen, 7)) await trx.insertInto('round_agents').values(chunk).execute();
    await trx
      .updateTable('rounds')
      .set({ phase: 'evaluation', evaluation_started_at: input.now })
      .where('round_id', '=', round.round_id)
      .execute();
    return agents.length;
  });
}

export interface CloseRoundResult {
  scored: number;
  winners: string[];
  verdictChanges: number;
}

/**
 * Closes a round in its evaluation phase: scores it (`scoreRound`: per-validator scores on the
 * labeled artifacts, the median across validators, ranks, the winners), writes the scores and
 * results, and publishes verdicts for live artifacts from the winners' attestations
 * (`verdictsToPublish`), each change recorded in verdict_history with a `verdict.changed` outbox
 * event, and every published verdict appended to the transparency log. All in one transaction.
 */
export async function closeRound(
  db: Kysely<Database>,
  input: { roundId: string; now: number; nextRoundOpensAt?: number },
): Promise<CloseRoundResult> {
  return inTransaction(db, async (trx) => {
    const round = await lockedRound(trx, input.roundId);
    if (round.status !== 'open' || round.phase !== 'evaluation') {
      throw new VigilError('round_wrong_phase', `roundId: round ${round.round_id} is not in its evaluation phase`);
    }
    const agents = await frozenAgents(trx, round.round_id);
    const attestations = await attestationsForScoring(trx, round.round_id, Number(round.opened_at));
    const scores = scoreRound(
      agents.map((a) => ({ hotkey: a.hotkey, submittedAt: Number(a.submitted_at) })),
      attestations,
    );
    const validatorScores: Database['validator_scores'][] = scores.validatorScores.map((s) => ({
      round_id: round.round_id,
      hotkey: s.hotkey,
      validator_hotkey: s.validatorHotkey,
      score: s.score,
      labeled_tasks: s.labeledTasks,
    }));
    const results: Database['round_results'][] = scores.agents.map((s, i) => ({
      round_id: round.round_id,
      hotkey: s.hotkey,
      name: agents[i]!.name,
      version: agents[i]!.version,
      code_hash: agents[i]!.code_hash,
      score: s.score,
      validators: s.validators,
      rank: s.rank,
      winner: s.winner ? 1 : 0,
      attestations: s.attestations,
      failure_reason: s.failureReason,
    }));
    // Chunked: a large round's rows would exceed SQLite's bound-parameter limit in one statement.
    for (const chunk of chunkRows(validatorScores, 6)) await trx.insertInto('validator_scores').values(chunk).execute();
    for (const chunk of chunkRows(results, 12)) await trx.insertInto('round_results').values(chunk).execute();

    const { winners } = scores;
    const { changes: verdictChanges, logged } = await publishVerdicts(trx, round, verdictsToPublish(attestations, new Set(winners)), input.now);

    await trx
      .updateTable('rounds')
      .set({ status: 'closed', phase: 'complete', closed_at: input.now, next_round_opens_at: input.nextRoundOpensAt ?? input.now })
      .where('round_id', '=', round.round_id)
      .execute();
    await enqueueOutboxEvent(trx, 'round.closed', roundClosedEvent(round, scores.ranked.length, winners, verdictChanges, input.now), input.now, {
      resource: `round:${round.round_id}`,
      accountId: null,
    });
    // Last: the log's append lock is then held only until this transaction commits.
    await appendLogEntries(trx, logged, input.now);
    return { scored: scores.ranked.length, winners, verdictChanges };
  });
}

/** The `round.closed` payload (RoundClosedData in @vigil/core). */
function roundClosedEvent(round: RoundRow, scored: number, winners: readonly string[], verdictChanges: number, now: number): RoundClosedData {
  return {
    round_id: round.round_id,
    track: round.track,
    round_number: Number(round.round_number),
    closed_at: formatOffsetTimestamp(now),
    scored_agents: scored,
    // The best-ranked winner; a round whose scored agents all scored 0 has none.
    winner_hotkey: winners[0] ?? null,
    verdict_changes: verdictChanges,
  };
}

/** The agent versions frozen into the round, with their submission times. */
function frozenAgents(trx: Transaction<Database>, roundId: string) {
  return trx
    .selectFrom('round_agents')
    .innerJoin('agent_versions', (j) =>
      j
        .onRef('agent_versions.hotkey', '=', 'round_agents.hotkey')
        .onRef('agent_versions.track', '=', 'round_agents.track')
        .onRef('agent_versions.version', '=', 'round_agents.version'),
    )
    .select(['round_agents.hotkey', 'round_agents.name', 'round_agents.version', 'round_agents.code_hash', 'agent_versions.submitted_at'])
    .where('round_agents.round_id', '=', roundId)
    .execute();
}

/** The round's attestations of round tasks, as `scoreRound` reads them. */
async function attestationsForScoring(trx: Transaction<Database>, roundId: string, openedAt: number): Promise<RoundAttestation[]> {
  const rows = await trx
    .selectFrom('attestations')
    .innerJoin('artifacts', 'artifacts.id', 'attestations.artifact_id')
    .innerJoin('tasks', 'tasks.task_id', 'attestations.task_id')
    .select([
      'attestations.miner_hotkey',
      'attestations.validator_hotkey',
      'attestations.verdict',
      'attestations.risk_score',
      'attestations.artifact_id',
      'artifacts.kind',
      'artifacts.ground_truth',
      'artifacts.bundle_hash',
    ])
    .where('attestations.round_id', '=', roundId)
    // Only the months since the round opened (PostgreSQL reads those partitions only).
    .where('attestations.recorded_at', '>=', openedAt - ROUND_RECORDED_MARGIN_MS)
    // Fast tasks never sit in a round being closed (they are made for closed rounds); said here so
    // that scoring reads round tasks only, whatever happens to a round later.
    .where('tasks.fast', '=', 0)
    .execute();
  return rows.map((a) => ({
    minerHotkey: a.miner_hotkey,
    validatorHotkey: a.validator_hotkey,
    verdict: a.verdict,
    riskScore: a.risk_score,
    artifactId: a.artifact_id,
    bundleHash: a.bundle_hash,
    kind: a.kind,
    groundTruth: a.ground_truth,
  }));
}

/** Writes each verdict the round publishes; returns how many changed and their log entries. */
async function publishVerdicts(
  trx: Transaction<Database>,
  round: RoundRow,
  verdicts: readonly VerdictToPublish[],
  now: number,
): Promise<{ changes: number; logged: LogEntryInput[] }> {
  let changes = 0;
  const logged: LogEntryInput[] = [];
  for (const v of verdicts) {
    const published = await publishArtifactVerdict(trx, {
      artifactId: v.artifactId,
      bundleHash: v.bundleHash,
      track: round.track,
      roundId: round.round_id,
      verdict: v.verdict,
      riskScore: v.riskScore,
      now,
    });
    logged.push(published.logEntry);
    if (published.changed) changes += 1;
  }
  return { changes, logged };
}

/**
 * Pulls the deadlines of every open round in to at most `submissionMs` / `evaluationMs` from `now`
 * (a round in submission keeps `evaluationMs` after its new submission close), and the planned
 * opening of each track's next round in to at most `gapMs` from `now`. Never pushes a deadline
 * out. For demo data, so a configured short round (VIGIL_ROUND_*_S) applies to the rounds already
 * there, not only to those the scheduler opens later.
 */
export async function shortenSchedule(
  db: Kysely<Database>,
  input: { now: number; submissionMs: number; evaluationMs: number; gapMs: number },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const open = await trx.selectFrom('rounds').selectAll().where('status', '=', 'open').execute();
    for (const round of open) {
      const submissionClosesAt =
        round.phase === 'submission' ? Math.min(Number(round.submission_closes_at), input.now + input.submissionMs) : Number(round.submission_closes_at);
      const closesAt = Math.min(
        Number(round.closes_at),
        round.phase === 'submission' ? submissionClosesAt + input.evaluationMs : input.now + input.evaluationMs,
      );
      await trx
        .updateTable('rounds')
        .set({ submission_closes_at: submissionClosesAt, closes_at: closesAt })
        .where('round_id', '=', round.round_id)
        .execute();
    }
    await trx
      .updateTable('rounds')
      .set({ next_round_opens_at: input.now + input.gapMs })
      .where('status', '=', 'closed')
      .where('next_round_opens_at', '>', input.now + input.gapMs)
      .execute();
  });
}
