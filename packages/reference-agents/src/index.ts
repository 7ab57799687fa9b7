// @vigil/reference-agents: everything another package may use is named here. Vigil's four
// reference agents (one per track), their bundles and the per-file analyses they are built on; the
// sandbox that runs them is @vigil/sandbox.
export { referenceAgent, referenceAgentBundle, referenceBundlePath } from './reference-agent.js';
export type { ReferenceAgent } from './reference-agent.js';
export { analyzeSkill } from './reference/skills/analyze-skill.js';
export { analyzeMcpServer } from './reference/mcp-servers/analyze-mcp-server.js';
export { analyzeRepository, createRepositoryAnalyzer } from './reference/repositories/analyze-repository.js';
export type { RepositoryAnalyzerOptions } from './reference/repositories/analyze-repository.js';
export type { KnownPackageLookup, KnownPackageVerdict } from './reference/repositories/lockfile-findings.js';
export { KNOWN_COMPROMISED, knownCompromisedVersion } from './reference/known/known-compromised.js';
export type { KnownCompromisedPackage } from './reference/known/known-compromised.js';
export { analyzePackage } from './reference/packages/analyze-package.js';
export { analyzerForTrack } from './reference/analyzer-for-track.js';
export type { AnalyzeInput, TrackAnalyzer } from './reference/common/analyzer.js';
export { javascriptFacts } from './reference/code/javascript/index.js';
export { pythonFacts } from './reference/code/python-facts.js';
export type { CallFact, CodeFacts, DataLabel } from './reference/code/code-facts.js';
