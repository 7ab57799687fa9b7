// The agent bundle format on the server side (docs/protocol.md, "Agent bundle format"): the wire
// schema is core's AgentBundle; here it is normalized, hashed, stored and read back.
export { AgentBundleError } from './agent-bundle-error.js';
export { normalizeAgentBundle } from './normalize-agent-bundle.js';
export type { AgentFileMode, NormalizedAgentBundle } from './normalize-agent-bundle.js';
export { bundleBodyLimit } from './bundle-body-limit.js';
export { agentHashOf, storeAgentBundle } from './store-agent-bundle.js';
export { loadBundle } from './load-bundle.js';
export type { StoredAgentBundle } from './load-bundle.js';
