import {
  MAX_LISTED_CHANGES,
  type DependencyChange,
  type RepositoryVerification,
  type RepositoryVerifiedEvent,
  type Verdict,
  type VerificationChanges,
} from '@vigil/core';
import type { Transaction } from 'kysely';
import { lockForUpdate } from '../../platform/db/dialect.js';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { enqueueOutboxEvent } from '../../platform/outbox.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { SourceProviderError, type ListedFile, type SourceProvider } from './providers/source-provider.js';
import { effectiveVerdict, recordPackageRequests, verifyLockfiles, type LockfileText, type RepositoryVerificationDeps } from './lockfile-verification.js';
import { JobClaimLostError, markJobDone, recordJobFailure, type ClaimedJob } from './repository-jobs.js';
import { verificationPublicId, type SourceRepositoryRow } from './source-repositories.js';

export interface PushProcessingDeps extends RepositoryVerificationDeps {
  provider: SourceProvider;
  /** Whether a path names a lockfile Vigil reads. */
  isLockfile: (path: string) => boolean;
  now: () => number;
  /**
   * Told of each stored verification's dependencies, after it is stored (the release watcher watches
   * them for the account: docs/watches.md). Its failure is its own: the push stays verified.
   */
  onVerified?: (accountId: string, dependencies: RepositoryVerification['dependencies'], now: number) => Promise<void>;
}

/** Files fetched from the provider at once for one push. */
const FETCH_CONCURRENCY = 4;

const RANK: Record<Verdict, number> = { ALLOW: 0, WARN: 1, BLOCK: 2 };

/** Lockfiles in node_modules are installed packages' own, never the repository's. */
function isRepositoryLockfile(isLockfile: (path: string) => boolean): (path: string) => boolean {
  return (path) => !path.split('/').includes('node_modules') && isLockfile(path);
}

