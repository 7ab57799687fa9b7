import { expect } from 'vitest';
import type { z } from 'zod';

export type Path = readonly (string | number)[];
/** Marks a field to delete in `withChange`. */
export const REMOVE = Symbol('remove');

/** A deep copy of `value` with the field at `path` replaced (or removed with REMOVE). */
export function withChange<T>(value: T, path: Path, next: unknown): T {
  const copy = structuredClone(value);
  let cursor = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (next === REMOVE) delete cursor[last];
  else cursor[last] = next;
  return copy;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

/** Asserts the schema accepts `value` and returns the parsed output. */
export function expectAccepted<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) expect.fail(`expected acceptance, got: ${describeIssues(result.error)}`);
  return result.data;
}

/** Asserts the schema rejects `value` and that an issue points at `path` (so the rejection has the intended cause). */
export function expectRejectedAt(schema: z.ZodType, value: unknown, path: Path): void {
  const result = schema.safeParse(value);
  expect(result.success, `expected rejection at ${path.join('.')}`).toBe(false);
  const paths = result.error!.issues.map((i) => i.path.map(String).join('.'));
  expect(paths).toContain(path.map(String).join('.'));
}

export interface RejectCase {
  name: string;
  path: Path;
  value: unknown;
  /** Where the issue is reported when it differs from `path` (array length checks report on the array). */
  at?: Path;
}

export function rejectCase(name: string, path: Path, value: unknown, at?: Path): RejectCase {
  return at ? { name, path, value, at } : { name, path, value };
}
