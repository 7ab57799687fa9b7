import type { ValidationIssue } from '@vigil/core';
import type { z } from 'zod';
import { VigilError } from '../errors.js';

/** Parses request input with a core schema; failures are 422 `Validation error` naming each field as `<where>.<field>`. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'query' | 'params' | 'body'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw new VigilError('validation_error', { issues });
}
