import {
  AgentEligibility,
  AgentsResponse,
  HEADERS,
  HealthStatus,
  Leaderboard,
  NetworkDashboard,
  RoundAttestations,
  RoundScores,
  RoundsListResponse,
  RoundsStatusResponse,
  ServerIdentity,
  ThreatTrends,
  Track,
} from '@vigil/core';
import type { z } from 'zod';
import { readVigilResponse } from './response.js';

export interface VigilClientOptions {
  /** For example `https://api.vigil.example`; a trailing slash is ignored. */
  baseUrl: string;
  /** API token (`vgl_…`), sent as `Authorization: Bearer`; public reads need none. */
  apiKey?: string;
  /** Defaults to the global fetch (Node ≥ 20, browsers, edge runtimes). */
  fetch?: typeof globalThis.fetch;
  /** Extra headers on every request, e.g. a `User-Agent`. */
  headers?: Record<string, string>;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Sent as `x-request-id`, so a failing call can be found in the server's logs. */
  requestId?: string;
}

/** Validated client options; shared with SignedVigilClient so both read them the same way. */
export interface ResolvedClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  fetch: typeof globalThis.fetch;
  headers: Record<string, string>;
}

export function resolveClientOptions(options: VigilClientOptions): ResolvedClientOptions {
  if (typeof options?.baseUrl !== 'string') throw new TypeError('options.baseUrl: expected a URL string');
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`options.baseUrl: not a valid URL: ${JSON.stringify(options.baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`options.baseUrl: expected http or https, got ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError('options.baseUrl: must not carry a query or fragment');
  }
  // Bound: a browser's fetch called as a method of another object (this.#fetch) throws "Illegal invocation".
  const f = options.fetch ?? globalThis.fetch?.bind(globalThis);
  if (typeof f !== 'function') throw new TypeError('options.fetch: no fetch implementation available');
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    fetch: f,
    headers: { ...options.headers },
  };
}

export class VigilClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof globalThis.fetch;
  readonly #headers: Record<string, string>;

  constructor(options: VigilClientOptions) {
    const resolved = resolveClientOptions(options);
    this.baseUrl = resolved.baseUrl;
    this.#apiKey = resolved.apiKey;
    this.#fetch = resolved.fetch;
    this.#headers = resolved.headers;
  }

  async #get<S extends z.ZodType>(path: string, schema: S, options: RequestOptions = {}): Promise<z.output<S>> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.#headers };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    if (options.requestId) headers[HEADERS.requestId] = options.requestId;
    const response = await this.#fetch(`${this.baseUrl}${path}`, {
      method: 'GET',
      headers,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return readVigilResponse(response, path, schema);
  }

  health(options?: RequestOptions): Promise<HealthStatus> {
    return this.#get('/v1/health', HealthStatus, options);
  }

  serverIdentity(options?: RequestOptions): Promise<ServerIdentity> {
    return this.#get('/v1/server-identity', ServerIdentity, options);
  }

  networkDashboard(options?: RequestOptions): Promise<NetworkDashboard> {
    return this.#get('/v1/dashboard/network', NetworkDashboard, options);
  }

  /** `days` 1–180 (server default 30). */
  threatTrends(query: { days?: number } = {}, options?: RequestOptions): Promise<ThreatTrends> {
    const qs = query.days === undefined ? '' : `?days=${encodeURIComponent(String(query.days))}`;
    return this.#get(`/v1/threats/trends${qs}`, ThreatTrends, options);
  }

  roundsStatus(options?: RequestOptions): Promise<RoundsStatusResponse> {
    return this.#get('/v1/rounds/status', RoundsStatusResponse, options);
  }

  /** Closed rounds, newest first; `limit` 1–200 (server default 60). */
  rounds(query: { limit?: number } = {}, options?: RequestOptions): Promise<RoundsListResponse> {
    const qs = query.limit === undefined ? '' : `?limit=${encodeURIComponent(String(query.limit))}`;
    return this.#get(`/v1/rounds${qs}`, RoundsListResponse, options);
  }

  roundScores(roundId: string, options?: RequestOptions): Promise<RoundScores> {
    return this.#get(`/v1/rounds/${encodeURIComponent(roundId)}/scores`, RoundScores, options);
  }

  /** Closed rounds only; anything else answers the documented empty shell. */
  roundAttestations(roundId: string, miner: string, options?: RequestOptions): Promise<RoundAttestations> {
    return this.#get(
      `/v1/rounds/${encodeURIComponent(roundId)}/attestations?miner=${encodeURIComponent(miner)}`,
      RoundAttestations,
      options,
    );
  }

  leaderboard(options?: RequestOptions): Promise<Leaderboard> {
    return this.#get('/v1/leaderboard', Leaderboard, options);
  }

  agents(query: { track?: Track } = {}, options?: RequestOptions): Promise<AgentsResponse> {
    const qs = query.track === undefined ? '' : `?track=${encodeURIComponent(query.track)}`;
    return this.#get(`/v1/agents${qs}`, AgentsResponse, options);
  }

  agentEligibility(hotkey: string, query: { track?: Track } = {}, options?: RequestOptions): Promise<AgentEligibility> {
    const qs = query.track === undefined ? '' : `?track=${encodeURIComponent(query.track)}`;
    return this.#get(`/v1/agents/${encodeURIComponent(hotkey)}${qs}`, AgentEligibility, options);
  }
}
