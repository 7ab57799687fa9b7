import * as z from 'zod';
import { RoundPhase, RoundStatusValue, Severity, Track, Verdict } from '../enums.js';
import { Hotkey, RoundId, Sha256Hash } from '../ids.js';
import { LIMITS } from '../limits.js';
import { NaiveTimestamp } from '../timestamps.js';
import { NonNegativeInt } from './common.js';

export const RoundStatus = z.object({
  track: Track,
  round_id: RoundId,
  round_number: z.int().min(1),
  status: RoundStatusValue,
  phase: RoundPhase,
  opened_at: NaiveTimestamp,
  closed_at: NaiveTimestamp.nullable(),
  submission_closes_at: NaiveTimestamp,
  seconds_until_close: NonNegativeInt.nullable(),
  accepting_submissions: z.boolean(),
  participants: NonNegativeInt,
  scored_agents: NonNegativeInt,
});
export type RoundStatus = z.infer<typeof RoundStatus>;

export const RoundsStatusResponse = z.object({
  tracks: z.array(RoundStatus),
  server_time: NaiveTimestamp,
  next_round_opens_at: NaiveTimestamp.nullable(),
  seconds_until_next_round: NonNegativeInt.nullable(),
});
export type RoundsStatusResponse = z.infer<typeof RoundsStatusResponse>;

export const ScoreEntry = z.object({
  rank: z.int().min(1),
  hotkey: Hotkey,
  name: z.string(),
  score: z.number(),
  validators: NonNegativeInt,
});
export type ScoreEntry = z.infer<typeof ScoreEntry>;

export const RoundSummary = z.object({
  round_id: RoundId,
  round_number: z.int().min(1),
  track: Track,
  status: z.literal('closed'),
  closed_at: NaiveTimestamp,
  miners: NonNegativeInt,
  winners: z.array(ScoreEntry).max(5),
});
export type RoundSummary = z.infer<typeof RoundSummary>;

export const RoundsListResponse = z.object({
  rounds: z.array(RoundSummary),
  meta: z.object({ total: NonNegativeInt }),
});
export type RoundsListResponse = z.infer<typeof RoundsListResponse>;

export const RoundScores = z.object({
  round_id: RoundId,
  round_number: z.int().min(1),
  track: Track,
  closed_at: NaiveTimestamp,
  scores: z.array(ScoreEntry),
});
export type RoundScores = z.infer<typeof RoundScores>;

const FindingText = z.string().max(LIMITS.maxFindingTextLength);

export const Finding = z.object({
  type: FindingText,
  category: FindingText,
  severity: Severity,
  title: FindingText,
  file: FindingText,
});
export type Finding = z.infer<typeof Finding>;

export const AttestationTask = z.object({
  artifact_ref: z.literal(''),
  validator: z.literal(''),
  verdict: Verdict,
  risk_score: z.int().min(0).max(100),
  canonical_hash: Sha256Hash,
  findings: z.array(Finding).max(LIMITS.maxFindingsPerTask),
});
export type AttestationTask = z.infer<typeof AttestationTask>;

/**
 * The attestations of one miner in one closed round. For an open, unknown or malformed round
 * (or a malformed miner) the endpoint answers 200 with an empty shell: see `emptyRoundAttestations`.
 */
export const RoundAttestations = z.object({
  round_id: z.union([RoundId, z.literal('')]),
  track: z.union([Track, z.literal('')]),
  /** `closed` for a served round; `open` or `unknown` in the empty shell. */
  round_status: z.enum(['closed', 'open', 'unknown']),
  miner_hotkey: z.union([Hotkey, z.literal('')]),
  /** 0 when the agent failed (see `failure_reason`) or the miner had no agent in the round, and in the empty shell. */
  score: z.number(),
  runs: NonNegativeInt,
  failure_reason: z.string().nullable(),
  policy_version: z.string(),
  tasks: z.array(AttestationTask).max(LIMITS.maxTasksPerAttestationSet),
});
export type RoundAttestations = z.infer<typeof RoundAttestations>;

/** The documented empty shell (docs/api.md): echoes well-formed identifiers, blanks the rest. */
export function emptyRoundAttestations(input: {
  roundId: string;
  miner: string;
  track?: Track | '';
  roundStatus: 'open' | 'unknown';
}): RoundAttestations {
  return {
    round_id: RoundId.safeParse(input.roundId).success ? input.roundId : '',
    track: input.track ?? '',
    round_status: input.roundStatus,
    miner_hotkey: Hotkey.safeParse(input.miner).success ? input.miner : '',
    score: 0,
    runs: 0,
    failure_reason: null,
    policy_version: '',
    tasks: [],
  };
}
