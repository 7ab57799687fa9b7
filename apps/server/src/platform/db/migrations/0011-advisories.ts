import type { Kysely, Migration } from 'kysely';
import { addIdColumn } from '../dialect.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function up(db: AnyDb): Promise<void> {
  // Imported OSV advisories (docs/advisories.md), one row per OSV id; the newest `modified` wins.
  await db.schema
    .createTable('advisories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .addColumn('published', 'bigint')
    .addColumn('withdrawn', 'bigint')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('aliases', 'text', (c) => c.notNull())
    .addColumn('source_file', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One row per npm or PyPI `affected[]` entry of a live (not withdrawn) advisory: what matching reads.
  await db.schema
    .createTable('advisory_packages')
    .addColumn('advisory_id', 'text', (c) => c.notNull().references('advisories.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('ecosystem', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('package_key', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('affected', 'text', (c) => c.notNull())
    .addColumn('fixed_in', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('advisory_packages_pk', ['advisory_id', 'position'])
    .execute();
  // The lookup of N packages: one query over this index, whatever N.
  await db.schema.createIndex('advisory_packages_key_idx').on('advisory_packages').columns(['package_key', 'advisory_id']).execute();
  await addIdColumn(db, db.schema.createTable('advisory_imports'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint', (c) => c.notNull())
    .addColumn('counts', 'text', (c) => c.notNull())
    .execute();
  // What an artifact's archive says about it as a package (docs/package-facts.md).
  await db.schema
    .createTable('artifact_facts')
    .addColumn('artifact_id', 'bigint', (c) => c.primaryKey().references('artifacts.id'))
    .addColumn('extractor_version', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('license', 'text')
    .addColumn('license_source', 'text')
    .addColumn('install_scripts', 'text', (c) => c.notNull())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    .execute();
  // A Sigstore bundle attached to an artifact, and what its offline verification found.
  await db.schema
    .createTable('artifact_provenance')
    .addColumn('artifact_id', 'bigint', (c) => c.primaryKey().references('artifacts.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('bundle', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('source_repository', 'text')
    .addColumn('logged_at', 'bigint')
    .addColumn('uploaded_by', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('artifact_provenance').execute();
  await db.schema.dropTable('artifact_facts').execute();
  await db.schema.dropTable('advisory_imports').execute();
  await db.schema.dropIndex('advisory_packages_key_idx').execute();
  await db.schema.dropTable('advisory_packages').execute();
  await db.schema.dropTable('advisories').execute();
}

export const advisoriesMigration: Migration = { up, down };
