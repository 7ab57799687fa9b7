import { ERROR_CATALOGUE, ErrorBody, HEADERS, type ErrorCode } from '@vigil/core';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answeredByHandler, notFoundWhenInvalid } from './zod-compilers.js';

type Json = Record<string, unknown>;
type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;

/**
 * ErrorBody with `code` narrowed to the catalogue's codes, read from ERROR_CATALOGUE so the list
 * cannot drift. The core schema keeps `code` a plain string so that clients parse a newer server's
 * codes; this document describes what this server sends.
 */
const errorSchema = (() => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(ErrorBody, { target: 'openapi-3.0', io: 'output' }) as Json & { properties: Json };
  const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
  return { ...rest, properties: { ...rest.properties, code: { type: 'string', enum: codes } } };
})();

function errorResponse(...codes: ErrorCode[]): Json {
  // A detail that names the argument is a sentence per refusal: the code stands for it here.
  const details = [...new Set(codes.map((code): string => {
    const { detail } = ERROR_CATALOGUE[code];
    return typeof detail === 'string' ? `\`${detail}\`` : `${code} (the detail names the argument)`;
  }))];
  return { description: details.join(', '), ...errorSchema };
}

/** The refusals every route can answer, whatever it declares. */
const COMMON_ERRORS: Record<string, ErrorCode[]> = {
  '429': ['rate_limited'],
  '500': ['internal_error'],
  '502': ['upstream_unavailable'],
  '504': ['handler_timeout'],
};

/** What the signed-request check (docs/protocol.md) can refuse before a handler runs. */
const SIGNED_ERRORS: Record<string, ErrorCode[]> = {
  '401': ['missing_signature', 'invalid_signature', 'signature_stale', 'signature_replayed'],
  '403': ['no_validator_permit', 'validator_not_registered', 'validator_pending', 'validator_revoked', 'ip_not_allowlisted', 'metagraph_unavailable'],
  '413': ['body_too_large'],
  '415': ['unsupported_media_type'],
  '429': ['too_many_signature_failures', 'rate_limited'],
};

function errorResponsesOf(route: RouteOptions): Record<string, Json> {
  const byStatus: Record<string, ErrorCode[]> = {};
  const add = (table: Record<string, ErrorCode[]>) => {
    for (const [status, codes] of Object.entries(table)) byStatus[status] = [...(byStatus[status] ?? []), ...codes];
  };
  const schema = route.schema ?? {};
  const params = schema.params as z.ZodType | undefined;
  const notFound = params ? notFoundWhenInvalid.get(params)?.code : undefined;
  if (notFound) add({ '404': [notFound] });
  const refused = (part: unknown) => part !== undefined && !answeredByHandler.has(part as z.ZodType);
  if (schema.body !== undefined || refused(schema.querystring) || (refused(params) && notFound === undefined)) {
    add({ '422': ['validation_error'] });
  }
  if (route.config?.signedBy !== undefined) add(SIGNED_ERRORS);
  add(COMMON_ERRORS);
  return Object.fromEntries(Object.entries(byStatus).map(([status, codes]) => [status, errorResponse(...codes)]));
}

/**
 * Turns a route's zod schemas into OpenAPI (fastify-type-provider-zod's transform) and adds what the
 * route's config implies: the error responses it can give and, on signed routes, the three headers.
 * Nothing here is kept by hand per route: a route appears in /openapi.json as it is declared.
 */
export const openApiTransform: Transform = (document) => {
  const transformed = jsonSchemaTransform(document as Parameters<typeof jsonSchemaTransform>[0]);
  const schema = transformed.schema as Json & { response?: Json };
  if (schema.hide) return transformed;
  const { route } = document;
  schema.response = { ...errorResponsesOf(route), ...(schema.response ?? {}) };
  if (route.config?.signedBy !== undefined) {
    schema.security = [{ hotkey: [], timestamp: [], signature: [] }];
    schema.description = `Signed request (docs/protocol.md): ${route.config.signedBy}.`;
  }
  return transformed;
};

/** The security schemes signed routes name: three headers that together carry a signature. */
export const SIGNED_REQUEST_SECURITY_SCHEMES = {
  hotkey: { type: 'apiKey', in: 'header', name: HEADERS.signedHotkey, description: 'ss58 hotkey (prefix 42) of the signer' },
  timestamp: { type: 'apiKey', in: 'header', name: HEADERS.signedTimestamp, description: 'Unix seconds when the request was signed' },
  signature: {
    type: 'apiKey',
    in: 'header',
    name: HEADERS.signedSignature,
    description: 'ed25519 signature (128 lowercase hex) of the vigil-request-v2 message (docs/crypto.md)',
  },
} as const;
