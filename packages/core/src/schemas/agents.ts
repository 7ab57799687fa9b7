import * as z from 'zod';
import { AgentStatus, EligibilityState, EvaluationState, Track } from '../enums.js';
import { Hotkey, Sha256Hash } from '../ids.js';
import { NaiveTimestamp } from '../timestamps.js';
import { NonNegativeInt } from './common.js';

export const LeaderboardRow = z.object({
  rank: z.int().min(1),
  track: Track,
  hotkey: Hotkey,
  name: z.string(),
  version: z.int().min(1),
  /** null when the agent's current code no longer matches the hash frozen into the display round. */
  score: z.number().nullable(),
  attestations: NonNegativeInt,
  updated_at: NaiveTimestamp,
  resubmitted_since: z.boolean(),
  current_version: z.int().min(1),
});
export type LeaderboardRow = z.infer<typeof LeaderboardRow>;

export const Leaderboard = z.object({
  rows: z.array(LeaderboardRow),
  meta: z.object({ total_agents: NonNegativeInt, last_update: NaiveTimestamp }),
});
export type Leaderboard = z.infer<typeof Leaderboard>;

/** Element of `validator_scores` (shape not shown by the spec; Vigil's choice). */
export const ValidatorScore = z.object({
  validator: Hotkey,
  score: z.number(),
  round_number: z.int().min(1),
});
export type ValidatorScore = z.infer<typeof ValidatorScore>;

export const Agent = z.object({
  hotkey: Hotkey,
  track: Track,
  name: z.string(),
  version: z.int().min(1),
  status: AgentStatus,
  agent_hash: Sha256Hash,
  provider: z.string(),
  evaluated: z.boolean(),
  /** Reserved by the spec: present, never populated (always null). */
  evaluation_state: EvaluationState.nullable(),
  runs: NonNegativeInt,
  score: z.number(),
  validator_scores: z.array(ValidatorScore),
  rounds: z.array(z.int().min(1)),
  updated_at: NaiveTimestamp,
});
export type Agent = z.infer<typeof Agent>;

export const AgentsResponse = z.object({ agents: z.array(Agent).max(500) });
export type AgentsResponse = z.infer<typeof AgentsResponse>;

export const AgentEligibility = z.object({
  hotkey: Hotkey,
  track: Track,
  name: z.string(),
  status: z.string(),
  agent_hash: Sha256Hash,
  version: z.int().min(1),
  qualifies_next_round: z.boolean(),
  state: EligibilityState,
  reason: z.string().min(1),
  /**
   * The code hash frozen into the agent's last round. For an agent that has never entered a round
   * (state `new`) it is the hash it will enter the next round with, its current `agent_hash`.
   */
  last_round_hash: Sha256Hash,
  score: z.number(),
  rounds: z.array(z.int().min(1)),
});
export type AgentEligibility = z.infer<typeof AgentEligibility>;
