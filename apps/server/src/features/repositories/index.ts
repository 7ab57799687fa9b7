// Source repositories: registration, the GitHub hook, push jobs and their worker, lockfile
// verification (docs/repositories.md).
// The rest of the server imports this feature through this file only (docs/contributing.md).
export { REPOSITORY_WORKER_VARIABLES, type RepositoryWorkerSettings, repositoryWorkerSettingsFromEnv } from './worker/settings.js';
export { createPushWorker } from './worker/start-push-worker.js';
// Lockfile and SBOM verification (features/sboms) answer a package the same way: one evaluation, one sort, one request record.
export {
  bucketOf,
  recordPackageRequests,
  sortDependencies,
  verifyDependencies,
  type Bucket,
  type DependencyToVerify,
  type DependencyVerdict,
  type EvaluationPolicy,
  type RepositoryVerificationDeps,
} from './lockfile-verification.js';
export { repositoriesWorkers as workers } from './repositories-workers.js';
export { repositoriesRouteEntries as routes } from './repositories-route-entries.js';
