import { TRACKS, type Track } from '@vigil/core';
import { formatCount, trackLabel } from '../lib/format.js';

/** Links (not buttons): each track has its own address, so it can be bookmarked and shared. */
export function TrackTabs({
  base,
  current,
  includeAll,
  counts,
}: {
  base: string;
  current: Track | undefined;
  includeAll: boolean;
  counts?: Partial<Record<Track, number>>;
}) {
  return (
    <nav aria-label="Tracks">
      <ul class="segmented">
        {includeAll ? (
          <li>
            <a href={base} aria-current={current === undefined ? 'page' : undefined}>
              All tracks
            </a>
          </li>
        ) : null}
        {TRACKS.map((track) => (
          <li key={track}>
            <a href={`${base}?track=${track}`} aria-current={current === track ? 'page' : undefined}>
              {trackLabel(track)}
              {counts ? <span class="count"> ({formatCount(counts[track] ?? 0)})</span> : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
