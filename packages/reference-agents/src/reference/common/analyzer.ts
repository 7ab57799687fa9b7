import type { AgentResult, Track } from '@vigil/core';

/** What a reference agent's analysis is given: the unpacked artifact and what the task says of it. */
export interface AnalyzeInput {
  /** Absolute path of the unpacked artifact directory (read-only). */
  dir: string;
  track: Track;
  /** The task's bundle hash (`packages/left-pad-1.3.0/npm/left-pad`), or null for a local scan. */
  bundleHash: string | null;
}

/**
 * One track's static analysis. It reads files under `input.dir` and nothing else: it never runs,
 * imports or requires the artifact's code, and never reaches the network.
 */
export type TrackAnalyzer = (input: AnalyzeInput) => Promise<AgentResult>;
