// @vigil/agents: everything another package may use is named here.
export { DEFAULT_AGENT_BUDGET, MIN_AGENT_BUDGET, resolveAgentBudget } from './budget.js';
export type { AgentBudget } from './budget.js';
export { runAgent } from './run-agent.js';
export type { AgentRunMetadata, AgentRunOutcome, EnforcedLayers, RunAgentOptions } from './run-agent.js';
export { detectSandboxLayers } from './sandbox-layers.js';
export type { SandboxLayers } from './sandbox-layers.js';
export { DEFAULT_UNPACK_LIMITS, UnpackError, unpackArchive } from './unpack-archive.js';
export type { UnpackErrorCode, UnpackLimits, UnpackResult } from './unpack-archive.js';
export { detectTrack } from './detect-track.js';
export { analyzeRepository, createRepositoryAnalyzer } from './reference/repositories/analyze-repository.js';
export type { RepositoryAnalyzerOptions } from './reference/repositories/analyze-repository.js';
export type { KnownPackageLookup, KnownPackageVerdict } from './reference/repositories/lockfile-findings.js';
export { KNOWN_COMPROMISED, knownCompromisedVersion } from './reference/known/known-compromised.js';
export type { KnownCompromisedPackage } from './reference/known/known-compromised.js';
