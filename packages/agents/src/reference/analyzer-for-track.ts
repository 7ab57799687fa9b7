import type { Track } from '@vigil/core';
import type { TrackAnalyzer } from './common/analyzer.js';
import { analyzePackage } from './packages/analyze-package.js';

/** Each track's reference analysis; a track without one is absent (one line per track). */
const ANALYZERS: Partial<Record<Track, TrackAnalyzer>> = {
  packages: analyzePackage,
};

/** The reference analyzer of a track, or null when the track has none yet. */
export function analyzerForTrack(track: Track): TrackAnalyzer | null {
  return ANALYZERS[track] ?? null;
}
