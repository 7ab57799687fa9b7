import { AnyTimestamp, NaiveTimestamp, OffsetTimestamp, parseTimestamp } from '@vigil/core';
import type { TimestampSchemaMark } from '@vigil/core';
import type * as z from 'zod';

/**
 * The SDK answers timestamps as `Date` (docs/client.md, "Timestamps"). Core's schemas parse and
 * output strings, because the server writes strings; which fields are timestamps is read from the
 * schema itself, at the type level through core's `TimestampSchemaMark`, at run time by identity
 * with core's three timestamp schemas. No list of field names is kept by hand.
 */

type AnySchema = z.core.SomeType;

/** The schema type with every timestamp schema replaced by a Date schema. */
export type Redate<S> = S extends z.ZodString
  ? keyof TimestampSchemaMark extends keyof S
    ? z.ZodDate
    : S
  : S extends z.ZodObject<infer Shape, infer Config>
    ? z.ZodObject<{ -readonly [K in keyof Shape]: Extract<Redate<Shape[K]>, AnySchema> }, Config>
    : S extends z.ZodArray<infer E>
      ? z.ZodArray<Extract<Redate<E>, AnySchema>>
      : S extends z.ZodNullable<infer I>
        ? z.ZodNullable<Extract<Redate<I>, AnySchema>>
        : S extends z.ZodOptional<infer I>
          ? z.ZodOptional<Extract<Redate<I>, AnySchema>>
          : S extends z.ZodDefault<infer I>
            ? z.ZodDefault<Extract<Redate<I>, AnySchema>>
            : S extends z.ZodDiscriminatedUnion<infer O>
              ? z.ZodUnion<{ [K in keyof O]: Extract<Redate<O[K]>, AnySchema> }>
              : S extends z.ZodUnion<infer O>
                ? z.ZodUnion<{ [K in keyof O]: Extract<Redate<O[K]>, AnySchema> }>
                : S extends z.ZodRecord<infer K, infer V>
                  ? z.ZodRecord<K, Extract<Redate<V>, AnySchema>>
                  : S;

/** What the SDK answers for a response schema: its output, with each timestamp a `Date`. */
export type Dated<S> = z.output<Extract<Redate<S>, AnySchema>>;

const TIMESTAMP_SCHEMAS: ReadonlySet<unknown> = new Set([NaiveTimestamp, OffsetTimestamp, AnyTimestamp]);

type Convert = (value: unknown) => unknown;
const IDENTITY: Convert = (value) => value;
const converters = new WeakMap<object, Convert>();

interface Def {
  type: string;
  shape?: Record<string, AnySchema>;
  element?: AnySchema;
  innerType?: AnySchema;
  options?: AnySchema[];
  valueType?: AnySchema;
  left?: AnySchema;
  right?: AnySchema;
  in?: AnySchema;
  out?: AnySchema;
  getter?: () => AnySchema;
}

function defOf(schema: AnySchema): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The conversion a schema's parsed output needs; IDENTITY when it holds no timestamp. */
function converterFor(schema: AnySchema, seen: Set<AnySchema> = new Set()): Convert {
  const cached = converters.get(schema);
  if (cached) return cached;
  if (TIMESTAMP_SCHEMAS.has(schema)) return (value) => (typeof value === 'string' ? parseTimestamp(value) : value);
  if (seen.has(schema)) return IDENTITY;
  seen.add(schema);
  const def = defOf(schema);
  let convert: Convert = IDENTITY;
  switch (def.type) {
    case 'object': {
      const fields = Object.entries(def.shape ?? {})
        .map(([key, field]) => [key, converterFor(field, seen)] as const)
        .filter(([, c]) => c !== IDENTITY);
      if (fields.length > 0) {
        convert = (value) => {
          if (typeof value !== 'object' || value === null) return value;
          const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
          for (const [key, c] of fields) if (key in copy) copy[key] = c(copy[key]);
          return copy;
        };
      }
      break;
    }
    case 'array': {
      const inner = converterFor(def.element!, seen);
      if (inner !== IDENTITY) convert = (value) => (Array.isArray(value) ? value.map(inner) : value);
      break;
    }
    case 'nullable':
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch': {
      const inner = converterFor(def.innerType!, seen);
      if (inner !== IDENTITY) convert = (value) => (value === null || value === undefined ? value : inner(value));
      break;
    }
    case 'union': {
      // zod answers with the first option that parses; for the output-preserving schemas of
      // core, the first option that parses the output is that same option.
      const options = (def.options ?? []).map((option) => [option, converterFor(option, seen)] as const);
      if (options.some(([, c]) => c !== IDENTITY)) {
        convert = (value) => {
          for (const [option, c] of options) {
            if ((option as unknown as z.ZodType).safeParse(value).success) return c(value);
          }
          return value;
        };
      }
      break;
    }
    case 'record': {
      const inner = converterFor(def.valueType!, seen);
      if (inner !== IDENTITY) {
        convert = (value) =>
          typeof value === 'object' && value !== null
            ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, inner(v)]))
            : value;
      }
      break;
    }
    case 'intersection': {
      const left = converterFor(def.left!, seen);
      const right = converterFor(def.right!, seen);
      if (left !== IDENTITY || right !== IDENTITY) convert = (value) => right(left(value));
      break;
    }
    case 'pipe': {
      // A transform's output is whatever the transform made; a pipe into another schema outputs that schema's.
      if (def.out && defOf(def.out).type !== 'transform') convert = converterFor(def.out, seen);
      break;
    }
    case 'lazy': {
      const inner = def.getter ? converterFor(def.getter(), seen) : IDENTITY;
      convert = inner;
      break;
    }
    default:
      break;
  }
  seen.delete(schema);
  converters.set(schema, convert);
  return convert;
}

/** `value` (already parsed by `schema`) with every timestamp field as a `Date` in UTC. */
export function withDates<S extends AnySchema>(schema: S, value: z.output<S>): Dated<S> {
  return converterFor(schema)(value) as Dated<S>;
}
