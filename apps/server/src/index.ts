// @vigil/server: the API server. The `vigil-server` command (bin.ts) is built from these.
export { buildApp } from './app.js';
export { connectRedis } from './platform/http/connect-redis.js';
export { createRuntime } from './runtime.js';
export type { Runtime, RuntimeOverrides } from './runtime.js';
export { installGracefulShutdown } from './platform/http/shutdown.js';
export type { GracefulShutdownOptions } from './platform/http/shutdown.js';
export { CONFIG_VARIABLES, ConfigError, LOG_LEVELS, loadConfig } from './config.js';
export type { Config, LogLevel, TrustProxy } from './config.js';
export { loadServerIdentity, SERVER_KEY_FILE, ServerIdentityError } from './platform/secrets/server-identity.js';
export type { ServerIdentity } from './platform/secrets/server-identity.js';
export { VigilError } from './platform/errors.js';
export { openDatabase } from './platform/db/database.js';
export type { OpenDatabaseOptions, VigilDatabase } from './platform/db/database.js';
export { migrateToLatest } from './platform/db/migrate.js';
export { createPublicReadService } from './features/network/index.js';
export type { PublicReadService } from './features/network/index.js';
export { seedDemo, DemoSeedError } from './seed/demo.js';
export type { SeedDemoOptions, SeedDemoResult } from './seed/demo.js';
// Write-side services, for tools that build networks (the demo seed, benchmarks) through the same
// invariants as the API.
export { registerMiner, deregisterMiner } from './features/network/index.js';
export { submitAgent, deleteAgent } from './features/network/index.js';
export { registerValidator, setValidatorStatus } from './features/network/index.js';
export { registerArtifact } from './features/artifacts/index.js';
export { storeArtifact } from './features/artifacts/index.js';
export { createBlobStore, createFileBlobStore } from './platform/blobs/index.js';
export { createPolicyInputSources } from './features/policies/index.js';
export { runKeysCommand } from './features/accounts/index.js';
export type { BlobStore, BlobStoreSettings } from './platform/blobs/index.js';
export { openRound, startEvaluation, closeRound } from './features/network/index.js';
export { createTasks } from './features/network/index.js';
export { recordAttestation } from './features/network/index.js';
export { recordAttestations, MAX_ATTESTATION_BATCH } from './features/network/index.js';
export type { AttestationBatchResult } from './features/network/index.js';
// The transparency log's append on its own, for the ingest benchmark's share of the log (bench/ingest.mjs).
export { appendLogEntries, attestationLogEntry } from './features/log/index.js';
export { inTransaction } from './platform/db/transaction.js';
// Webhooks, for the delivery benchmark: endpoints, the worker, and the outbox a committing service writes.
export { createWebhook } from './features/webhooks/index.js';
export { createWebhookWorker } from './features/webhooks/index.js';
export type { WebhookWorker, CreateWebhookWorkerOptions } from './features/webhooks/index.js';
export { createSecretBox } from './platform/secrets/secret-box.js';
export { enqueueOutboxEvent } from './platform/outbox.js';
export { OPERATOR } from './platform/audit-log.js';
// Metrics (docs/operations.md), for the overhead benchmark: the statement timing openDatabase takes, the registry a scrape reads.
export { databaseInstrumentation, metricsRegistry } from './platform/metrics/index.js';
// The release watcher, for its benchmark (bench/watch-poll.mjs): watches, connectors and the watcher itself.
export { addWatches, createRegistryConnectors, createWatcher, OPERATOR_OWNER, registryFetchSettingsFromEnv } from './features/registries/index.js';
export type { Watcher } from './features/registries/index.js';
// Attestations at scale (bench/aggregates-at-scale.mjs): rows generated inside PostgreSQL, a
// database left at an older migration for comparing layouts, and the partition upkeep.
export { generateAttestations } from './seed/attestations-at-scale.js';
export { getAttestation, listAttestations } from './features/network/index.js';
export type { GenerateAttestationsOptions, GeneratedAttestations } from './seed/attestations-at-scale.js';
export { migrateUpTo } from './platform/db/migrate.js';
export { ensureAttestationPartitions } from './platform/db/attestation-partitions.js';
