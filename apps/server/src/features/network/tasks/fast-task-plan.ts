import type { TrackName, VerdictName } from '../../../platform/db/schema.js';
import { publishedVerdict } from '../rounds/scoring.js';

/** The track's last closed round and its winners: the incumbents between rounds (docs/rounds.md). */
export interface IncumbentRound {
  roundId: string;
  track: TrackName;
  /** Hotkeys of the round's winners, best rank first. */
  winners: readonly string[];
}

export type FastTaskPlan =
  | { status: 'planned'; roundId: string; hotkeys: string[] }
  | { status: 'none'; reason: 'no_closed_round' | 'no_incumbents' | 'other_track' | 'already_tasked' };

/**
 * Which incumbents get a fast task for a newly stored artifact: every winner of the track's last
 * closed round that has no task for it in that round yet. Nothing when the track has no closed
 * round, or its last closed round had no winner: the artifact then waits for the next round.
 */
export function planFastTasks(input: {
  artifact: { track: TrackName };
  incumbents: IncumbentRound | null;
  /** Hotkeys that already have a task for this artifact in the incumbents' round. */
  alreadyTasked: ReadonlySet<string>;
}): FastTaskPlan {
  const { incumbents } = input;
  if (incumbents === null) return { status: 'none', reason: 'no_closed_round' };
  if (incumbents.track !== input.artifact.track) return { status: 'none', reason: 'other_track' };
  if (incumbents.winners.length === 0) return { status: 'none', reason: 'no_incumbents' };
  const hotkeys = [...new Set(incumbents.winners)].filter((hotkey) => !input.alreadyTasked.has(hotkey));
  if (hotkeys.length === 0) return { status: 'none', reason: 'already_tasked' };
  return { status: 'planned', roundId: incumbents.roundId, hotkeys };
}

/** One attestation of a fast task, as the decision reads it. */
export interface FastVote {
  minerHotkey: string;
  validatorHotkey: string;
  verdict: VerdictName;
  riskScore: number;
}

export type FastDecision =
  | { decided: true; verdict: VerdictName; riskScore: number; votes: number }
  | { decided: false; waitingFor: { hotkey: string; have: number }[] };

/**
 * Whether an artifact's fast tasks decide its verdict: every incumbent's task has been attested by
 * `quorum` different validators (the replicas a round asks for, or every active validator when there
 * are fewer). The verdict is then the one a round's close would publish from the same votes
 * (publishedVerdict: the winners' attestations by every validator, most frequent, ties to the more
 * severe). Votes of agents that are not incumbents are ignored.
 */
export function decideFastVerdict(input: { incumbents: readonly string[]; votes: readonly FastVote[]; quorum: number }): FastDecision {
  if (!Number.isInteger(input.quorum) || input.quorum < 1) throw new RangeError('quorum: expected a positive integer');
  const incumbents = [...new Set(input.incumbents)];
  if (incumbents.length === 0) return { decided: false, waitingFor: [] };
  const validators = new Map<string, Set<string>>(incumbents.map((hotkey) => [hotkey, new Set<string>()]));
  const counted: FastVote[] = [];
  for (const vote of input.votes) {
    const seen = validators.get(vote.minerHotkey);
    // A validator attests a task once; a repeated (validator, agent) pair would count one run twice.
    if (seen === undefined || seen.has(vote.validatorHotkey)) continue;
    seen.add(vote.validatorHotkey);
    counted.push(vote);
  }
  const waitingFor = incumbents
    .map((hotkey) => ({ hotkey, have: validators.get(hotkey)!.size }))
    .filter((entry) => entry.have < input.quorum);
  if (waitingFor.length > 0) return { decided: false, waitingFor };
  const published = publishedVerdict(counted);
  return { decided: true, verdict: published.verdict, riskScore: published.riskScore, votes: counted.length };
}
