import {
  AgentEligibility,
  AgentsResponse,
  HealthStatus,
  Leaderboard,
  NetworkDashboard,
  RoundAttestations,
  RoundScores,
  RoundsListResponse,
  RoundsStatusResponse,
  ServerIdentity,
  ThreatTrends,
} from '@vigil/core';
import type { Track } from '@vigil/core';
import type { Dated } from '../dates.js';
import type { CallOptions, Transport } from '../transport.js';
import { call, segment } from './shared.js';

/** `GET /v1/dashboard/network`, `/v1/health`, `/v1/server-identity`. */
export class Network {
  constructor(private readonly transport: Transport) {}

  /** Network telemetry (cached 60 s by the server). */
  dashboard(options?: CallOptions): Promise<Dated<typeof NetworkDashboard>> {
    return call(this.transport, { method: 'GET', path: '/v1/dashboard/network', schema: NetworkDashboard, repeatable: 'safe' }, options);
  }

  health(options?: CallOptions): Promise<Dated<typeof HealthStatus>> {
    return call(this.transport, { method: 'GET', path: '/v1/health', schema: HealthStatus, repeatable: 'safe' }, options);
  }

  /** The server's ed25519 identity key (`server_hotkey`, 64 hex). */
  identity(options?: CallOptions): Promise<Dated<typeof ServerIdentity>> {
    return call(this.transport, { method: 'GET', path: '/v1/server-identity', schema: ServerIdentity, repeatable: 'safe' }, options);
  }
}

/** `GET /v1/threats/trends`. */
export class Trends {
  constructor(private readonly transport: Transport) {}

  /** `days` 1-180 (server default 30); cached 600 s per value. */
  get(params: { days?: number } = {}, options?: CallOptions): Promise<Dated<typeof ThreatTrends>> {
    return call(this.transport, { method: 'GET', path: '/v1/threats/trends', query: { days: params.days }, schema: ThreatTrends, repeatable: 'safe' }, options);
  }
}

/** `/v1/rounds*`. */
export class Rounds {
  constructor(private readonly transport: Transport) {}

  /** The current round per track. */
  status(options?: CallOptions): Promise<Dated<typeof RoundsStatusResponse>> {
    return call(this.transport, { method: 'GET', path: '/v1/rounds/status', schema: RoundsStatusResponse, repeatable: 'safe' }, options);
  }

  /** Closed rounds, newest first, each with its top five; `limit` 1-200 (server default 60). */
  list(params: { limit?: number } = {}, options?: CallOptions): Promise<Dated<typeof RoundsListResponse>> {
    return call(this.transport, { method: 'GET', path: '/v1/rounds', query: { limit: params.limit }, schema: RoundsListResponse, repeatable: 'safe' }, options);
  }

  /** A closed round's ranked scores; VigilNotFoundError `round not found` otherwise. */
  scores(roundId: string, options?: CallOptions): Promise<Dated<typeof RoundScores>> {
    return call(this.transport, { method: 'GET', path: `/v1/rounds/${segment(roundId, 'roundId')}/scores`, schema: RoundScores, repeatable: 'safe' }, options);
  }

  /** A miner's tasks in a closed round; the empty shell (200) for anything else. */
  attestations(roundId: string, params: { miner: string }, options?: CallOptions): Promise<Dated<typeof RoundAttestations>> {
    return call(
      this.transport,
      { method: 'GET', path: `/v1/rounds/${segment(roundId, 'roundId')}/attestations`, query: { miner: params?.miner }, schema: RoundAttestations, repeatable: 'safe' },
      options,
    );
  }
}

/** `GET /v1/leaderboard`. */
export class LeaderboardResource {
  constructor(private readonly transport: Transport) {}

  get(options?: CallOptions): Promise<Dated<typeof Leaderboard>> {
    return call(this.transport, { method: 'GET', path: '/v1/leaderboard', schema: Leaderboard, repeatable: 'safe' }, options);
  }
}

/** `GET /v1/agents`, `GET /v1/agents/{hotkey}`. */
export class Agents {
  constructor(private readonly transport: Transport) {}

  /** Active agents (at most 500), optionally of one track. */
  list(params: { track?: Track } = {}, options?: CallOptions): Promise<Dated<typeof AgentsResponse>> {
    return call(this.transport, { method: 'GET', path: '/v1/agents', query: { track: params.track }, schema: AgentsResponse, repeatable: 'safe' }, options);
  }

  /** An agent's eligibility for the next round; VigilNotFoundError `agent not found` when the hotkey has none. */
  get(hotkey: string, params: { track?: Track } = {}, options?: CallOptions): Promise<Dated<typeof AgentEligibility>> {
    return call(
      this.transport,
      { method: 'GET', path: `/v1/agents/${segment(hotkey, 'hotkey')}`, query: { track: params.track }, schema: AgentEligibility, repeatable: 'safe' },
      options,
    );
  }
}
