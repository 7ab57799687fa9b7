import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function up(db: AnyDb): Promise<void> {
  // The on-demand fetch queue (docs/registries.md, "In the server"): one row per package reference
  // Vigil was asked about and fetches from its configured registry. The purl is the key, so two
  // verifications of the same unseen reference queue one fetch.
  await db.schema
    .createTable('registry_fetches')
    .addColumn('purl', 'text', (c) => c.primaryKey())
    .addColumn('ecosystem', 'text', (c) => c.notNull())
    // queued | running | stored | failed
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // The registry state of the last attempt that did not store (`registry_unavailable`, …), and its sentence.
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    // The worker holding a `running` row and until when; an expired lease is taken again.
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('artifact_id', 'bigint', (c) => c.references('artifacts.id'))
    .addColumn('track', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('stored_at', 'bigint')
    .execute();
  // The worker's claim: due queued rows and expired running ones, oldest due first.
  await db.schema.createIndex('registry_fetches_due_idx').on('registry_fetches').columns(['state', 'next_attempt_at']).execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('registry_fetches').execute();
}

export const registryFetchesMigration: Migration = { up, down };
