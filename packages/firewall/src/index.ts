// @vigil/firewall: the npm registry firewall (docs/firewall.md).
export { startFirewall } from './firewall-server.js';
export type { Firewall } from './firewall-server.js';
export { FIREWALL_MODES, WARN_ACTIONS, resolveOptions } from './firewall-options.js';
export type { DecisionLogEntry, FirewallMode, FirewallOptions, WarnAction } from './firewall-options.js';
export { filterPackument } from './packument-filter.js';
export type { Hidden, VersionJudgement } from './packument-filter.js';
export { readNpmPath, npmReference } from './npm-paths.js';
export { normalizePypiName, pypiFileVersion, pypiReference } from './pypi-simple.js';
export type { NpmRequest } from './npm-paths.js';
export type { BlockBody } from './block-body.js';
