import { TRACKS } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database, TrackName } from '../../../../platform/db/schema.js';
import { inTransaction } from '../../../../platform/db/transaction.js';
import { closeRound, latestRound, openRound, startEvaluation } from '../rounds.js';
import { createTasks } from '../../tasks/tasks.js';
import { selectRoundArtifacts } from './select-round-artifacts.js';
import type { SchedulerSettings } from './settings.js';

export type RoundAction = 'opened' | 'evaluation_started' | 'closed';

export interface RoundTransition {
  track: TrackName;
  action: RoundAction;
  roundId: string;
  roundNumber: number;
  /** evaluation_started: agents frozen into the round. */
  agents?: number;
  /** evaluation_started: tasks created (frozen agents × selected artifacts). */
  tasks?: number;
}

export interface AdvanceRoundsOptions {
  now: number;
  settings: SchedulerSettings;
  /** Called with a track whose transition failed; the other tracks still advance. */
  onTrackError?: (track: TrackName, error: unknown) => void;
}

/**
 * One idempotent step of the round lifecycle for every track, at most one transition per track:
 * - no open round and the previous one's next_round_opens_at reached (or no round yet): open one;
 * - open in submission and submission_closes_at reached: freeze the agents, select the round's
 *   artifacts and create the tasks, all in one transaction;
 * - open in evaluation and closes_at reached: score, publish and close, with
 *   next_round_opens_at = now + gap.
 * A round with no agents or no artifacts gets no tasks and closes empty at its closes_at.
 * Callers that run several processes hold the single-runner lock around it (runExclusively).
 */
export async function advanceRounds(db: Kysely<Database>, options: AdvanceRoundsOptions): Promise<RoundTransition[]> {
  const transitions: RoundTransition[] = [];
  for (const track of TRACKS) {
    try {
      const transition = await advanceTrack(db, track, options);
      if (transition !== null) transitions.push(transition);
    } catch (error) {
      options.onTrackError?.(track, error);
    }
  }
  return transitions;
}

async function advanceTrack(
  db: Kysely<Database>,
  track: TrackName,
  { now, settings }: AdvanceRoundsOptions,
): Promise<RoundTransition | null> {
  const latest = await latestRound(db, track);

  if (latest === undefined || latest.status === 'closed') {
    if (latest?.next_round_opens_at != null && now < latest.next_round_opens_at) return null;
    const round = await openRound(db, {
      track,
      now,
      submissionMs: settings.submissionMs,
      evaluationMs: settings.evaluationMs,
      policyVersion: settings.policyVersion,
    });
    return { track, action: 'opened', roundId: round.round_id, roundNumber: round.round_number };
  }

  if (latest.phase === 'submission') {
    if (now < latest.submission_closes_at) return null;
    // One transaction: a crash can never leave a round in evaluation without its tasks.
    const counts = await inTransaction(db, async (trx) => {
      const agents = await startEvaluation(trx, { roundId: latest.round_id, now });
      if (agents === 0) return { agents, tasks: 0 };
      const selection = await selectRoundArtifacts(trx, {
        roundId: latest.round_id,
        track,
        labeled: settings.labeledArtifacts,
        live: settings.liveArtifacts,
      });
      const bundleHashes = [...selection.labeled, ...selection.live];
      if (bundleHashes.length === 0) return { agents, tasks: 0 };
      const tasks = await createTasks(trx, { roundId: latest.round_id, bundleHashes, now });
      return { agents, tasks: tasks.length };
    });
    return { track, action: 'evaluation_started', roundId: latest.round_id, roundNumber: latest.round_number, ...counts };
  }

  if (latest.phase === 'evaluation' && now >= latest.closes_at) {
    await closeRound(db, { roundId: latest.round_id, now, nextRoundOpensAt: now + settings.gapMs });
    return { track, action: 'closed', roundId: latest.round_id, roundNumber: latest.round_number };
  }
  return null;
}
