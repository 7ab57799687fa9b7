import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { lockfileFormatOf } from '@vigil/lockfiles';
import type { PolicyInputSources } from '../../policies/index.js';
import { processRepositoryJob, type PushProcessingDeps } from '../repository-push.js';
import { createGithubProvider } from '../providers/github-provider.js';
import type { SourceProvider } from '../providers/source-provider.js';
import { createRepositoryWorker, type RepositoryWorker, type RepositoryWorkerLogger } from './create-repository-worker.js';
import type { RepositoryWorkerSettings } from './settings.js';

export interface PushWorkerOptions {
  db: Kysely<Database>;
  settings: RepositoryWorkerSettings;
  sources: PolicyInputSources;
  logger?: RepositoryWorkerLogger;
  /** The GitHub REST client by default; tests hand in one pointed at their stand-in. */
  provider?: SourceProvider;
  now?: () => number;
  /** Told of each stored verification's dependencies (the release watcher's repository watches). */
  onVerified?: PushProcessingDeps['onVerified'];
}

/** The worker that fetches and verifies repository pushes, wired to GitHub and the lockfile readers. */
export function createPushWorker(options: PushWorkerOptions): RepositoryWorker {
  const provider = options.provider ?? createGithubProvider(options.settings.github);
  const now = options.now ?? Date.now;
  const deps: PushProcessingDeps = { db: options.db, sources: options.sources, provider, isLockfile: (path: string) => lockfileFormatOf(path) !== null, now, ...(options.onVerified ? { onVerified: options.onVerified } : {}) };
  return createRepositoryWorker({
    db: options.db,
    pollMs: options.settings.pollMs,
    now,
    ...(options.logger ? { logger: options.logger } : {}),
    process: (claim) => processRepositoryJob(deps, claim),
  });
}
