const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 86_400_000;

/** UTC epoch day (days since 1970-01-01) of an epoch-millisecond instant. */
export function epochDay(ms: number): number {
  return Math.floor(ms / MS_PER_DAY);
}

/** UTC epoch hour of an epoch-millisecond instant. */
export function epochHour(ms: number): number {
  return Math.floor(ms / MS_PER_HOUR);
}

/** First millisecond of an epoch day. */
export function dayStartMs(day: number): number {
  return day * MS_PER_DAY;
}
