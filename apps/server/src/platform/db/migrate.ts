import { DEFAULT_MIGRATION_TABLE, Migrator, type Kysely, type Migration, type MigrationProvider, type MigrationResult, type MigrationResultSet } from 'kysely';
import { MigrationLockTimeoutError, migrationTableSchema, withMigrationLock } from './dialect.js';
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
import { purlColonsMigration } from './migrations/0018-purl-colons.js';
import { registryFetchesMigration } from './migrations/0019-registry-fetches.js';
import { fastTasksMigration } from './migrations/0020-fast-tasks.js';
import { transparencyLogMigration } from './migrations/0021-transparency-log.js';
import { logCosignaturesMigration } from './migrations/0022-log-cosignatures.js';
import { watchesMigration } from './migrations/0023-watches.js';
import { attestationPartitionsMigration } from './migrations/0024-attestation-partitions.js';
import { attestationDsseMigration } from './migrations/0025-attestation-dsse.js';
import { firewallDecisionsMigration } from './migrations/0026-firewall-decisions.js';

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
  '0018-purl-colons': purlColonsMigration,
  '0019-registry-fetches': registryFetchesMigration,
  '0020-fast-tasks': fastTasksMigration,
  '0021-transparency-log': transparencyLogMigration,
  '0022-log-cosignatures': logCosignaturesMigration,
  '0023-watches': watchesMigration,
  '0024-attestation-partitions': attestationPartitionsMigration,
  '0025-attestation-dsse': attestationDsseMigration,
  '0026-firewall-decisions': firewallDecisionsMigration,
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

/** VIGIL_MIGRATION_LOCK_TIMEOUT_MS: how long a migration waits for another process's to end. */
export const DEFAULT_MIGRATION_LOCK_TIMEOUT_MS = 60_000;

export interface MigrateOptions {
  /**
   * How long to wait for the migration lock while another process migrates the same database
   * (VIGIL_MIGRATION_LOCK_TIMEOUT_MS). Only this bounds the wait, not the statement timeout.
   */
  lockTimeoutMs?: number;
}

/**
 * Brings the schema to the latest migration. Idempotent: already applied migrations are skipped.
 * Processes migrating one database at once take turns (`withMigrationLock`): the first applies the
 * pending migrations, in one transaction, and the others then find nothing to do.
 * Throws a MigrationError naming the failed migration (its cause is the database error), or saying
 * that the lock was not had within `lockTimeoutMs`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>, options: MigrateOptions = {}): Promise<MigrationResult[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(db, options);
    } catch (error) {
      if (attempt < CATALOG_CHANGED_ATTEMPTS && catalogChangedMeanwhile(error)) {
        // A little later each time: another session's migration is a burst of DDL.
        await new Promise((resolve) => setTimeout(resolve, attempt * 50));
        continue;
      }
      throw error;
    }
  }
}

/** Attempts when another session changes the catalogue while kysely's migrator lists tables. */
const CATALOG_CHANGED_ATTEMPTS = 10;

/**
 * PostgreSQL errors of that listing when another session changes what it lists: 3F000
 * (invalid_schema_name: a schema dropped), 42P01 (undefined_table: a table dropped or renamed) and
 * 42703 (undefined_column: a column dropped or renamed; `pg_get_serial_sequence` looks each column
 * up again by name, seen as `column "purl" of relation "artifact_packages" does not exist` while
 * another schema ran migration 0015).
 */
const CATALOG_CHANGED_CODES = new Set(['3F000', '42P01', '42703']);

/**
 * Before it applies anything, kysely's migrator lists tables (to find its own two). Its own
 * PostgreSQL listing read every schema of the database, and another session dropping a schema, or
 * altering or renaming its tables, during it failed the migration with an error naming that other
 * schema's objects (seen where several schemas share a database and come and go or migrate: test
 * files running in parallel, one schema per tenant). The migrator is now given a listing of the
 * migration schema alone (schema-scoped-introspection.ts), which the migration lock keeps others'
 * migrations out of; the retry stays for what may still change it (a schema dropped meanwhile).
 * Nothing was applied (no migration ran, succeeded or failed), so migrating again is safe; the next
 * listing sees the catalogue as it is then.
 */
