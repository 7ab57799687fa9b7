import {
  AgentEligibility,
  AgentEligibilityQuery,
  AgentsQuery,
  AgentsResponse,
  AnyRoundIdParams,
  CACHE_TTL_SECONDS,
  HealthStatus,
  Hotkey,
  HotkeyParams,
  Leaderboard,
  NetworkDashboard,
  RoundAttestations,
  RoundAttestationsQuery,
  RoundId,
  RoundIdParams,
  RoundScores,
  RoundsListResponse,
  RoundsQuery,
  RoundsStatusResponse,
  ServerIdentity,
  ThreatTrends,
  TrendsQuery,
  emptyRoundAttestations,
} from '@vigil/core';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PublicReadService } from './public-read.js';
import '../../../platform/http/route-config.js';
import { answeredByHandler, notFoundWhenInvalid } from '../../../platform/http/zod-compilers.js';

export interface PublicRoutesOptions {
  readService: PublicReadService;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
  serverPublicKeyHex: string;
}

/**
 * Cache key from the validated query: the cache answers in preHandler, after the route schema
 * replaced the query with its parsed value, so equivalent spellings (`days=030`, `days=30`, none) share an entry.
 */
function queryKey<T>(pick: (query: T) => unknown) {
  return (request: FastifyRequest): string => String(pick(request.query as T) ?? '');
}

// A malformed id names no round and a malformed hotkey no agent: 404 before anything else is read.
notFoundWhenInvalid.add(RoundIdParams, { code: 'round_not_found' });
notFoundWhenInvalid.add(HotkeyParams, { code: 'agent_not_found' });
answeredByHandler.add(AnyRoundIdParams, { reason: 'spec rule 3: a malformed round id is the empty shell' });
answeredByHandler.add(RoundAttestationsQuery, { reason: 'spec rule 3: a malformed miner is the empty shell' });

const publicRoutes: FastifyPluginAsyncZod<PublicRoutesOptions> = async (app, { readService, clock, serverPublicKeyHex }) => {
  const identity = ServerIdentity.parse({ server_hotkey: serverPublicKeyHex });

  app.get(
    '/v1/health',
    { schema: { summary: 'Liveness', response: { 200: HealthStatus } }, config: { rateLimit: false } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/v1/server-identity',
    { schema: { summary: "The server's ed25519 identity key (the audience of signed requests)", response: { 200: ServerIdentity } } },
    async () => identity,
  );

  app.get(
    '/v1/dashboard/network',
    {
      schema: { summary: 'Network telemetry (cached 60 s)', response: { 200: NetworkDashboard } },
      config: { endpointRateLimit: true, cache: { ttlSeconds: CACHE_TTL_SECONDS.dashboardNetwork } },
    },
    async () => readService.networkDashboard(new Date(clock())),
  );

  app.get(
    '/v1/threats/trends',
    {
      schema: { summary: 'Threat trends (cached 600 s per days)', querystring: TrendsQuery, response: { 200: ThreatTrends } },
      config: {
        endpointRateLimit: true,
        cache: { ttlSeconds: CACHE_TTL_SECONDS.threatTrends, key: queryKey<TrendsQuery>((q) => q.days) },
      },
    },
    async (request) => readService.threatTrends(request.query.days, new Date(clock())),
  );

  app.get(
    '/v1/rounds/status',
    {
      schema: { summary: 'Current round per track (cached 30 s)', response: { 200: RoundsStatusResponse } },
      config: { cache: { ttlSeconds: CACHE_TTL_SECONDS.roundsStatus } },
    },
    async () => readService.roundsStatus(new Date(clock())),
  );

  app.get(
    '/v1/rounds',
    {
      schema: { summary: 'Closed rounds, newest first (cached 30 s)', querystring: RoundsQuery, response: { 200: RoundsListResponse } },
      config: { cache: { ttlSeconds: CACHE_TTL_SECONDS.rounds, key: queryKey<RoundsQuery>((q) => q.limit) } },
    },
    async (request) => readService.closedRounds(request.query.limit),
  );

  app.get(
    '/v1/rounds/:round_id/scores',
    { schema: { summary: 'Ranked scores of a round', params: RoundIdParams, response: { 200: RoundScores } } },
    async (request) => readService.roundScores(request.params.round_id),
  );

  app.get(
    '/v1/rounds/:round_id/attestations',
    {
      schema: {
        summary: "A miner's attestations in a closed round (the empty shell otherwise, never an error)",
        params: AnyRoundIdParams,
        querystring: RoundAttestationsQuery,
        response: { 200: RoundAttestations },
      },
      config: {
        endpointRateLimit: true,
        cache: {
          ttlSeconds: CACHE_TTL_SECONDS.roundAttestations,
          key: (request) => {
            const { round_id: roundId } = request.params as AnyRoundIdParams;
            return `${roundId}|${(request.query as RoundAttestationsQuery).miner ?? ''}`;
          },
        },
      },
    },
    async (request, reply) => {
      const roundId = request.params.round_id;
      const miner = request.query.miner ?? '';
      // Rule 3: bad input is an empty shell with 200, never an error.
      const body =
        RoundId.safeParse(roundId).success && Hotkey.safeParse(miner).success
          ? await readService.roundAttestations(roundId, miner)
          : emptyRoundAttestations({ roundId, miner, roundStatus: 'unknown' });
      // Only a closed round's set is final; an empty shell may fill once the round closes.
      if (body.round_status !== 'closed') reply.header('cache-control', 'no-store');
      return body;
    },
  );

  app.get(
    '/v1/leaderboard',
    {
      schema: { summary: 'Current standings per track (cached 30 s)', response: { 200: Leaderboard } },
      config: { cache: { ttlSeconds: CACHE_TTL_SECONDS.leaderboard } },
    },
    async () => readService.leaderboard(new Date(clock())),
  );

  app.get(
    '/v1/agents',
    {
      schema: { summary: 'Active agents, at most 500 (cached 30 s per track)', querystring: AgentsQuery, response: { 200: AgentsResponse } },
      config: { cache: { ttlSeconds: CACHE_TTL_SECONDS.agents, key: queryKey<AgentsQuery>((q) => q.track ?? 'all') } },
    },
    async (request) => readService.agents(request.query.track),
  );

  app.get(
    '/v1/agents/:hotkey',
    {
      schema: {
        summary: "An agent's eligibility for the next round",
        params: HotkeyParams,
        querystring: AgentEligibilityQuery,
        response: { 200: AgentEligibility },
      },
    },
    async (request) => readService.agentEligibility(request.params.hotkey, request.query.track),
  );
};

/** The eleven public GET endpoints of spec part 4: route schemas from core validate the input and serialize the answer. */
export const publicRoutesPlugin = fp(publicRoutes, { name: 'vigil-public-routes', fastify: '5.x', encapsulate: true });
