// Registries in the server: on-demand fetching of npm and PyPI references through @vigil/registries,
// a durable fetch queue and its worker (docs/registries.md, "In the server"). The rest of the server
// imports this feature through this file only (docs/contributing.md).
export { createReferenceFetches, type CreateReferenceFetchesOptions } from './reference-fetches.js';
export { createFetchWorker, createRegistryConnectors, retryDelay, type CreateFetchWorkerOptions, type FetchWorker, type RegistryConnectors } from './fetch-worker.js';
export { FETCH_LEASE_MS } from './fetch-queue.js';
export { REGISTRY_FETCH_VARIABLES, registryFetchSettingsFromEnv, type RegistryFetchSettings } from './fetch-settings.js';
export { REGISTRY_ACCOUNT_ID, REGISTRY_ACCOUNT_NAME } from './registry-account.js';
export { REGISTRIES_USAGE, RegistriesCommandError, runRegistriesCommand } from './registries-command.js';
export { createWatcher, nextPollDelay, WATCH_LEASE_MS, WATCH_WRITE_RETRY_MS, type CreateWatcherOptions, type Watcher } from './watcher.js';
export { addWatches, OPERATOR_OWNER, watchRepositoryDependencies } from './watch-store.js';
export { registriesCommands as commands } from './registries-commands.js';
export { registriesWorkers as workers } from './registries-workers.js';
export { registriesRouteEntries as routes } from './registries-route-entries.js';
