import type { Verdict } from '@vigil/core';
import { addToTally, balancedAccuracyScore, emptyTally, median, publishedVerdict, type LabeledTally } from './scoring.js';

// A round's close, decided: plain values in, plain values out, no database (docs/rounds.md,
// "Scoring"). `closeRound` (rounds.ts) reads the inputs, calls these and writes what they return.

/** How many of a round's best-ranked agents (with a score above 0) win it. */
export const WINNERS_PER_ROUND = 5;

/** An agent version frozen into the round, as scoring reads it. */
export interface ScoredAgentInput {
  hotkey: string;
  /** When the frozen version was submitted (epoch ms): the tie-breaker between equal scores. */
  submittedAt: number;
}

/** One attestation recorded for a round task, as scoring reads it. */
export interface RoundAttestation {
  minerHotkey: string;
  validatorHotkey: string;
  verdict: Verdict;
  riskScore: number;
  artifactId: number;
  bundleHash: string;
  kind: 'labeled' | 'live';
  /** The label of a labeled artifact; null for a live one. */
  groundTruth: Verdict | null;
}

/** One validator's score of one agent (only validators that saw both classes score). */
export interface ValidatorScore {
  hotkey: string;
  validatorHotkey: string;
  score: number;
  /** Labeled artifacts this validator attested for the agent. */
  labeledTasks: number;
}

/** An agent's result in the round. */
export interface AgentScore {
  hotkey: string;
  /** The median of its validators' scores; null when no validator could score it. */
  score: number | null;
  /** How many validators scored it. */
  validators: number;
  /** 1 for the best; null when unscored. */
  rank: number | null;
  winner: boolean;
  /** Attestations recorded for it, labeled and live. */
  attestations: number;
  /** Why it has no score; null when it has one. */
  failureReason: string | null;
}

export interface RoundScores {
  /** One per agent, in the order the agents were given. */
  agents: AgentScore[];
  /** Per agent (in the agents' order), each validator that scored it, in the order its attestations came. */
  validatorScores: ValidatorScore[];
  /** Hotkeys of the scored agents, best rank first. */
  ranked: string[];
  /** Hotkeys of the winners, best rank first: at most `winnersPerRound`, every one scored above 0. */
  winners: string[];
}

function failureReason(attestations: number): string {
  return attestations === 0
    ? 'no attestations were recorded for this agent'
    : 'no validator attested both malicious and benign labeled artifacts for this agent';
}

/** Attestations per miner, and per miner and validator the tally of its labeled verdicts. */
function tallyAttestations(attestations: readonly RoundAttestation[]) {
  const counts = new Map<string, number>();
  const tallies = new Map<string, Map<string, LabeledTally>>();
  for (const a of attestations) {
    counts.set(a.minerHotkey, (counts.get(a.minerHotkey) ?? 0) + 1);
    if (a.kind !== 'labeled' || a.groundTruth === null) continue;
    const perValidator = tallies.get(a.minerHotkey) ?? new Map<string, LabeledTally>();
    tallies.set(a.minerHotkey, perValidator);
    const tally = perValidator.get(a.validatorHotkey) ?? emptyTally();
    perValidator.set(a.validatorHotkey, tally);
    addToTally(tally, a.groundTruth, a.verdict);
  }
  return { counts, tallies };
}

/**
 * Scores a round: each agent's score from every validator that could score it (balanced accuracy on
 * the labeled artifacts), the median across them, ranks (ties go to the earlier submission of the
 * frozen version, then to the lower hotkey, so the order never depends on the input's), and the
 * winners: the `winnersPerRound` best ranks among scores above 0 (0 is what a constant answer earns).
 * Attestations of agents not in `agents` are ignored.
 */
export function scoreRound(
  agents: readonly ScoredAgentInput[],
  attestations: readonly RoundAttestation[],
  winnersPerRound: number = WINNERS_PER_ROUND,
): RoundScores {
  const { counts, tallies } = tallyAttestations(attestations);
  const validatorScores: ValidatorScore[] = [];
  const results = agents.map((agent) => {
    const scores: number[] = [];
    for (const [validatorHotkey, tally] of tallies.get(agent.hotkey) ?? []) {
      const score = balancedAccuracyScore(tally);
      if (score === null) continue;
      scores.push(score);
      validatorScores.push({ hotkey: agent.hotkey, validatorHotkey, score, labeledTasks: tally.malicious + tally.benign });
    }
    const attestationCount = counts.get(agent.hotkey) ?? 0;
    const result: AgentScore = {
      hotkey: agent.hotkey,
      score: scores.length > 0 ? median(scores) : null,
      validators: scores.length,
      rank: null,
      winner: false,
      attestations: attestationCount,
      failureReason: scores.length > 0 ? null : failureReason(attestationCount),
    };
    return { agent, result };
  });
  const ranked = results
    .filter((r) => r.result.score !== null)
    .sort(
      (a, b) =>
        b.result.score! - a.result.score! ||
        a.agent.submittedAt - b.agent.submittedAt ||
        (a.agent.hotkey < b.agent.hotkey ? -1 : a.agent.hotkey > b.agent.hotkey ? 1 : 0),
    );
  ranked.forEach((r, i) => {
    r.result.rank = i + 1;
  });
  const winners = ranked.filter((r) => r.result.score! > 0).slice(0, winnersPerRound);
  for (const r of winners) r.result.winner = true;
  return {
    agents: results.map((r) => r.result),
    validatorScores,
    ranked: ranked.map((r) => r.agent.hotkey),
    winners: winners.map((r) => r.agent.hotkey),
  };
}

/** A live artifact's verdict as the round's winners decide it. */
export interface VerdictToPublish {
  artifactId: number;
  bundleHash: string;
  verdict: Verdict;
  riskScore: number;
}

/**
 * The verdicts a round's close publishes: for every live artifact the winners attested, the verdict
 * `publishedVerdict` takes from their attestations (by every validator). In the order the artifacts
 * first appear among the attestations.
 */
export function verdictsToPublish(attestations: readonly RoundAttestation[], winners: ReadonlySet<string>): VerdictToPublish[] {
  const votes = new Map<number, { bundleHash: string; votes: { verdict: Verdict; riskScore: number }[] }>();
  for (const a of attestations) {
    if (a.kind !== 'live' || !winners.has(a.minerHotkey)) continue;
    const entry = votes.get(a.artifactId) ?? { bundleHash: a.bundleHash, votes: [] };
    entry.votes.push({ verdict: a.verdict, riskScore: a.riskScore });
    votes.set(a.artifactId, entry);
  }
  return [...votes].map(([artifactId, entry]) => ({ artifactId, bundleHash: entry.bundleHash, ...publishedVerdict(entry.votes) }));
}
