import type { NormalizedAgentBundle, Track } from '@vigil/core';

export declare const REFERENCE_TRACK_DIRS: Record<'packages' | 'skills' | 'mcp-servers' | 'repositories', Track>;
export declare const BUNDLE_ENTRYPOINT: 'agent.mjs';
export declare function bundleAgentEntry(entryFile: string, options?: { workingDir?: string }): Promise<NormalizedAgentBundle>;
export declare function buildReferenceBundles(options?: { packageDir?: string; outDir?: string }): Promise<Array<{ track: Track; file: string; agentHash: string; bytes: number }>>;