function catalogChangedMeanwhile(error: unknown): boolean {
  if (!(error instanceof MigrationError)) return false;
  if (error.results.some((r) => r.status === 'Success' || r.status === 'Error')) return false;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && CATALOG_CHANGED_CODES.has(code);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function migrateOnce(db: Kysely<any>, options: MigrateOptions): Promise<MigrationResult[]> {
  const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_MIGRATION_LOCK_TIMEOUT_MS;
  const { error, results = [] } = await withMigrationLock(db, lockTimeoutMs, async (conn) => {
    const schema = await migrationTableSchema(conn);
    if (await upToDate(conn, schema)) return { results: [] };
    const migrator = new Migrator({ db: conn, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
    const outcome = await migrator.migrateToLatest();
    // Thrown, so that on SQLite the lock's transaction rolls back whatever was applied.
    if (outcome.error !== undefined) throw new MigrationOutcome(outcome);
    return outcome;
  }).catch((thrown: unknown) => {
    if (thrown instanceof MigrationOutcome) return thrown.outcome;
    if (thrown instanceof MigrationLockTimeoutError) throw new MigrationError(`migrations not run: ${thrown.message}`, [], thrown);
    return { error: thrown, results: [] };
  });
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

/**
 * Whether every migration this release knows is recorded already (later ones may be too), read
 * straight from kysely's table. kysely's migrator first lists tables and columns to find its own
 * (several catalogue queries): an up-to-date database (each start but the first after an upgrade,
 * and each process that waited for another's migrations) skips them with one read. Anything else,
 * a missing table included, is left to the migrator.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function upToDate(conn: Kysely<any>, schema: string | undefined): Promise<boolean> {
  const rows = await (schema ? conn.withSchema(schema) : conn)
    .selectFrom(DEFAULT_MIGRATION_TABLE)
    .select('name')
    .execute()
    .catch(() => undefined);
  if (rows === undefined) return false;
  const applied = new Set(rows.map((row: { name: string }) => row.name));
  // A database that also holds later migrations was migrated by a newer release: under the
  // expand/contract rule (docs/contributing.md, "Migrations") this release still reads and writes
  // it, so an instance of it restarting during a rolling upgrade serves instead of failing on
  // migrations it does not know (kysely's migrator refuses those as "corrupted").
  return Object.keys(MIGRATIONS).every((name) => applied.has(name));
}

/**
 * The migrations this code knows that the database has not applied, in order (readiness). A
 * database newer than the code (a later release migrated it) is not behind: what it applied beyond
 * these is ignored, as an instance of the previous release keeps serving while the next migrates.
 * Throws when the migration table cannot be read (no migration ever ran, or the database failed).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const rows: { name: string }[] = await db.selectFrom(DEFAULT_MIGRATION_TABLE).select('name').execute();
  const applied = new Set(rows.map((row) => row.name));
  return Object.keys(MIGRATIONS).filter((name) => !applied.has(name));
}

/**
 * Applies the migrations up to and including `last` only: a database as a previous release left it
 * (tests of a migration from a populated older schema, benchmarks comparing layouts). Not used by
 * the server, which always migrates to the latest.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateUpTo(db: Kysely<any>, last: string): Promise<void> {
  if (!(last in MIGRATIONS)) throw new TypeError(`last: no migration named ${last}`);
  const upTo: Record<string, Migration> = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= last));
  // Under the migration lock, as migrateToLatest: kysely's migrator then lists this schema's tables alone.
  const outcome = await withMigrationLock(db, DEFAULT_MIGRATION_LOCK_TIMEOUT_MS, async (conn) => {
    const schema = await migrationTableSchema(conn);
    const migrator = new Migrator({ db: conn, provider: { getMigrations: () => Promise.resolve(upTo) }, ...(schema ? { migrationTableSchema: schema } : {}) });
    return migrator.migrateToLatest();
  });
  if (outcome.error !== undefined) throw outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
}

/** Carries kysely's failed outcome out of the lock, so the lock's transaction rolls back. */
class MigrationOutcome extends Error {
  constructor(readonly outcome: MigrationResultSet) {
    super('migration failed');
  }
}
