// Policies: CEL rules, their evaluation on worker threads, what rules read (advisories, package
// facts) and the policy routes (docs/policies.md, docs/advisories.md).
// The rest of the server imports this feature through this file only (docs/contributing.md).
export { runAdvisoriesCommand } from './advisories/advisories-command.js';
export { createPolicyInputSources } from './create-input-sources.js';
export { evaluatePackages, type PolicyPackage } from './evaluate-packages.js';
export { type PolicyInputSources } from './input-sources.js';
export { policyForEvaluation } from './stored-policies.js';
export { policiesCommands as commands } from './policies-commands.js';
export { policiesRouteEntries as routes } from './policies-route-entries.js';
