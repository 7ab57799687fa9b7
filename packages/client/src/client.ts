import {
  AgentEligibility,
  AgentsResponse,
  ErrorBody,
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
import { VigilApiError, VigilResponseError } from './errors.js';

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

function parseRetryAfter(value: string | null): number | null {
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

export class VigilClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof globalThis.fetch;
  readonly #headers: Record<string, string>;

  constructor(options: VigilClientOptions) {
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
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new TypeError('options.fetch: no fetch implementation available');
    this.#fetch = f;
    this.#headers = { ...options.headers };
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
    const text = await response.text();
    let json: unknown;
    try {
      json = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const body = ErrorBody.safeParse(json);
      throw new VigilApiError({
        status: response.status,
        detail: body.success ? body.data.detail : text.slice(0, 200) || response.statusText,
        requestId: response.headers.get(HEADERS.requestId),
        retryAfterSeconds: parseRetryAfter(response.headers.get(HEADERS.retryAfter)),
        body: body.success ? body.data : null,
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new VigilResponseError(path, parsed.error.message);
    return parsed.data;
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
