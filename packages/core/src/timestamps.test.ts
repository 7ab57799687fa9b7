import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AnyTimestamp,
  DayString,
  NaiveTimestamp,
  OffsetTimestamp,
  TimestampError,
  formatDay,
  formatNaiveTimestamp,
  formatOffsetTimestamp,
  parseTimestamp,
} from './timestamps.js';

const dates = fc.date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });

describe('formatting round-trips through parseTimestamp', () => {
  it('naive: no zone suffix, matches NaiveTimestamp, parses back to the same instant', () => {
    fc.assert(
      fc.property(dates, (date) => {
        const text = formatNaiveTimestamp(date);
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
        expect(NaiveTimestamp.safeParse(text).success).toBe(true);
        expect(OffsetTimestamp.safeParse(text).success).toBe(false);
        expect(parseTimestamp(text).getTime()).toBe(date.getTime());
      }),
    );
  });

  it('offset: ends with +00:00, matches OffsetTimestamp, parses back to the same instant', () => {
    fc.assert(
      fc.property(dates, (date) => {
        const text = formatOffsetTimestamp(date);
        expect(text.endsWith('+00:00')).toBe(true);
        expect(text).toHaveLength(29);
        expect(OffsetTimestamp.safeParse(text).success).toBe(true);
        expect(NaiveTimestamp.safeParse(text).success).toBe(false);
        expect(parseTimestamp(text).getTime()).toBe(date.getTime());
      }),
    );
  });

  it('both families name the same instant for the same date, and accept epoch milliseconds', () => {
    fc.assert(
      fc.property(dates, (date) => {
        expect(formatOffsetTimestamp(date.getTime())).toBe(`${formatNaiveTimestamp(date)}+00:00`);
        expect(formatDay(date)).toBe(formatNaiveTimestamp(date).slice(0, 10));
        expect(DayString.safeParse(formatDay(date)).success).toBe(true);
      }),
    );
  });

  it('writes the examples the docs show', () => {
    const instant = Date.UTC(2026, 10, 21, 10, 0, 0, 0);
    expect(formatNaiveTimestamp(instant)).toBe('2026-11-21T10:00:00.000');
    expect(formatOffsetTimestamp(new Date(instant))).toBe('2026-11-21T10:00:00.000+00:00');
    expect(formatDay(instant)).toBe('2026-11-21');
  });

  it.each([
    ['an invalid Date', new Date(Number.NaN)],
    ['NaN milliseconds', Number.NaN],
    ['a year beyond 9999', Date.UTC(10000, 0, 1)],
    ['a negative year', Date.UTC(-1, 0, 1)],
  ])('refuses to format %s', (_name, value) => {
    expect(() => formatNaiveTimestamp(value)).toThrow(TimestampError);
    expect(() => formatOffsetTimestamp(value)).toThrow(/^value: /);
    expect(() => formatDay(value)).toThrow(TimestampError);
  });
});

