import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function up(db: AnyDb): Promise<void> {
  // The package references customers uploaded an artifact as (docs/artifacts.md). Kept apart from
  // `artifacts`, whose rows validators see through bundle hashes: nothing here reaches them.
  await db.schema
    .createTable('artifact_packages')
    .addColumn('artifact_id', 'bigint', (c) => c.notNull().references('artifacts.id'))
    .addColumn('purl', 'text', (c) => c.notNull())
    .addColumn('ecosystem', 'text', (c) => c.notNull())
    .addColumn('namespace', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text')
    .addColumn('uploaded_by', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('artifact_packages_pk', ['artifact_id', 'purl'])
    .execute();
  // Verification and `GET /v1/artifacts?purl=` resolve a purl to its artifacts.
  await db.schema.createIndex('artifact_packages_purl_idx').on('artifact_packages').columns(['purl', 'artifact_id']).execute();
  // `GET /v1/artifacts?sha256=` and the upload's "same bytes, same artifact" check.
  await db.schema.createIndex('artifacts_content_hash_idx').on('artifacts').columns(['content_hash', 'track']).execute();
  // The attestations behind an artifact's published verdict (its round's, by the round's winners).
  await db.schema.createIndex('attestations_artifact_round_idx').on('attestations').columns(['artifact_id', 'round_id']).execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('attestations_artifact_round_idx').execute();
  await db.schema.dropIndex('artifacts_content_hash_idx').execute();
  await db.schema.dropIndex('artifact_packages_purl_idx').execute();
  await db.schema.dropTable('artifact_packages').execute();
}

export const artifactUploadsMigration: Migration = { up, down };
