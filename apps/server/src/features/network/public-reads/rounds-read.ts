import {
  Finding,
  Hotkey,
  LIMITS,
  RoundId,
  TRACKS,
  emptyRoundAttestations,
  formatNaiveTimestamp,
  type RoundAttestations,
  type RoundScores,
  type RoundsListResponse,
  type RoundsStatusResponse,
  type RoundStatus,
  type ScoreEntry,
} from '@vigil/core';
import type { Kysely } from 'kysely';
import { ROUND_RECORDED_MARGIN_MS } from '../../../platform/db/attestation-partitions.js';
import type { Database } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';

function secondsUntil(target: number, nowMs: number): number {
  return Math.max(0, Math.ceil((target - nowMs) / 1000));
}

function trackOrder(track: string): number {
  return (TRACKS as readonly string[]).indexOf(track);
}

/** The most recent round of every track that has one (open or closed). */
async function latestRoundPerTrack(db: Kysely<Database>) {
  return db
    .selectFrom('rounds as r')
    .selectAll('r')
    .where('r.round_number', '=', (eb) =>
      eb.selectFrom('rounds as r2').select((e) => e.fn.max('r2.round_number').as('m')).whereRef('r2.track', '=', 'r.track'),
    )
    .execute();
}

/** GET /v1/rounds/status. */
export async function readRoundsStatus(db: Kysely<Database>, now: Date): Promise<RoundsStatusResponse> {
  const nowMs = now.getTime();
  const rounds = (await latestRoundPerTrack(db)).sort((a, b) => trackOrder(a.track) - trackOrder(b.track));
  const tracks: RoundStatus[] = [];
  for (const round of rounds) {
    let participants: number;
    if (round.phase === 'submission') {
      // Until agents are frozen, the participants are the agents that would be frozen now.
      const row = await db
        .selectFrom('agents')
        .innerJoin('miners', (j) => j.onRef('miners.hotkey', '=', 'agents.hotkey').onRef('miners.track', '=', 'agents.track'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('agents.track', '=', round.track)
        .where('agents.status', '=', 'active')
        .where('miners.status', '=', 'registered')
        .executeTakeFirst();
      participants = Number(row?.n ?? 0);
    } else {
      const row = await db
        .selectFrom('round_agents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('round_id', '=', round.round_id)
        .executeTakeFirst();
      participants = Number(row?.n ?? 0);
    }
    const scored = await db
      .selectFrom('round_results')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('round_id', '=', round.round_id)
      .where('score', 'is not', null)
      .executeTakeFirst();
    const open = round.status === 'open';
    tracks.push({
      track: round.track,
      round_id: round.round_id,
      round_number: round.round_number,
      status: round.status,
      phase: round.phase,
      opened_at: formatNaiveTimestamp(round.opened_at),
      closed_at: round.closed_at === null ? null : formatNaiveTimestamp(round.closed_at),
      submission_closes_at: formatNaiveTimestamp(round.submission_closes_at),
      seconds_until_close: open ? secondsUntil(round.closes_at, nowMs) : null,
      accepting_submissions: open && round.phase === 'submission' && nowMs < round.submission_closes_at,
      participants,
      scored_agents: Number(scored?.n ?? 0),
    });
  }
  const anyOpen = rounds.some((r) => r.status === 'open');
  const upcoming = rounds
    .map((r) => r.next_round_opens_at)
    .filter((t): t is number => t !== null)
    .sort((a, b) => a - b)[0];
  const next = anyOpen || upcoming === undefined ? null : upcoming;
  return {
    tracks,
    server_time: formatNaiveTimestamp(now),
    next_round_opens_at: next === null ? null : formatNaiveTimestamp(next),
    seconds_until_next_round: next === null ? null : secondsUntil(next, nowMs),
  };
}

async function rankedEntries(db: Kysely<Database>, roundIds: readonly string[], winnersOnly = false) {
  if (roundIds.length === 0) return new Map<string, ScoreEntry[]>();
  const rows = await db
    .selectFrom('round_results')
    .select(['round_id', 'rank', 'hotkey', 'name', 'score', 'validators'])
    .where('round_id', 'in', roundIds)
    .where('rank', 'is not', null)
    .$if(winnersOnly, (qb) => qb.where('winner', '=', 1))
    .orderBy('round_id')
    .orderBy('rank')
    .execute();
  const byRound = new Map<string, ScoreEntry[]>();
  for (const r of rows) {
    const list = byRound.get(r.round_id) ?? [];
    list.push({ rank: r.rank!, hotkey: r.hotkey, name: r.name, score: r.score!, validators: r.validators });
    byRound.set(r.round_id, list);
  }
  return byRound;
}

/** GET /v1/rounds: closed rounds, newest first, each with its top five. */
export async function readClosedRounds(db: Kysely<Database>, limit: number): Promise<RoundsListResponse> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new RangeError('limit: expected an integer from 1 to 200');
  const [rounds, total] = await Promise.all([
    db
      .selectFrom('rounds')
      .select(['round_id', 'round_number', 'track', 'closed_at'])
      .where('status', '=', 'closed')
      .orderBy('closed_at', 'desc')
      .orderBy('round_number', 'desc')
      .orderBy('track')
      .limit(limit)
      .execute(),
    db
      .selectFrom('rounds')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'closed')
      .executeTakeFirst(),
  ]);
  const ids = rounds.map((r) => r.round_id);
  const [winners, miners] = await Promise.all([
    rankedEntries(db, ids, true),
    ids.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('round_results')
          .select(['round_id', (eb) => eb.fn.countAll<number>().as('n')])
          .where('round_id', 'in', ids)
          .groupBy('round_id')
          .execute(),
  ]);
  const minerCounts = new Map(miners.map((m) => [m.round_id, Number(m.n)]));
  return {
    rounds: rounds.map((r) => ({
      round_id: r.round_id,
      round_number: r.round_number,
      track: r.track,
      status: 'closed' as const,
      closed_at: formatNaiveTimestamp(r.closed_at!),
      miners: minerCounts.get(r.round_id) ?? 0,
      winners: winners.get(r.round_id) ?? [],
    })),
    meta: { total: Number(total?.n ?? 0) },
  };
}

/** GET /v1/rounds/{round_id}/scores. Unknown rounds, and rounds not closed yet, are 404. */
export async function readRoundScores(db: Kysely<Database>, roundId: string): Promise<RoundScores> {
  const round = await db
    .selectFrom('rounds')
    .select(['round_id', 'round_number', 'track', 'closed_at', 'status'])
    .where('round_id', '=', roundId)
    .executeTakeFirst();
  if (round === undefined || round.status !== 'closed' || round.closed_at === null) throw new VigilError('round_not_found');
  const scores = (await rankedEntries(db, [round.round_id])).get(round.round_id) ?? [];
  return {
    round_id: round.round_id,
    round_number: round.round_number,
    track: round.track,
    closed_at: formatNaiveTimestamp(round.closed_at),
    scores,
  };
}

/** GET /v1/rounds/{round_id}/attestations. Never throws for bad input (spec rule 3). */
export async function readRoundAttestations(
  db: Kysely<Database>,
  roundId: string,
  miner: string,
): Promise<RoundAttestations> {
  if (!RoundId.safeParse(roundId).success || !Hotkey.safeParse(miner).success) {
    return emptyRoundAttestations({ roundId, miner, roundStatus: 'unknown' });
  }
  const round = await db
    .selectFrom('rounds')
    .select(['round_id', 'track', 'status', 'policy_version', 'opened_at'])
    .where('round_id', '=', roundId)
    .executeTakeFirst();
  if (round === undefined) return emptyRoundAttestations({ roundId, miner, roundStatus: 'unknown' });
  if (round.status !== 'closed') return emptyRoundAttestations({ roundId, miner, track: round.track, roundStatus: 'open' });

  const [result, attestations] = await Promise.all([
    db
      .selectFrom('round_results')
      .select(['score', 'validators', 'failure_reason'])
      .where('round_id', '=', round.round_id)
      .where('hotkey', '=', miner)
      .executeTakeFirst(),
    db
      .selectFrom('attestations')
      .innerJoin('tasks', 'tasks.task_id', 'attestations.task_id')
      .select(['attestations.verdict', 'attestations.risk_score', 'attestations.canonical_hash', 'attestations.findings'])
      .where('attestations.round_id', '=', round.round_id)
      .where('attestations.miner_hotkey', '=', miner)
      // Only the months since the round opened (PostgreSQL reads those partitions only).
      .where('attestations.recorded_at', '>=', Number(round.opened_at) - ROUND_RECORDED_MARGIN_MS)
      // The tasks the round scored: the fast tasks its winners ran after the close are not part of its record.
      .where('tasks.fast', '=', 0)
      .orderBy('attestations.id')
      .limit(LIMITS.maxTasksPerAttestationSet)
      .execute(),
  ]);
  return {
    round_id: round.round_id,
    track: round.track,
    round_status: 'closed',
    miner_hotkey: miner,
    // The spec types score as a number: a failed or absent agent scores 0, and failure_reason says why.
    score: result?.score ?? 0,
    runs: result?.validators ?? 0,
    failure_reason: result === undefined ? 'the miner had no agent in this round' : result.failure_reason,
    policy_version: round.policy_version,
    tasks: attestations.map((a) => ({
      // Blanked on purpose (spec rule 4): they would reveal the benchmark set and who validated it.
      artifact_ref: '' as const,
      validator: '' as const,
      verdict: a.verdict,
      risk_score: a.risk_score,
      canonical_hash: a.canonical_hash,
      findings: (JSON.parse(a.findings) as unknown[])
        .slice(0, LIMITS.maxFindingsPerTask)
        .map((f) => Finding.parse(f)),
    })),
  };
}
