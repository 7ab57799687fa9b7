import * as z from 'zod';

/**
 * Two timestamp families share the wire (spec part 2): dashboard and trends write
 * timezone-aware UTC with an offset, rounds/leaderboard/agents write naive datetimes.
 * Both writers use millisecond precision so every value of a family has one shape.
 */

const NAIVE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?$/;
// The spec's offset family is UTC with an explicit offset: `+00:00` (or `Z`), never local time.
const OFFSET_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]00:00)$/;
const ANY_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/i;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export class TimestampError extends Error {
  override name = 'TimestampError';
}

function toDate(value: Date | number, argument: string): Date {
  const date = typeof value === 'number' ? new Date(value) : value;
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new TimestampError(`${argument}: not a valid date`);
  }
  // Beyond these years toISOString writes a signed six-digit year, which neither family's shape allows.
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) throw new TimestampError(`${argument}: year ${year} is outside 0000-9999`);
  return date;
}

/** `2026-11-21T10:00:00.000+00:00`: timezone-aware UTC with an explicit offset. */
export function formatOffsetTimestamp(value: Date | number): string {
  return toDate(value, 'value').toISOString().replace('Z', '+00:00');
}

/** `2026-11-21T10:00:00.000`: a naive UTC datetime with no zone suffix. */
export function formatNaiveTimestamp(value: Date | number): string {
  return toDate(value, 'value').toISOString().slice(0, -1);
}

/** `2026-11-21`: a UTC calendar day. */
export function formatDay(value: Date | number): string {
  return toDate(value, 'value').toISOString().slice(0, 10);
}

/**
 * Reads either family (and `Z`, `+hh:mm`, `+hhmm`, space separator, up to nanosecond fractions)
 * and assumes UTC when no zone is present.
 */
export function parseTimestamp(text: string): Date {
  if (typeof text !== 'string') throw new TimestampError('text: expected a string');
  const m = ANY_RE.exec(text.trim());
  if (!m) throw new TimestampError(`text: not an ISO 8601 datetime: ${JSON.stringify(text)}`);
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = frac ? Number((frac + '00').slice(0, 3)) : 0;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number, number, number, number, number, number,
  ];
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 onto 1900-1999.
  const check = new Date(0);
  check.setUTCFullYear(year, month - 1, day);
  check.setUTCHours(hour, minute, second, ms);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw new TimestampError(`text: date or time out of range: ${JSON.stringify(text)}`);
  }
  let epoch = check.getTime();
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMinutes = Number(digits.slice(2, 4));
    if (offsetHours > 23 || offsetMinutes > 59) {
      throw new TimestampError(`text: zone offset out of range: ${JSON.stringify(text)}`);
    }
    epoch -= sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  return new Date(epoch);
}

function parses(text: string): boolean {
  try {
    parseTimestamp(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A type-level mark on the three timestamp schemas below, never present at run time: it lets a
 * client compute, from a response schema's type alone, which fields are timestamps (so
 * `@vigil/client` can type them as `Date`). The schemas still parse and output strings.
 */
export interface TimestampSchemaMark {
  readonly '~vigilTimestamp'?: 'naive' | 'offset' | 'any';
}

export const NaiveTimestamp: z.ZodString & TimestampSchemaMark = z
  .string()
  .regex(NAIVE_RE, 'expected a naive datetime without zone suffix')
  .refine(parses, 'invalid datetime');
export const OffsetTimestamp: z.ZodString & TimestampSchemaMark = z
  .string()
  .regex(OFFSET_RE, 'expected a UTC datetime with an offset (+00:00 or Z)')
  .refine(parses, 'invalid datetime');
/** Either family; what clients accept. */
export const AnyTimestamp: z.ZodString & TimestampSchemaMark = z.string().refine(parses, 'invalid datetime');
export const DayString = z
  .string()
  .regex(DATE_RE, 'expected YYYY-MM-DD')
  .refine((s) => parses(`${s}T00:00:00`), 'invalid date');
