// The subnet: the signed miner and validator API, the metagraph, tasks, attestations, rounds and
// their scheduler, and the public /v1 reads of it all (docs/protocol.md, docs/rounds.md, docs/api.md).
// The rest of the server imports this feature through this file only (docs/contributing.md).
export { type AttestationBatchResult, MAX_ATTESTATION_BATCH, recordAttestations } from './attestations/attestations-batch.js';
export { recordAttestation } from './attestations/attestations.js';
export { getAttestation, listAttestations } from './attestations/attestations-read.js';
export { SIGNED_AUTH_VARIABLES, type SignedAuthSettings, signedAuthSettingsFromEnv } from './auth/signed-auth-settings.js';
export { type CachedMetagraph } from './metagraph/cached-metagraph.js';
export { METAGRAPH_VARIABLES, type MetagraphSettings, metagraphSettingsFromEnv } from './metagraph/create-metagraph.js';
export { createMetagraph, writeSnapshotFile } from './metagraph/index.js';
export { deleteAgent, submitAgent } from './miners/agents.js';
export { type NormalizedAgentBundle } from './miners/bundles/normalize-agent-bundle.js';
export { storeAgentBundle } from './miners/bundles/store-agent-bundle.js';
export { deregisterMiner, registerMiner } from './miners/miners.js';
export { createPublicReadService } from './public-reads/public-read-service.js';
export { type PublicReadService } from './public-reads/public-read.js';
export { closeRound, openRound, shortenSchedule, startEvaluation } from './rounds/rounds.js';
export { SCHEDULER_VARIABLES, type SchedulerSettings, schedulerSettingsFromEnv } from './rounds/scheduler/settings.js';
export { type CreatedTask, createTasks } from './tasks/tasks.js';
export { artifactStored, type FastTasksResult } from './tasks/fast-tasks.js';
export { runValidatorsCommand } from './validators/validators-command.js';
export { registerValidator, setValidatorStatus } from './validators/validators.js';
export { networkCommands as commands } from './network-commands.js';
export { networkWorkers as workers } from './network-workers.js';
export { networkRouteEntries as routes } from './network-route-entries.js';
