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
export { materializeBundle } from './materialize-bundle.js';
export { referenceAgent, referenceAgentBundle, referenceBundlePath } from './reference-agent.js';
export type { ReferenceAgent } from './reference-agent.js';
export { analyzeSkill } from './reference/skills/analyze-skill.js';
export { analyzeMcpServer } from './reference/mcp-servers/analyze-mcp-server.js';
