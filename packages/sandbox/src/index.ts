// @vigil/sandbox: everything another package may use is named here. What a validator needs to run
// any miner's agent: the sandboxed runner, its budget, the platform layers, safe unpacking and
// track detection. The reference agents live in @vigil/reference-agents.
export { DEFAULT_AGENT_BUDGET, MIN_AGENT_BUDGET, resolveAgentBudget } from './budget.js';
export type { AgentBudget } from './budget.js';
export { FORBIDDEN_KINDS, runAgent } from './run-agent.js';
export { printableText } from './printable-text.js';
export { removeTree } from './remove-tree.js';
export type { AgentRunMetadata, AgentRunOutcome, EnforcedLayers, RunAgentOptions } from './run-agent.js';
export { detectSandboxLayers } from './sandbox-layers.js';
export type { SandboxLayers } from './sandbox-layers.js';
export { DEFAULT_UNPACK_LIMITS, UnpackError, unpackArchive } from './unpack-archive.js';
export type { UnpackErrorCode, UnpackLimits, UnpackResult } from './unpack-archive.js';
export { detectTrack } from './detect-track.js';
export { materializeBundle } from './materialize-bundle.js';
export { ArchiveStreamLimitError, readArchiveEntries } from './archive-entries.js';
export type { ArchiveEntry, ArchiveEntryKind, ReadArchiveEntriesOptions, ReadArchiveEntriesResult } from './archive-entries.js';
