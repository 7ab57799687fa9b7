import type { Selectable } from 'kysely';
import type { RoundsTable } from '../../platform/db/schema.js';

export interface RoundTimings {
  submissionMs: number;
  evaluationMs: number;
  gapMs: number;
}

/**
 * When a verdict on a newly stored live artifact is expected (docs/registries.md, "Expected
 * verdict"): the planned close of the first round of its track whose artifact selection comes after
 * it was stored, or that already holds its tasks. Live artifacts never evaluated go first in a
 * round's selection (docs/rounds.md), so that round takes it unless more than VIGIL_ROUND_ARTIFACTS'
 * live share of never-evaluated artifacts wait ahead of it; the estimate does not count those.
 *
 * - the track's latest round is in submission: its `closes_at`;
 * - it is in evaluation and holds a task of the artifact: its `closes_at`;
 * - it is in evaluation without one: the next round, opening the gap after that close (or now, if
 *   later) and closing one submission and evaluation period after opening;
 * - it is closed: the next round, opening at `next_round_opens_at` (or now, if later), likewise;
 * - the track has no round: a round opening now.
 */
export function expectedVerdictAt(latest: Selectable<RoundsTable> | undefined, options: { hasTask: boolean; now: number; timings: RoundTimings }): number {
  const { now, timings } = options;
  const period = timings.submissionMs + timings.evaluationMs;
  if (latest === undefined) return now + period;
  const closesAt = Number(latest.closes_at);
  if (latest.status === 'open' && latest.phase === 'submission') return closesAt;
  if (latest.status === 'open') return options.hasTask ? closesAt : Math.max(closesAt + timings.gapMs, now) + period;
  const opensAt = latest.next_round_opens_at === null ? now : Number(latest.next_round_opens_at);
  return Math.max(opensAt, now) + period;
}
