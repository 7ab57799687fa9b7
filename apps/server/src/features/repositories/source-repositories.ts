import { randomBytes } from 'node:crypto';
import {
  CONNECTED_REPOSITORY_PROVIDERS,
  formatOffsetTimestamp,
  type Repository,
  type RepositoryProvider,
  type RepositoryPush,
  type RepositoryVerificationBrief,
  type RepositoryWebhookSetup,
} from '@vigil/core';
import type { Kysely, Selectable } from 'kysely';
import type { Database, SourceRepositoriesTable, SourceRepositoryJobsTable, SourceRepositoryVerificationsTable } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { inTransaction } from '../../platform/db/transaction.js';
import type { SecretBox } from '../../platform/secrets/secret-box.js';
import { parseGithubRepositoryUrl } from './providers/github-url.js';
import { isUniqueViolation } from '../../platform/unique-violation.js';
import type { KeyPrincipal } from '../accounts/index.js';
import { policyForEvaluation } from '../policies/index.js';
import { enqueueInitialJob } from './repository-jobs.js';

export type SourceRepositoryRow = Selectable<SourceRepositoriesTable>;
type JobRow = Selectable<SourceRepositoryJobsTable>;
type VerificationRow = Selectable<SourceRepositoryVerificationsTable>;

export const GITHUB_HOOK_PATH = '/v1/repositories/hooks/github';

/** What a stored webhook secret is sealed against: its row, so a copied value opens nowhere else. */
export function webhookSecretContext(repositoryId: string): string {
  return `source_repositories.webhook_secret:${repositoryId}`;
}

export function verificationPublicId(id: number): string {
  return `rver_${id}`;
}

function newRepositoryId(): string {
  return `repo_${randomBytes(8).toString('hex')}`;
}

export interface RegisterRepositoryInput {
  accountId: string;
  accountKind: KeyPrincipal['accountKind'];
  url: string;
  provider: RepositoryProvider;
  policy: string | null;
  now: number;
}

export interface RegisteredRepository {
  repository: Repository;
  webhook: RepositoryWebhookSetup;
}

/**
 * Registers a repository of a connected provider for the account, with a fresh webhook secret
 * (sealed at rest, answered here once), and queues its first verification (the default branch as it
 * is now), so a repository is verified before its first push.
 */
