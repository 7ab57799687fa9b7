// @vigil/server: the API server. The `vigil-server` command (bin.ts) is built from these.
export { buildApp } from './http/app.js';
export { connectRedis } from './http/connect-redis.js';
export type { BuildAppOptions } from './http/app.js';
export { installGracefulShutdown } from './http/shutdown.js';
export type { GracefulShutdownOptions } from './http/shutdown.js';
export { CONFIG_VARIABLES, ConfigError, LOG_LEVELS, loadConfig } from './config.js';
export type { Config, LogLevel, TrustProxy } from './config.js';
export { loadServerIdentity, SERVER_KEY_FILE, ServerIdentityError } from './server-identity.js';
export type { ServerIdentity } from './server-identity.js';
export { VigilError } from './errors.js';
export { openDatabase } from './db/database.js';
export type { OpenDatabaseOptions, VigilDatabase } from './db/database.js';
export { migrateToLatest } from './db/migrate.js';
export { createPublicReadService } from './services/public-read-service.js';
export type { PublicReadService } from './services/public-read.js';
export { seedDemo, DemoSeedError } from './seed/demo.js';
export type { SeedDemoOptions, SeedDemoResult } from './seed/demo.js';
// Write-side services, for tools that build networks (the demo seed, benchmarks) through the same
// invariants as the API.
export { registerMiner, deregisterMiner } from './services/miners.js';
export { submitAgent, deleteAgent } from './services/agents.js';
export { registerValidator, setValidatorStatus } from './services/validators.js';
export { registerArtifact } from './services/artifacts.js';
export { storeArtifact } from './services/store-artifact.js';
export { createFileBlobStore } from './blobs/index.js';
export { createPolicyInputSources } from './policies/sources.js';
export { runKeysCommand } from './commands/keys-command.js';
export type { BlobStore } from './blobs/index.js';
export { openRound, startEvaluation, closeRound } from './services/rounds.js';
export { createTasks } from './services/tasks.js';
export { recordAttestation } from './services/attestations.js';
export { recordAttestations, MAX_ATTESTATION_BATCH } from './services/attestations-batch.js';
export type { AttestationBatchResult } from './services/attestations-batch.js';
// Webhooks, for the delivery benchmark: endpoints, the worker, and the outbox a committing service writes.
export { createWebhook } from './services/webhooks.js';
export { createWebhookWorker } from './webhooks/create-webhook-worker.js';
export type { WebhookWorker, CreateWebhookWorkerOptions } from './webhooks/create-webhook-worker.js';
export { createSecretBox } from './secrets/secret-box.js';
export { enqueueOutboxEvent } from './repositories/outbox.js';
export { OPERATOR } from './repositories/audit-log.js';
