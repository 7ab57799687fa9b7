import type { Kysely, Migration } from 'kysely';
import { addIdColumn } from '../dialect.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function up(db: AnyDb): Promise<void> {
  // Source-code repositories an account registered for continuous verification (docs/repositories.md).
  // `repo_key` (`github.com/<owner>/<name>`, lowercase) is what a push hook's payload is matched on;
  // two accounts may watch the same repository, each with its own webhook secret.
  await db.schema
    .createTable('source_repositories')
    .addColumn('repository_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('repo_key', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('policy', 'text')
    // Sealed with the server key (AES-256-GCM): the hook's HMAC needs the secret itself.
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_verification_id', 'bigint')
    .addUniqueConstraint('source_repositories_account_key_uq', ['account_id', 'repo_key'])
    .execute();
  await db.schema.createIndex('source_repositories_key_idx').on('source_repositories').column('repo_key').execute();
  await db.schema
    .createIndex('source_repositories_account_idx')
    .on('source_repositories')
    .columns(['account_id', 'created_at', 'repository_id'])
    .execute();

  // The durable queue of push (and first) verifications: a hook answers once its row is written, and
  // any process's worker claims it (skip-locked), so a restart loses no push.
  await db.schema
    .createTable('source_repository_jobs')
    .$call((t) => addIdColumn(db, t, 'job_id'))
    .addColumn('repository_id', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref', 'text')
    .addColumn('before_commit', 'text')
    .addColumn('commit_sha', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('claim_token', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('verification_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('source_repository_jobs_delivery_uq', ['repository_id', 'delivery_id'])
    .execute();
  await db.schema
    .createIndex('source_repository_jobs_due_idx')
    .on('source_repository_jobs')
    .columns(['state', 'next_attempt_at', 'job_id'])
    .execute();

  // The lockfiles of a repository's last verified push: a push fetches only those whose git blob
  // changed, and `POST /v1/repositories/verify {repository}` reads them.
  await db.schema
    .createTable('source_repository_lockfiles')
    .addColumn('repository_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('blob_sha', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('commit_sha', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('source_repository_lockfiles_pk', ['repository_id', 'path'])
    .execute();

  await db.schema
    .createTable('source_repository_verifications')
    .$call((t) => addIdColumn(db, t, 'verification_id'))
    .addColumn('repository_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'bigint')
    .addColumn('ref', 'text')
    .addColumn('commit_sha', 'text')
    .addColumn('policy', 'text', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('previous_verdict', 'text')
    // JSON: the whole answer (files, dependencies, summary, changes), as the API shows it.
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('source_repository_verifications_repo_idx')
    .on('source_repository_verifications')
    .columns(['repository_id', 'verification_id'])
    .execute();

  // Packages a verification met that Vigil holds no bytes for: the work list of whoever feeds Vigil
  // artifacts (docs/repositories.md, "Pending dependencies").
  await db.schema
    .createTable('package_requests')
    .addColumn('purl', 'text', (c) => c.primaryKey())
    .addColumn('ecosystem', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text')
    .addColumn('first_requested_by', 'text', (c) => c.notNull())
    .addColumn('first_requested_at', 'bigint', (c) => c.notNull())
    .addColumn('last_requested_at', 'bigint', (c) => c.notNull())
    .addColumn('request_count', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('package_requests_count_idx')
    .on('package_requests')
    .columns(['request_count', 'purl'])
    .execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('package_requests_count_idx').execute();
  await db.schema.dropTable('package_requests').execute();
  await db.schema.dropIndex('source_repository_verifications_repo_idx').execute();
  await db.schema.dropTable('source_repository_verifications').execute();
  await db.schema.dropTable('source_repository_lockfiles').execute();
  await db.schema.dropIndex('source_repository_jobs_due_idx').execute();
  await db.schema.dropTable('source_repository_jobs').execute();
  await db.schema.dropIndex('source_repositories_account_idx').execute();
  await db.schema.dropIndex('source_repositories_key_idx').execute();
  await db.schema.dropTable('source_repositories').execute();
}

export const sourceRepositoriesMigration: Migration = { up, down };