export async function registerRepository(db: Kysely<Database>, box: SecretBox, input: RegisterRepositoryInput): Promise<RegisteredRepository> {
  if (!(CONNECTED_REPOSITORY_PROVIDERS as readonly string[]).includes(input.provider)) {
    throw new VigilError(
      'provider_not_connected',
      `provider: ${input.provider} is not yet connected; connected providers: ${CONNECTED_REPOSITORY_PROVIDERS.join(', ')}`,
    );
  }
  const parsed = parseGithubRepositoryUrl(input.url);
  if (parsed === null) {
    throw new VigilError('validation_error', {
      issues: [{ path: 'body.url', message: 'expected a GitHub repository URL: https://github.com/<owner>/<repository>[.git]' }],
    });
  }
  // A name that names no policy is refused now, not at the first push.
  if (input.policy !== null) await policyForEvaluation(db, { accountId: input.accountId, accountKind: input.accountKind }, input.policy);
  const secret = randomBytes(32).toString('hex');
  const repositoryId = newRepositoryId();
  const row: SourceRepositoryRow = {
    repository_id: repositoryId,
    account_id: input.accountId,
    provider: input.provider,
    url: parsed.cloneUrl,
    repo_key: parsed.key,
    owner: parsed.owner,
    name: parsed.name,
    policy: input.policy,
    webhook_secret: box.seal(secret, webhookSecretContext(repositoryId)),
    created_at: input.now,
    last_verification_id: null,
  };
  const alreadyRegistered = (existingId: string) =>
    new VigilError('repository_already_registered', `url: ${parsed.cloneUrl} is already registered as ${existingId}`);
  let job: JobRow;
  try {
    job = await inTransaction(db, async (trx) => {
      const existing = await trx
        .selectFrom('source_repositories')
        .select('repository_id')
        .where('account_id', '=', input.accountId)
        .where('repo_key', '=', parsed.key)
        .executeTakeFirst();
      if (existing) throw alreadyRegistered(existing.repository_id);
      await trx.insertInto('source_repositories').values(row).execute();
      return enqueueInitialJob(trx, repositoryId, input.now);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent registration of the same repository won.
    const winner = await db
      .selectFrom('source_repositories')
      .select('repository_id')
      .where('account_id', '=', input.accountId)
      .where('repo_key', '=', parsed.key)
      .executeTakeFirst();
    throw winner ? alreadyRegistered(winner.repository_id) : error;
  }
  return {
    repository: repositoryBody(row, undefined, job),
    webhook: { path: GITHUB_HOOK_PATH, content_type: 'application/json', events: ['push'], secret },
  };
}

/** A repository of the account; another account's, a deleted or an unknown one is `repository not found`. */
export async function findRepository(db: Kysely<Database>, accountId: string, repositoryId: string): Promise<SourceRepositoryRow> {
  const row = await db
    .selectFrom('source_repositories')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (row === undefined) throw new VigilError('repository_not_found');
  return row;
}

export async function getRepository(db: Kysely<Database>, accountId: string, repositoryId: string): Promise<Repository> {
  const row = await findRepository(db, accountId, repositoryId);
  return (await repositoryBodies(db, [row]))[0]!;
}

/** The account's repositories, oldest first, one page (plus one row to tell whether more exist). */
export async function listRepositories(
  db: Kysely<Database>,
  accountId: string,
  page: { offset: number; limit: number },
): Promise<Repository[]> {
  const rows = await db
    .selectFrom('source_repositories')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('repository_id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return repositoryBodies(db, rows);
}

/**
 * Deletes a repository of the account with everything kept for it (queued pushes, the last
 * lockfiles, its verifications), in one transaction. A push job running at that moment finds its
 * repository gone when it finishes and stores nothing.
 */
export async function deleteRepository(db: Kysely<Database>, accountId: string, repositoryId: string): Promise<Repository> {
  return inTransaction(db, async (trx) => {
    const row = await findRepository(trx, accountId, repositoryId);
    const body = (await repositoryBodies(trx, [row]))[0]!;
    await trx.deleteFrom('source_repository_jobs').where('repository_id', '=', repositoryId).execute();
    await trx.deleteFrom('source_repository_lockfiles').where('repository_id', '=', repositoryId).execute();
    await trx.deleteFrom('source_repository_verifications').where('repository_id', '=', repositoryId).execute();
    const deleted = await trx
      .deleteFrom('source_repositories')
      .where('repository_id', '=', repositoryId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    // Two deletions raced: the first one answers, the other is the 404 of a repository already gone.
    if (Number(deleted.numDeletedRows) === 0) throw new VigilError('repository_not_found');
    return body;
  });
}

/**
 * Records with their last verification and last push: three queries for a whole page. The newest
 * jobs are read first and each repository's last verification after them: a push's job becomes
 * `done` in the transaction that stores its verification, so a job read as `done` is always shown
 * with that verification or a newer one, never the one before (read the other way round, or from the
 * rows the caller read earlier, a commit between the two reads showed `done` beside the old verdict).
 */
async function repositoryBodies(db: Kysely<Database>, rows: readonly SourceRepositoryRow[]): Promise<Repository[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.repository_id);
  const jobs = await db
    .selectFrom('source_repository_jobs')
    .selectAll()
    .where('job_id', 'in', (eb) =>
      eb.selectFrom('source_repository_jobs').select((s) => s.fn.max('job_id').as('latest')).where('repository_id', 'in', ids).groupBy('repository_id'),
    )
    .execute();
  const current = new Map(
    (await db.selectFrom('source_repositories').select(['repository_id', 'last_verification_id']).where('repository_id', 'in', ids).execute()).map((r) => [
      r.repository_id,
      r.last_verification_id,
    ]),
  );
  const lastVerificationOf = (row: SourceRepositoryRow) => (current.has(row.repository_id) ? current.get(row.repository_id)! : row.last_verification_id);
  const verificationIds = rows.map(lastVerificationOf).filter((id): id is number => id !== null);
  const verifications = await db.selectFrom('source_repository_verifications').selectAll().where('verification_id', 'in', verificationIds).execute();
  const verificationById = new Map(verifications.map((v) => [Number(v.verification_id), v]));
  const jobByRepository = new Map(jobs.map((j) => [j.repository_id, j]));
  return rows.map((row) => {
    const lastVerification = lastVerificationOf(row);
    return repositoryBody(row, lastVerification === null ? undefined : verificationById.get(Number(lastVerification)), jobByRepository.get(row.repository_id));
  });
}

export function verificationBrief(row: VerificationRow): RepositoryVerificationBrief {
  const result = JSON.parse(row.result) as { summary?: { packages?: number; pending?: number } };
  return {
    id: verificationPublicId(Number(row.verification_id)),
    verdict: row.verdict,
    previous_verdict: row.previous_verdict,
    ref: row.ref,
    commit: row.commit_sha,
    policy: row.policy,
    packages: result.summary?.packages ?? 0,
    pending: result.summary?.pending ?? 0,
    verified_at: formatOffsetTimestamp(Number(row.created_at)),
  };
}

export function pushBody(job: JobRow): RepositoryPush {
  // A repository's newest job is never `superseded` (only older ones are), so that state is not shown.
  const state = job.state === 'queued' && job.attempts > 0 ? 'retrying' : job.state === 'superseded' ? 'done' : job.state;
  const waiting = job.state === 'queued';
  return {
    delivery: job.kind === 'initial' ? 'initial' : job.delivery_id,
    ref: job.ref,
    commit: job.commit_sha,
    state,
    attempts: job.attempts,
    last_error: job.last_error,
    next_attempt_at: waiting ? formatOffsetTimestamp(Number(job.next_attempt_at)) : null,
    received_at: formatOffsetTimestamp(Number(job.created_at)),
  };
}

function repositoryBody(row: SourceRepositoryRow, verification: VerificationRow | undefined, job: JobRow | undefined): Repository {
  const brief = verification === undefined ? null : verificationBrief(verification);
  return {
    id: row.repository_id,
    url: row.url,
    provider: row.provider,
    policy: row.policy,
    continuous: true,
    verdict: brief?.verdict ?? null,
    last_verified_at: brief?.verified_at ?? null,
    last_verification: brief,
    last_push: job === undefined ? null : pushBody(job),
    created_at: formatOffsetTimestamp(Number(row.created_at)),
  };
}
