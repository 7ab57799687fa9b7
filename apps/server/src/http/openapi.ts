import {
  AgentEligibility,
  AgentEligibilityQuery,
  AgentsQuery,
  AgentsResponse,
  ErrorBody,
  HealthStatus,
  Hotkey,
  Leaderboard,
  NetworkDashboard,
  RoundAttestations,
  RoundAttestationsQuery,
  RoundScores,
  RoundsListResponse,
  RoundsQuery,
  RoundsStatusResponse,
  ServerIdentity,
  ThreatTrends,
  TrendsQuery,
} from '@vigil/core';
import { z } from 'zod';

type Json = Record<string, unknown>;

interface EndpointDoc {
  path: string;
  summary: string;
  response: z.ZodType;
  query?: z.ZodObject;
  pathParams?: Record<string, z.ZodType>;
  notFound?: boolean;
}

const ENDPOINTS: EndpointDoc[] = [
  { path: '/v1/health', summary: 'Liveness', response: HealthStatus },
  { path: '/v1/server-identity', summary: "The server's ed25519 identity key", response: ServerIdentity },
  { path: '/v1/dashboard/network', summary: 'Network telemetry (cached 60 s)', response: NetworkDashboard },
  { path: '/v1/threats/trends', summary: 'Threat trends (cached 600 s per days)', response: ThreatTrends, query: TrendsQuery },
  { path: '/v1/rounds/status', summary: 'Current round per track (cached 30 s)', response: RoundsStatusResponse },
  { path: '/v1/rounds', summary: 'Closed rounds, newest first (cached 30 s)', response: RoundsListResponse, query: RoundsQuery },
  {
    path: '/v1/rounds/{round_id}/scores',
    summary: 'Ranked scores of a round',
    response: RoundScores,
    pathParams: { round_id: z.string() },
    notFound: true,
  },
  {
    path: '/v1/rounds/{round_id}/attestations',
    summary: "A miner's attestations in a closed round (empty shell otherwise)",
    response: RoundAttestations,
    query: RoundAttestationsQuery,
    pathParams: { round_id: z.string() },
  },
  { path: '/v1/leaderboard', summary: 'Current standings per track (cached 30 s)', response: Leaderboard },
  { path: '/v1/agents', summary: 'Active agents, at most 500 (cached 30 s per track)', response: AgentsResponse, query: AgentsQuery },
  {
    path: '/v1/agents/{hotkey}',
    summary: "An agent's eligibility for the next round",
    response: AgentEligibility,
    query: AgentEligibilityQuery,
    pathParams: { hotkey: Hotkey },
    notFound: true,
  },
];

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  // Refinements (timestamps, ss58) have no JSON Schema form; their base type is still described.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Json;
  return rest;
}

function errorResponse(description: string): Json {
  return { description, content: { 'application/json': { schema: jsonSchema(ErrorBody, 'output') } } };
}

/** The OpenAPI 3.0 document of the public endpoints, generated from @vigil/core's zod schemas. */
export function buildOpenApiDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const endpoint of ENDPOINTS) {
    const parameters: Json[] = [];
    for (const [name, schema] of Object.entries(endpoint.pathParams ?? {})) {
      parameters.push({ name, in: 'path', required: true, schema: jsonSchema(schema, 'input') });
    }
    if (endpoint.query) {
      const query = jsonSchema(endpoint.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties ?? {})) {
        parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
      }
    }
    const responses: Record<string, Json> = {
      '200': { description: 'OK', content: { 'application/json': { schema: jsonSchema(endpoint.response, 'output') } } },
      '429': errorResponse('rate limit exceeded'),
      '500': errorResponse('internal error (with request_id)'),
      '504': errorResponse('request handler timed out'),
    };
    if (endpoint.query) responses['422'] = errorResponse('Validation error');
    if (endpoint.notFound) responses['404'] = errorResponse('not found');
    paths[endpoint.path] = { get: { summary: endpoint.summary, parameters, responses } };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Vigil public API', version, description: 'Debug-mode only; not a published contract.' },
    paths,
  };
}
