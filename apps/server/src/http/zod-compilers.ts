import type { ErrorCode, ValidationIssue } from '@vigil/core';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';
import { VigilError } from '../errors.js';

/**
 * Path parameters that, when malformed, name nothing rather than asking a wrong question: a route
 * whose params schema is registered here answers its catalogue code (a 404) instead of 422, before
 * its query or body are looked at (spec part 4 rule 2: an unknown hotkey is 404 whatever the query).
 */
export const notFoundWhenInvalid = z.registry<{ code: ErrorCode }>();

/** fastify's name of the request part, as a client reads it in `errors[].path`. */
const PART_NAMES: Record<string, 'params' | 'query' | 'body' | 'headers'> = {
  params: 'params',
  querystring: 'query',
  body: 'body',
  headers: 'headers',
};

/** 422 `Validation error` naming each failing field as `<part>.<field>`. */
export function validationError(where: string, error: z.ZodError): VigilError {
  const issues: ValidationIssue[] = error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  return new VigilError('validation_error', { issues });
}

/**
 * Validates a request part with the route's core schema and hands the handler the parsed value
 * (coerced query integers, defaults). A failure is returned as a VigilError, which fastify passes
 * through unchanged to the one error handler.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const where = PART_NAMES[httpPart ?? 'body'] ?? 'body';
  const notFound = notFoundWhenInvalid.get(schema)?.code;
  return (data: unknown) => {
    // fastify hands an absent body (or query) over as null; a schema sees it as absent.
    const result = schema.safeParse(data === null ? undefined : data);
    if (result.success) return { value: result.data };
    return { error: notFound ? new VigilError(notFound) : validationError(where, result.error) };
  };
};

/**
 * Serializes a response through its core schema: fields the contract does not name never leave
 * the server, and a body that breaks the contract is a 500 here rather than a client's surprise.
 */
export const zodSerializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  return (data: unknown) => JSON.stringify(schema.parse(data));
};
