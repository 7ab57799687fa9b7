import { displayDay, displayTime, formatDuration, isoDuration } from '../lib/format.js';

/** An instant in the reader's local time; hovering (or focusing) shows it in UTC. */
export function Time({ value }: { value: string | Date }) {
  const t = displayTime(value);
  return (
    <time dateTime={t.iso} title={t.utc}>
      {t.local}
    </time>
  );
}

/** A UTC calendar day (`series[].day`). */
export function Day({ value }: { value: string }) {
  return (
    <time dateTime={value} title={`${value} (UTC day)`}>
      {displayDay(value)}
    </time>
  );
}

/** Seconds left until `deadline` (epoch ms), ticking with the `now` the caller passes. */
export function Countdown({ deadline, now }: { deadline: number; now: number }) {
  const left = Math.max(0, Math.round((deadline - now) / 1000));
  return (
    <time dateTime={isoDuration(left)} class="countdown">
      {formatDuration(left)}
    </time>
  );
}
