import type { Track } from '@vigil/core';
import type { TrackAnalyzer } from './common/analyzer.js';
import { analyzeMcpServer } from './mcp-servers/analyze-mcp-server.js';
import { analyzePackage } from './packages/analyze-package.js';
import { analyzeRepository } from './repositories/analyze-repository.js';
import { analyzeSkill } from './skills/analyze-skill.js';

/** Each track's reference analysis. */
const ANALYZERS: Readonly<Record<Track, TrackAnalyzer>> = {
  packages: analyzePackage,
  skills: analyzeSkill,
  mcp_servers: analyzeMcpServer,
  repositories: analyzeRepository,
};

/** The reference analyzer of a track (null is kept in the signature for a track added to the API before its agent). */
export function analyzerForTrack(track: Track): TrackAnalyzer | null {
  return ANALYZERS[track] ?? null;
}
