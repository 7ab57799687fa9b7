import { parseTimestamp } from '@vigil/core';

// One formatter per kind, created once: Intl constructors are costly and the pages re-render often.
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** A count in the reader's locale (`12,345` / `12.345` / `12 345`). */
export function formatCount(value: number): string {
  return integer.format(value);
}

/** A score: scores are fractions, shown with two to four decimals. */
export function formatScore(value: number): string {
  return decimal.format(value);
}

/** `part` of `whole` as a percentage; 0 of 0 is 0 %. */
export function formatShare(part: number, whole: number): string {
  return percent.format(whole === 0 ? 0 : part / whole);
}

export interface DisplayedTime {
  /** The instant in the reader's time zone. */
  local: string;
  /** The same instant in UTC, for the hover text. */
  utc: string;
  /** ISO 8601 with `Z`, for `<time datetime>`. */
  iso: string;
}

/**
 * Both timestamp families (with offset, and naive = UTC) through core's parser, which reads a
 * missing zone as UTC: a browser's `new Date('2026-11-21T10:00:00')` would read it as local time.
 */
export function displayTime(value: string | Date): DisplayedTime {
  // The SDK hands back Dates; a string is a timestamp read from elsewhere (a URL, a test fixture).
  const date = typeof value === 'string' ? parseTimestamp(value) : value;
  const iso = date.toISOString();
  return { local: dateTime.format(date), utc: `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`, iso };
}

/** A calendar day (`2026-11-21`, a UTC day) in the reader's locale. */
export function displayDay(text: string): string {
  return day.format(new Date(`${text}T00:00:00Z`));
}

/** A countdown: `2 d 03:04:05`, `03:04:05`, `04:05`. Negative values show as zero. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  const clock = hours > 0 || days > 0 ? `${two(hours)}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
  return days > 0 ? `${days} d ${clock}` : clock;
}

/** ISO 8601 duration for `<time datetime>` (`PT3725S`). */
export function isoDuration(totalSeconds: number): string {
  return `PT${Math.max(0, Math.floor(totalSeconds))}S`;
}

/** `5GrwvaEF…GKutQY`: enough of a hotkey to tell it apart; the full one is in the title. */
export function shortKey(key: string): string {
  return key.length <= 16 ? key : `${key.slice(0, 8)}…${key.slice(-6)}`;
}

export const TRACK_LABELS: Record<string, string> = {
  skills: 'Skills',
  mcp_servers: 'MCP servers',
  packages: 'Packages',
  repositories: 'Repositories',
};

export function trackLabel(track: string): string {
  return TRACK_LABELS[track] ?? track;
}