describe('parseTimestamp', () => {
  const at = (iso: string) => new Date(iso).getTime();

  it.each([
    ['naive: assumed UTC', '2026-11-21T10:00:00', '2026-11-21T10:00:00.000Z'],
    ['naive with milliseconds', '2026-11-21T10:00:00.123', '2026-11-21T10:00:00.123Z'],
    ['naive with microseconds (truncated to ms)', '2026-11-21T10:00:00.123456', '2026-11-21T10:00:00.123Z'],
    ['naive with one fractional digit', '2026-11-21T10:00:00.5', '2026-11-21T10:00:00.500Z'],
    ['space separator', '2026-11-21 10:00:00', '2026-11-21T10:00:00.000Z'],
    ['Z', '2026-11-21T10:00:00Z', '2026-11-21T10:00:00.000Z'],
    ['lowercase z', '2026-11-21t10:00:00z', '2026-11-21T10:00:00.000Z'],
    ['+00:00', '2026-11-21T10:00:00.000+00:00', '2026-11-21T10:00:00.000Z'],
    ['+hh:mm', '2026-11-21T12:30:00+02:30', '2026-11-21T10:00:00.000Z'],
    ['-hh:mm', '2026-11-21T05:00:00-05:00', '2026-11-21T10:00:00.000Z'],
    ['+hhmm', '2026-11-21T11:00:00+0100', '2026-11-21T10:00:00.000Z'],
    ['-hhmm crossing midnight', '2026-11-20T23:00:00-1100', '2026-11-21T10:00:00.000Z'],
    ['a leap day', '2024-02-29T00:00:00', '2024-02-29T00:00:00.000Z'],
    ['surrounding whitespace', ' 2026-11-21T10:00:00Z\n', '2026-11-21T10:00:00.000Z'],
  ])('reads %s', (_name, text, iso) => {
    expect(parseTimestamp(text).getTime()).toBe(at(iso));
  });

  it('reads years 0000-0099 as themselves, not as 1900-1999', () => {
    expect(parseTimestamp('0050-06-01T00:00:00Z').getUTCFullYear()).toBe(50);
  });

  it.each([
    '',
    'garbage',
    '2026-11-21',
    '2026-11-21T10:00',
    '2026-11-21T10:00:00+01',
    '2026-11-21T10:00:00 UTC',
    '21/11/2026 10:00:00',
    '2026-11-21T10:00:00.',
    '2026-11-21T10:00:00.1234567890',
    '+02026-11-21T10:00:00Z',
    '1732183200',
  ])('rejects the malformed %j', (text) => {
    expect(() => parseTimestamp(text)).toThrow(TimestampError);
    expect(() => parseTimestamp(text)).toThrow(/^text: not an ISO 8601 datetime/);
  });

  it.each([
    '2026-02-30T00:00:00',
    '2025-02-29T00:00:00',
    '2026-13-01T00:00:00',
    '2026-00-10T00:00:00',
    '2026-11-31T00:00:00Z',
    '2026-11-21T24:00:00',
    '2026-11-21T23:60:00',
    '2026-11-21T23:59:60',
    '2026-11-21T10:00:00+24:00',
    '2026-11-21T10:00:00+01:60',
  ])('rejects the out-of-range %j', (text) => {
    expect(() => parseTimestamp(text)).toThrow(TimestampError);
    expect(() => parseTimestamp(text)).toThrow(/^text: .* out of range/);
  });

  it('rejects a non-string, naming the argument', () => {
    expect(() => parseTimestamp(1732183200 as unknown as string)).toThrow('text: expected a string');
  });

  it('agrees with Date.parse on every offset timestamp', () => {
    const offsets = fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }));
    fc.assert(
      fc.property(dates, offsets, (date, [sign, hh, mm]) => {
        const text = `${formatNaiveTimestamp(date)}${sign}${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}`;
        const expected = Date.parse(text);
        fc.pre(!Number.isNaN(expected));
        expect(parseTimestamp(text).getTime()).toBe(expected);
      }),
    );
  });
});

describe('timestamp schemas', () => {
  const schemas = { NaiveTimestamp, OffsetTimestamp, AnyTimestamp, DayString };
  it.each([
    ['NaiveTimestamp', '2026-11-21T10:00:00', true],
    ['NaiveTimestamp', '2026-11-21T10:00:00.000', true],
    ['NaiveTimestamp', '2026-11-21T10:00:00Z', false],
    ['NaiveTimestamp', '2026-11-21T10:00:00.000+00:00', false],
    ['NaiveTimestamp', '2026-02-30T10:00:00', false],
    ['NaiveTimestamp', '2026-11-21 10:00:00', false],
    ['OffsetTimestamp', '2026-11-21T10:00:00.000+00:00', true],
    ['OffsetTimestamp', '2026-11-21T10:00:00Z', true],
    ['OffsetTimestamp', '2026-11-21T10:00:00-03:00', false],
    ['OffsetTimestamp', '2026-11-21T10:00:00-00:00', true],
    ['OffsetTimestamp', '2026-11-21T10:00:00', false],
    ['OffsetTimestamp', '2026-11-21T10:00:00+0000', false],
    ['OffsetTimestamp', '2026-11-21T24:00:00+00:00', false],
    ['AnyTimestamp', '2026-11-21T10:00:00', true],
    ['AnyTimestamp', '2026-11-21T10:00:00+00:00', true],
    ['AnyTimestamp', 'soon', false],
    ['DayString', '2026-11-21', true],
    ['DayString', '2026-02-30', false],
    ['DayString', '2026-11-21T00:00:00', false],
  ] as const)('%s on %j: accepted=%s', (name, text, ok) => {
    expect(schemas[name].safeParse(text).success).toBe(ok);
  });
});