async function fetchAll<T, R>(items: readonly T[], limit: number, fetch: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fetch(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

/**
 * Dependencies whose verdict got worse since the previous verification, or that are new and not
 * allowed: what a worse repository verdict is explained by. Pending ones compare as WARN.
 */
export function dependencyChanges(previous: RepositoryVerification, current: RepositoryVerification): VerificationChanges {
  const before = new Map(previous.dependencies.map((d) => [d.purl, effectiveVerdict(d)]));
  const changed: DependencyChange[] = [];
  for (const dependency of current.dependencies) {
    const now = effectiveVerdict(dependency);
    const was = before.get(dependency.purl);
    if (was === undefined ? now === 'ALLOW' : RANK[now] <= RANK[was]) continue;
    changed.push({ purl: dependency.purl, previous_verdict: was ?? null, verdict: dependency.verdict, pending: dependency.state === 'pending' });
  }
  changed.sort((a, b) => RANK[b.verdict] - RANK[a.verdict] || (a.purl < b.purl ? -1 : 1));
  return { previous_verdict: previous.verdict, total: changed.length, dependencies: changed.slice(0, MAX_LISTED_CHANGES) };
}

/** The event a stored verification emits (core's RepositoryVerifiedEvent). */
export function repositoryVerifiedEvent(repository: SourceRepositoryRow, result: RepositoryVerification, previousVerdict: Verdict | null): RepositoryVerifiedEvent {
  return {
    repository: repository.repository_id,
    url: repository.url,
    verification: result.id!,
    ref: result.ref,
    commit: result.commit,
    policy: result.policy.name,
    verdict: result.verdict,
    previous_verdict: previousVerdict,
    worse: previousVerdict !== null && RANK[result.verdict] > RANK[previousVerdict],
    complete: result.complete,
    summary: result.summary,
    changes: result.changes,
    verified_at: result.verified_at,
  };
}

type Resolved = { ref: string; commit: string };

/** A push that can never be verified as it stands: given up at once, with this message on the record. */
class UnverifiablePushError extends Error {
  override name = 'UnverifiablePushError';
}

/**
 * One claimed push (or first verification): the branch head for a first verification, the list of
 * lockfiles at the commit, the contents of those whose git blob changed since the last stored
 * verification (the others are reused), verification under the repository's policy, and then in
 * one transaction: the verification, the new lockfile snapshot, the package requests, the job done
 * and the `repository.verified` event. A provider failure is retried (source-repository-jobs.ts);
 * a repository deleted meanwhile stores nothing.
 */
export async function processRepositoryJob(deps: PushProcessingDeps, claim: ClaimedJob): Promise<void> {
  const { db } = deps;
  const job = claim.job;
  const repository = await db.selectFrom('source_repositories').selectAll().where('repository_id', '=', job.repository_id).executeTakeFirst();
  if (repository === undefined) return;
  const account = await db.selectFrom('accounts').selectAll().where('account_id', '=', repository.account_id).executeTakeFirst();
  let resolved: Resolved | undefined = job.ref !== null && job.commit_sha !== null ? { ref: job.ref, commit: job.commit_sha } : undefined;
  try {
    if (account === undefined || account.plan !== 'paid') {
      throw new UnverifiablePushError('the account is no longer on a paid plan, which repository verification needs');
    }
    const coordinates = { owner: repository.owner, name: repository.name };
    resolved ??= await deps.provider.defaultBranchHead(coordinates);
    const head = resolved;
    const listed = await deps.provider.listLockfiles(coordinates, head.commit, isRepositoryLockfile(deps.isLockfile));
    if (listed.length === 0) {
      throw new UnverifiablePushError(`no lockfile Vigil reads was found at ${head.commit} (docs/repositories.md lists the file names)`);
    }
    const snapshot = new Map(
      (await db.selectFrom('source_repository_lockfiles').selectAll().where('repository_id', '=', repository.repository_id).execute()).map((row) => [
        row.path,
        row,
      ]),
    );
    const files = await fetchAll(listed, FETCH_CONCURRENCY, async (file: ListedFile) => {
      const kept = snapshot.get(file.path);
      const content = kept !== undefined && kept.blob_sha === file.sha ? kept.content : await deps.provider.fetchFile(coordinates, head.commit, file.path);
      return { ...file, content };
    });
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const lockfiles: LockfileText[] = files.map((f) => ({ path: f.path, content: f.content }));
    const now = deps.now();
    const verification = await verifyLockfiles(deps, {
      principal: { accountId: account.account_id, accountKind: account.kind, trusted: Number(account.trusted) === 1 },
      policy: repository.policy,
      lockfiles,
      unreadable: 'report',
      repository: { id: repository.repository_id, ref: head.ref, commit: head.commit },
      now,
    });
    await inTransaction(db, (trx) => storeVerification(trx, claim, repository, verification.result, { files, requested: verification.requested, now, head }));
    await deps.onVerified?.(account.account_id, verification.result.dependencies, now).catch(() => undefined);
  } catch (error) {
    if (error instanceof JobClaimLostError) return;
    if (error instanceof SourceProviderError) {
      await recordJobFailure(db, claim, {
        message: error.message,
        retryable: error.retryable,
        ...(error.retryAfterMs === undefined ? {} : { providerWaitMs: error.retryAfterMs }),
        now: deps.now(),
        ...(resolved ? { resolved } : {}),
      });
      return;
    }
    if (error instanceof UnverifiablePushError || (error instanceof VigilError && error.status < 500)) {
      // Retrying cannot help: no lockfile, a plan without verification, a policy that no longer exists.
      const message = error instanceof VigilError ? error.detail : error.message;
      await recordJobFailure(db, claim, { message, retryable: false, now: deps.now(), ...(resolved ? { resolved } : {}) });
      return;
    }
    // Anything else is Vigil's own fault: the attempt still ends (retried later with the usual
    // backoff, `failed` after the last one) instead of staying `running` until its lease runs out,
    // and the customer sees that it failed, not why (the log has the error). When even recording it
    // fails (the database is down), the lease's expiry retries it.
    await recordJobFailure(db, claim, { message: INTERNAL_FAILURE, retryable: true, now: deps.now(), ...(resolved ? { resolved } : {}) }).catch(() => undefined);
    throw error;
  }
}

/** `last_error` of an attempt that failed inside Vigil (docs/repositories.md, "Failures and retries"). */
export const INTERNAL_FAILURE = 'internal error (Vigil could not finish this attempt; it is retried)';

async function storeVerification(
  trx: Transaction<Database>,
  claim: ClaimedJob,
  repository: SourceRepositoryRow,
  result: RepositoryVerification,
  stored: { files: (ListedFile & { content: string })[]; requested: Parameters<typeof recordPackageRequests>[1]; now: number; head: Resolved },
): Promise<void> {
  // Locked so a concurrent delete waits for this transaction (or this one finds the repository gone).
  const current = await trx
    .selectFrom('source_repositories')
    .selectAll()
    .where('repository_id', '=', repository.repository_id)
    .$call(lockForUpdate(trx))
    .executeTakeFirst();
  if (current === undefined) throw new JobClaimLostError(`repository ${repository.repository_id} was deleted`);
  const previousRow =
    current.last_verification_id === null
      ? undefined
      : await trx.selectFrom('source_repository_verifications').selectAll().where('verification_id', '=', current.last_verification_id).executeTakeFirst();
  const previous = previousRow === undefined ? undefined : (JSON.parse(previousRow.result) as RepositoryVerification);
  const previousVerdict = previous?.verdict ?? null;
  const inserted = await trx
    .insertInto('source_repository_verifications')
    .values({
      repository_id: repository.repository_id,
      job_id: claim.job.job_id,
      ref: stored.head.ref,
      commit_sha: stored.head.commit,
      policy: result.policy.name,
      verdict: result.verdict,
      previous_verdict: previousVerdict,
      result: '{}',
      created_at: stored.now,
    })
    .returning('verification_id')
    .executeTakeFirstOrThrow();
  const verificationId = Number(inserted.verification_id);
  const worse = previous !== undefined && RANK[result.verdict] > RANK[previous.verdict];
  const final: RepositoryVerification = { ...result, id: verificationPublicId(verificationId), changes: worse ? dependencyChanges(previous, result) : null };
  await trx.updateTable('source_repository_verifications').set({ result: JSON.stringify(final) }).where('verification_id', '=', verificationId).execute();
  await trx.deleteFrom('source_repository_lockfiles').where('repository_id', '=', repository.repository_id).execute();
  for (const file of stored.files) {
    await trx
      .insertInto('source_repository_lockfiles')
      .values({ repository_id: repository.repository_id, path: file.path, blob_sha: file.sha, content: file.content, commit_sha: stored.head.commit, fetched_at: stored.now })
      .execute();
  }
  await trx.updateTable('source_repositories').set({ last_verification_id: verificationId }).where('repository_id', '=', repository.repository_id).execute();
  await recordPackageRequests(trx, stored.requested, repository.account_id, stored.now);
  await markJobDone(trx, claim, { verificationId, ref: stored.head.ref, commit: stored.head.commit, now: stored.now });
  await enqueueOutboxEvent(trx, 'repository.verified', repositoryVerifiedEvent(current, final, previousVerdict), stored.now, {
    resource: `repository:${repository.repository_id}`,
    // Only the repository's own account sees its verifications.
    accountId: repository.account_id,
  });
}
