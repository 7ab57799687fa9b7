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

/**
 * Request parts whose handler answers every value itself, a NUL character included: spec part 4
 * rule 3 answers a round id or miner that fails its format check with the empty shell (200), never
 * an error, and a NUL is one more way to fail it. The NUL refusal below is skipped for these parts,
 * so their handler must check a value's form before storing or querying it (PostgreSQL cannot hold
 * a NUL). Every other path parameter holding a NUL is malformed like any bad value of it: the
 * registered 404 above, else 422 (docs/errors.md, "Path parameters").
 */
export const answeredByHandler = z.registry<{ reason: string }>();

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

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
/** Enough to show a client where its NUL characters are; a body full of them is not listed whole. */
const MAX_NUL_ISSUES = 10;

/** A place in a request part: its key and the place holding it (built as the walk goes, read only for a find). */
interface Place {
  key: string;
  parent: Place | null;
}

function pathOf(place: Place | null): string[] {
  const path: string[] = [];
  for (let at = place; at !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The paths (below the request part) of every string, and every object key, holding U+0000.
 * PostgreSQL cannot store that character in text (SQLite can), so no text Vigil takes may hold it,
 * on either database. One pass with a stack of linked places: a parsed body may nest deeply, and
 * neither the call stack nor copying paths may grow with its depth.
 */
export function nulPaths(value: unknown): string[][] {
  const found: string[][] = [];
  const stack: [unknown, Place | null][] = [[value, null]];
  while (stack.length > 0 && found.length < MAX_NUL_ISSUES) {
    const [item, place] = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) found.push(pathOf(place));
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i -= 1) stack.push([item[i], { key: String(i), parent: place }]);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, inner] of Object.entries(item).reverse()) {
        if (key.includes('\u0000')) found.push(pathOf({ key, parent: place }));
        else stack.push([inner, { key, parent: place }]);
      }
    }
  }
  return found;
}

/**
 * Validates a request part with the route's core schema and hands the handler the parsed value
 * (coerced query integers, defaults). A NUL character anywhere in the part is refused here, for
 * every route at once (see nulPaths), except in the parts registered in answeredByHandler. A failure is returned as a VigilError, which fastify passes
 * through unchanged to the one error handler.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const where = PART_NAMES[httpPart ?? 'body'] ?? 'body';
  const notFound = notFoundWhenInvalid.get(schema)?.code;
  const lenient = answeredByHandler.has(schema);
  return (data: unknown) => {
    // fastify hands an absent body (or query) over as null; a schema sees it as absent.
    const result = schema.safeParse(data === null ? undefined : data);
    const nul = lenient ? [] : nulPaths(data);
    if (result.success && nul.length === 0) return { value: result.data };
    if (notFound) return { error: new VigilError(notFound) };
    const issues: ValidationIssue[] = nul.map((path) => ({ path: [where, ...path].join('.'), message: NUL_MESSAGE }));
    if (!result.success) issues.push(...validationError(where, result.error).issues!.filter((issue) => !issues.some((n) => n.path === issue.path)));
    return { error: new VigilError('validation_error', { issues }) };
  };
};

/**
 * Serializes a response through its core schema: fields the contract does not name never leave
 * the server, and a body that breaks the contract is a 500 here rather than a client's surprise.
 */
export const zodSerializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  return (data: unknown) => JSON.stringify(schema.parse(data));
};
