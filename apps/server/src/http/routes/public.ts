import {
  AgentEligibility,
  AgentEligibilityQuery,
  AgentsQuery,
  AgentsResponse,
  CACHE_TTL_SECONDS,
  HealthStatus,
  Hotkey,
  Leaderboard,
  NetworkDashboard,
  RoundAttestations,
  RoundAttestationsQuery,
  RoundId,
  RoundScores,
  RoundsListResponse,
  RoundsQuery,
  RoundsStatusResponse,
  ServerIdentity,
  ThreatTrends,
  TrendsQuery,
  emptyRoundAttestations,
} from '@vigil/core';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { VigilError } from '../../errors.js';
import type { PublicReadService } from '../../services/public-read.js';
import '../route-config.js';
import { parseInput } from '../validate.js';

export interface PublicRoutesOptions {
  readService: PublicReadService;
  now: () => Date;
  serverPublicKeyHex: string;
}

type Params<K extends string> = FastifyRequest<{ Params: Record<K, string> }>;

/** Cache key from a query schema: the validated value, or null (uncached) when the query is invalid. */
function queryKey<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, pick: (data: T) => unknown) {
  return (request: FastifyRequest): string | null => {
    const result = schema.safeParse(request.query);
    return result.success ? String(pick(result.data) ?? '') : null;
  };
}

const publicRoutes: FastifyPluginAsync<PublicRoutesOptions> = async (app, { readService, now, serverPublicKeyHex }) => {
  const identity = ServerIdentity.parse({ server_hotkey: serverPublicKeyHex });

  app.get('/v1/health', { config: { rateLimit: false } }, async () => HealthStatus.parse({ status: 'ok' }));

  app.get('/v1/server-identity', async () => identity);

  app.get(
    '/v1/dashboard/network',
    { config: { endpointRateLimit: true, cache: { ttlSeconds: CACHE_TTL_SECONDS.dashboardNetwork } } },
    async () => NetworkDashboard.parse(await readService.networkDashboard(now())),
  );

  app.get(
    '/v1/threats/trends',
    {
      config: {
        endpointRateLimit: true,
        cache: { ttlSeconds: CACHE_TTL_SECONDS.threatTrends, key: queryKey(TrendsQuery, (q) => q.days) },
      },
    },
    async (request) => {
      const { days } = parseInput(TrendsQuery, request.query, 'query');
      return ThreatTrends.parse(await readService.threatTrends(days, now()));
    },
  );

  app.get('/v1/rounds/status', { config: { cache: { ttlSeconds: CACHE_TTL_SECONDS.roundsStatus } } }, async () =>
    RoundsStatusResponse.parse(await readService.roundsStatus(now())),
  );

  app.get(
    '/v1/rounds',
    { config: { cache: { ttlSeconds: CACHE_TTL_SECONDS.rounds, key: queryKey(RoundsQuery, (q) => q.limit) } } },
    async (request) => {
      const { limit } = parseInput(RoundsQuery, request.query, 'query');
      return RoundsListResponse.parse(await readService.closedRounds(limit));
    },
  );

  app.get('/v1/rounds/:round_id/scores', async (request: Params<'round_id'>) => {
    const roundId = request.params.round_id;
    // A malformed id can name no round: answer without asking storage.
    if (!RoundId.safeParse(roundId).success) throw new VigilError('round_not_found');
    return RoundScores.parse(await readService.roundScores(roundId));
  });

  app.get(
    '/v1/rounds/:round_id/attestations',
    {
      config: {
        endpointRateLimit: true,
        cache: {
          ttlSeconds: CACHE_TTL_SECONDS.roundAttestations,
          key: (request) => {
            const miner = RoundAttestationsQuery.safeParse(request.query);
            return `${(request.params as { round_id: string }).round_id}|${miner.success ? (miner.data.miner ?? '') : ''}`;
          },
        },
      },
    },
    async (request: Params<'round_id'>, reply) => {
      const roundId = request.params.round_id;
      // Rule 3: bad input is an empty shell with 200, never an error.
      const query = RoundAttestationsQuery.safeParse(request.query);
      const miner = query.success ? (query.data.miner ?? '') : '';
      const body =
        RoundId.safeParse(roundId).success && Hotkey.safeParse(miner).success
          ? RoundAttestations.parse(await readService.roundAttestations(roundId, miner))
          : emptyRoundAttestations({ roundId, miner, roundStatus: 'unknown' });
      // Only a closed round's set is final; an empty shell may fill once the round closes.
      if (body.round_status !== 'closed') reply.header('cache-control', 'no-store');
      return body;
    },
  );

  app.get('/v1/leaderboard', { config: { cache: { ttlSeconds: CACHE_TTL_SECONDS.leaderboard } } }, async () =>
    Leaderboard.parse(await readService.leaderboard(now())),
  );

  app.get(
    '/v1/agents',
    { config: { cache: { ttlSeconds: CACHE_TTL_SECONDS.agents, key: queryKey(AgentsQuery, (q) => q.track ?? 'all') } } },
    async (request) => {
      const { track } = parseInput(AgentsQuery, request.query, 'query');
      return AgentsResponse.parse(await readService.agents(track));
    },
  );

  app.get('/v1/agents/:hotkey', async (request: Params<'hotkey'>) => {
    // Rule 2 first: a hotkey that cannot have an agent is 404 whatever the query says.
    const hotkey = request.params.hotkey;
    if (!Hotkey.safeParse(hotkey).success) throw new VigilError('agent_not_found');
    const { track } = parseInput(AgentEligibilityQuery, request.query, 'query');
    return AgentEligibility.parse(await readService.agentEligibility(hotkey, track));
  });
};

/** The eleven public GET endpoints of spec part 4: validate with core schemas, call the read service, parse out. */
export const publicRoutesPlugin = fp(publicRoutes, { name: 'vigil-public-routes', fastify: '5.x', encapsulate: true });
