// The transparency log of every accepted attestation and published verdict (docs/log.md).
export { appendLogEntries, logSize } from './append-log-entries.js';
export { attestationLogEntry, verdictLogEntry, ATTESTATION_ENTRY_TYPE, VERDICT_ENTRY_TYPE } from './log-entry.js';
export type { LogEntryInput, LoggedAttestation, LoggedVerdict } from './log-entry.js';
export { createTransparencyLog, defaultLogOrigin } from './transparency-log.js';
export type { TransparencyLog, SignedCheckpoint } from './transparency-log.js';
export { checkTransparencyLog } from './check-log.js';
export type { LogCheck } from './check-log.js';
export { logWorkers as workers } from './log-workers.js';
export { logRouteEntries as routes } from './log-route-entries.js';
