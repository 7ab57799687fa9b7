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
export { analyzePackage } from './reference/packages/analyze-package.js';
export { analyzerForTrack } from './reference/analyzer-for-track.js';
export type { AnalyzeInput, TrackAnalyzer } from './reference/common/analyzer.js';
export { javascriptFacts } from './reference/code/javascript-facts.js';
export { pythonFacts } from './reference/code/python-facts.js';
export type { CallFact, CodeFacts, DataLabel } from './reference/code/code-facts.js';
