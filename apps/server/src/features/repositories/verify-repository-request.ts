import type { RepositoryVerification, RepositoryVerifyRequest } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { inTransaction } from '../../platform/db/transaction.js';
import type { KeyPrincipal } from '../accounts/index.js';
import { recordPackageRequests, verifyLockfiles, type RepositoryVerificationDeps } from './lockfile-verification.js';
import { findRepository, pushBody } from './source-repositories.js';

/**
 * `POST /v1/repositories/verify`: the posted lockfiles, or the lockfiles of a registered
 * repository's last verified push, verified now under the policy. Nothing is stored but the
 * requests for packages Vigil holds no bytes for; a posted file that cannot be read refuses the
 * whole request (422 naming the file and line) before anything is written.
 */
export async function verifyRepositoryRequest(
  deps: RepositoryVerificationDeps,
  principal: Pick<KeyPrincipal, 'accountId' | 'accountKind' | 'trusted'>,
  body: RepositoryVerifyRequest,
  now: number,
): Promise<RepositoryVerification> {
  if (body.lockfiles !== undefined) {
    const verification = await verifyLockfiles(deps, {
      principal,
      policy: body.policy ?? null,
      lockfiles: inPathOrder(body.lockfiles),
      unreadable: 'refuse',
      repository: null,
      now,
    });
    await inTransaction(deps.db, (trx) => recordPackageRequests(trx, verification.requested, principal.accountId, now));
    return verification.result;
  }
  const repository = await findRepository(deps.db, principal.accountId, body.repository!);
  const [files, lastJob, lastVerification] = await Promise.all([
    deps.db.selectFrom('source_repository_lockfiles').selectAll().where('repository_id', '=', repository.repository_id).orderBy('path').execute(),
    deps.db.selectFrom('source_repository_jobs').selectAll().where('repository_id', '=', repository.repository_id).orderBy('job_id', 'desc').limit(1).executeTakeFirst(),
    repository.last_verification_id === null
      ? Promise.resolve(undefined)
      : deps.db.selectFrom('source_repository_verifications').select('ref').where('verification_id', '=', repository.last_verification_id).executeTakeFirst(),
  ]);
  if (files.length === 0) {
    const push = lastJob === undefined ? undefined : pushBody(lastJob);
    const state = push === undefined ? 'no push has arrived' : `its last push is ${push.state}${push.last_error === null ? '' : `: ${push.last_error}`}`;
    throw new VigilError('repository_not_verified', `repository: ${repository.repository_id} has no verified push yet (${state})`);
  }
  const verification = await verifyLockfiles(deps, {
    principal,
    policy: body.policy ?? repository.policy,
    lockfiles: inPathOrder(files.map((f) => ({ path: f.path, content: f.content }))),
    unreadable: 'report',
    repository: { id: repository.repository_id, ref: lastVerification?.ref ?? null, commit: files[0]!.commit_sha },
    now,
  });
  await inTransaction(deps.db, (trx) => recordPackageRequests(trx, verification.requested, principal.accountId, now));
  return verification.result;
}

/** `GET /v1/repositories/{id}/verification`: the last stored verification, whole. */
export async function lastRepositoryVerification(db: Kysely<Database>, accountId: string, repositoryId: string): Promise<RepositoryVerification> {
  const repository = await findRepository(db, accountId, repositoryId);
  const row =
    repository.last_verification_id === null
      ? undefined
      : await db.selectFrom('source_repository_verifications').select('result').where('verification_id', '=', repository.last_verification_id).executeTakeFirst();
  if (row === undefined) {
    throw new VigilError('repository_not_verified', `repository: ${repository.repository_id} has no verified push yet`);
  }
  return JSON.parse(row.result) as RepositoryVerification;
}

/** Byte order of paths: the same on every instance and dialect (a database's collation may differ). */
function inPathOrder<T extends { path: string }>(lockfiles: readonly T[]): T[] {
  return [...lockfiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
