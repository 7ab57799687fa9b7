import { resolve } from 'node:path';
import type { AgentResult, Track } from '@vigil/core';
import type { TrackAnalyzer } from '../reference/common/analyzer.js';

/**
 * One analysis of each corpus sample per test process. The corpus tests of each track
 * (`*-corpus.test.ts`, `analyze-package-corpus.test.ts`) and `finding-categories.test.ts` assert
 * different things on the same samples; each analyzed every sample itself. With the files sharing
 * their worker's modules (vitest.config.ts, `isolate: false`), the second file to ask reads the
 * first one's result. Keyed by the analyzer function and the sample directory, so a test that
 * passes another analyzer gets its own. Each caller gets its own copy: no test can change what
 * another reads. The analyzers read only the sample's files (no clock, no environment), so a
 * second analysis would give the same result.
 */
const analyses = new WeakMap<TrackAnalyzer, Map<string, Promise<AgentResult>>>();

export async function analyzeCorpusSample(analyze: TrackAnalyzer, dir: string, track: Track): Promise<AgentResult> {
  let byDir = analyses.get(analyze);
  if (byDir === undefined) analyses.set(analyze, (byDir = new Map()));
  const key = `${track}\0${resolve(dir)}`;
  let result = byDir.get(key);
  if (result === undefined) {
    result = analyze({ dir, track, bundleHash: null });
    // A failed analysis is not kept: the next caller runs it again and sees the error itself.
    result.catch(() => byDir.delete(key));
    byDir.set(key, result);
  }
  return structuredClone(await result);
}
