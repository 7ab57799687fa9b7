import type {
  AgentEligibility,
  AgentsResponse,
  Leaderboard,
  NetworkDashboard,
  RoundAttestations,
  RoundScores,
  RoundsListResponse,
  RoundsStatusResponse,
  ThreatTrends,
  Track,
} from '@vigil/core';

/**
 * What the public read endpoints (spec part 4) need from storage. The HTTP layer depends on this
 * interface only; `createPublicReadService` (storage side) implements it over kysely.
 *
 * Every method returns the wire shape of @vigil/core, timestamps already formatted in their family
 * (offset-aware for dashboard/trends, naive for rounds/leaderboard/agents). `now` is injected so
 * `seconds_until_*`, 24 h windows and day buckets are computed from server time and tests can pin it.
 * Methods throw `VigilError('round_not_found' | 'agent_not_found')` for the 404s of rules 1–2.
 */
export interface PublicReadService {
  networkDashboard(now: Date): Promise<NetworkDashboard>;
  threatTrends(days: number, now: Date): Promise<ThreatTrends>;
  roundsStatus(now: Date): Promise<RoundsStatusResponse>;
  closedRounds(limit: number): Promise<RoundsListResponse>;
  roundScores(roundId: string): Promise<RoundScores>;
  /** Never throws for bad input: an open/unknown/malformed round or miner yields the empty shell. */
  roundAttestations(roundId: string, miner: string): Promise<RoundAttestations>;
  leaderboard(now: Date): Promise<Leaderboard>;
  agents(track: Track | undefined): Promise<AgentsResponse>;
  agentEligibility(hotkey: string, track: Track | undefined): Promise<AgentEligibility>;
}
