// The dashboard's only way to the API. Every call goes through `@vigil/client` here, and nowhere
// else imports it: moving to another SDK shape (resource namespaces, typed errors) is a change to
// this one file.
import { Vigil, VigilApiError, VigilResponseError, type Dated } from '@vigil/client';
import {
  CACHE_TTL_SECONDS,
  type AgentEligibility as AgentEligibilitySchema,
  type AgentsResponse as AgentsResponseSchema,
  type ArtifactDetail,
  type FirewallStats as FirewallStatsSchema,
  type Leaderboard as LeaderboardSchema,
  type NetworkDashboard as NetworkDashboardSchema,
  type RoundAttestations as RoundAttestationsSchema,
  type RoundScores as RoundScoresSchema,
  type RoundsListResponse as RoundsListResponseSchema,
  type RoundsStatusResponse as RoundsStatusResponseSchema,
  type ThreatTrends as ThreatTrendsSchema,
  type Track,
} from '@vigil/core';

/** An artifact as the SDK returns it: every timestamp a `Date`. */
export type Artifact = Dated<typeof ArtifactDetail>;

/** The artifacts claimed under one purl, and whether the lookup has more pages than shown. */
export interface ArtifactLookup {
  artifacts: Artifact[];
  more: boolean;
}

// The public reads as the SDK returns them: every timestamp a `Date`.
export type AgentEligibility = Dated<typeof AgentEligibilitySchema>;
export type AgentsResponse = Dated<typeof AgentsResponseSchema>;
export type Leaderboard = Dated<typeof LeaderboardSchema>;
export type NetworkDashboard = Dated<typeof NetworkDashboardSchema>;
export type RoundAttestations = Dated<typeof RoundAttestationsSchema>;
export type RoundScores = Dated<typeof RoundScoresSchema>;
export type RoundsListResponse = Dated<typeof RoundsListResponseSchema>;
export type RoundsStatusResponse = Dated<typeof RoundsStatusResponseSchema>;
export type ThreatTrends = Dated<typeof ThreatTrendsSchema>;
/** `GET /v1/firewall/stats`'s `data`, as the SDK returns it. */
export type FirewallStats = Dated<typeof FirewallStatsSchema.shape.data>;
export type { Track };

/** Each read with the server's cache lifetime (spec part 8): polling faster only re-reads the same body. */
export const POLL_SECONDS = {
  network: CACHE_TTL_SECONDS.dashboardNetwork,
  threats: CACHE_TTL_SECONDS.threatTrends,
  roundsStatus: CACHE_TTL_SECONDS.roundsStatus,
  rounds: CACHE_TTL_SECONDS.rounds,
  leaderboard: CACHE_TTL_SECONDS.leaderboard,
  agents: CACHE_TTL_SECONDS.agents,
} as const;

/** How many closed rounds the Rounds page lists (the server's default is 60). */
export const CLOSED_ROUNDS_SHOWN = 20;

export interface DashboardApi {
  network(signal: AbortSignal): Promise<NetworkDashboard>;
  threats(days: number, signal: AbortSignal): Promise<ThreatTrends>;
  roundsStatus(signal: AbortSignal): Promise<RoundsStatusResponse>;
  closedRounds(signal: AbortSignal): Promise<RoundsListResponse>;
  roundScores(roundId: string, signal: AbortSignal): Promise<RoundScores>;
  roundAttestations(roundId: string, miner: string, signal: AbortSignal): Promise<RoundAttestations>;
  leaderboard(signal: AbortSignal): Promise<Leaderboard>;
  agents(track: Track | undefined, signal: AbortSignal): Promise<AgentsResponse>;
  agentEligibility(hotkey: string, track: Track | undefined, signal: AbortSignal): Promise<AgentEligibility>;
  /** `GET /v1/artifacts?purl=` with the reader's API key (scope `read`): the first page, oldest first. */
  artifactsByPurl(apiKey: string, purl: string, signal: AbortSignal): Promise<ArtifactLookup>;
  /** `GET /v1/artifacts?sha256=` with the reader's API key (scope `read`): the first page, oldest first. */
  artifactsByHash(apiKey: string, sha256: string, signal: AbortSignal): Promise<ArtifactLookup>;
  /** `GET /v1/firewall/stats?days=` with the reader's API key (scope `read`): the account's registry firewall decisions. */
  firewallStats(apiKey: string, days: number, signal: AbortSignal): Promise<FirewallStats>;
}

