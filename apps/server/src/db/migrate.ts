import { Migrator, type Kysely, type Migration, type MigrationProvider, type MigrationResult } from 'kysely';
import { migrationTableSchema } from './dialect.js';
import { initialMigration } from './migrations/0001-initial.js';
import { signedRequestsMigration } from './migrations/0002-signed-requests.js';
import { schedulerMigration } from './migrations/0003-scheduler.js';
import { taskLeasesMigration } from './migrations/0004-task-leases.js';
import { accountsMigration } from './migrations/0005-accounts.js';
import { artifactUploadsMigration } from './migrations/0006-artifact-uploads.js';
import { attestationReadsMigration } from './migrations/0007-attestation-reads.js';
import { searchMigration } from './migrations/0008-search.js';
import { idempotencyMigration } from './migrations/0009-idempotency.js';
import { policiesMigration } from './migrations/0010-policies.js';
import { advisoriesMigration } from './migrations/0011-advisories.js';
import { sourceRepositoriesMigration } from './migrations/0012-source-repositories.js';
import { referenceTrustMigration } from './migrations/0015-reference-trust.js';
import { searchAudiencesMigration } from './migrations/0016-search-audiences.js';
import { webhooksMigration } from './migrations/0017-webhooks.js';

/**
 * Migrations live in code (not a folder scanned at runtime) so they ship inside dist and run from
 * any working directory. Names sort lexically; append new ones, never rename or edit applied ones.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-initial': initialMigration,
  '0002-signed-requests': signedRequestsMigration,
  '0003-scheduler': schedulerMigration,
  '0004-task-leases': taskLeasesMigration,
  '0005-accounts': accountsMigration,
  '0006-artifact-uploads': artifactUploadsMigration,
  '0007-attestation-reads': attestationReadsMigration,
  '0008-search': searchMigration,
  '0009-idempotency': idempotencyMigration,
  '0010-policies': policiesMigration,
  '0011-advisories': advisoriesMigration,
  '0012-source-repositories': sourceRepositoriesMigration,
  '0015-reference-trust': referenceTrustMigration,
  '0016-search-audiences': searchAudiencesMigration,
  '0017-webhooks': webhooksMigration,
};

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};

export class MigrationError extends Error {
  override name = 'MigrationError';
  readonly results: MigrationResult[];

  constructor(message: string, results: MigrationResult[], cause: unknown) {
    super(message, { cause });
    this.results = results;
  }
}

/**
 * Brings the schema to the latest migration. Idempotent: already applied migrations are skipped.
 * Throws a MigrationError naming the failed migration (its cause is the database error).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResult[]> {
  const schema = await migrationTableSchema(db);
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((r) => r.status === 'Error');
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(
      failed ? `migration ${failed.migrationName} failed: ${reason}` : `migrations failed: ${reason}`,
      results,
      error,
    );
  }
  return results;
}