/** The artifact endpoints are customer endpoints: the key the reader typed, never stored. */
export function isApiKey(text: string): boolean {
  return /^vgl_[0-9a-f]{8}_[0-9a-f]{48}$/.test(text);
}

/** A content hash as `GET /v1/artifacts?sha256=` takes it: `sha256:<64 lowercase hex>`. */
export function isContentHash(text: string): boolean {
  return /^sha256:[0-9a-f]{64}$/.test(text);
}

/** `baseUrl` is the API's origin (VIGIL_DASHBOARD_API_URL), or the page's own when that is unset. */
export function createApi(baseUrl: string): DashboardApi {
  // The window's fetch, looked up at each call (a test may replace it after the page loads).
  const fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init);
  // The public reads need no key. No retries: the page shows a 429's countdown and a 5xx itself,
  // and polls again on its own schedule.
  const client = Vigil.public({ baseUrl, fetch, maxRetries: 0 });
  return {
    network: (signal) => client.network.dashboard({ signal }),
    threats: (days, signal) => client.trends.get({ days }, { signal }),
    roundsStatus: (signal) => client.rounds.status({ signal }),
    closedRounds: (signal) => client.rounds.list({ limit: CLOSED_ROUNDS_SHOWN }, { signal }),
    roundScores: (roundId, signal) => client.rounds.scores(roundId, { signal }),
    roundAttestations: (roundId, miner, signal) => client.rounds.attestations(roundId, { miner }, { signal }),
    leaderboard: (signal) => client.leaderboard.get({ signal }),
    agents: (track, signal) => client.agents.list(track === undefined ? {} : { track }, { signal }),
    agentEligibility: (hotkey, track, signal) => client.agents.get(hotkey, track === undefined ? {} : { track }, { signal }),
    // A client per lookup: the key lives only in the page's memory and in this call. No retries:
    // the page shows a 429's countdown and a 5xx itself, as for every other read.
    artifactsByPurl: async (apiKey, purl, signal) => {
      const vigil = new Vigil({ baseUrl, apiKey, fetch, maxRetries: 0 });
      const page = await vigil.artifacts.getByPurl(purl, { signal });
      return { artifacts: page.items, more: page.hasNextPage() };
    },
    artifactsByHash: async (apiKey, sha256, signal) => {
      const vigil = new Vigil({ baseUrl, apiKey, fetch, maxRetries: 0 });
      const page = await vigil.artifacts.getByHash(sha256, { signal });
      return { artifacts: page.items, more: page.hasNextPage() };
    },
    firewallStats: (apiKey, days, signal) => new Vigil({ baseUrl, apiKey, fetch, maxRetries: 0 }).firewall.stats({ days }, { signal }),
  };
}

/** What went wrong with a read, in the terms the page shows it. */
export type Failure =
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'not_found'; detail: string }
  | { kind: 'server'; status: number; detail: string; requestId: string | null }
  | { kind: 'refused'; status: number; detail: string }
  /** 401/403 of a customer endpoint: the key is missing, unknown, revoked or lacks the scope. */
  | { kind: 'unauthorized'; status: number; detail: string }
  | { kind: 'mismatch'; message: string }
  | { kind: 'unreachable'; message: string };

/** Without a Retry-After, a 429 is retried after the rate-limit window (one minute). */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

export function describeFailure(error: unknown): Failure {
  if (error instanceof VigilApiError) {
    if (error.status === 429) return { kind: 'rate_limited', retryAfterSeconds: error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS };
    if (error.status === 401 || error.status === 403) return { kind: 'unauthorized', status: error.status, detail: error.detail };
    if (error.status === 404) return { kind: 'not_found', detail: error.detail };
    if (error.status >= 500) return { kind: 'server', status: error.status, detail: error.detail, requestId: error.requestId };
    return { kind: 'refused', status: error.status, detail: error.detail };
  }
  if (error instanceof VigilResponseError) return { kind: 'mismatch', message: error.message };
  return { kind: 'unreachable', message: error instanceof Error ? error.message : String(error) };
}
