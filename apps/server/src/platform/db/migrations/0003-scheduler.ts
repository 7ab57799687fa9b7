import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function up(db: AnyDb): Promise<void> {
  // Single-runner leases for background work on SQLite (PostgreSQL uses advisory locks instead;
  // the table exists on both so the schema does not depend on the dialect).
  await db.schema
    .createTable('scheduler_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // The scheduler picks the live artifacts least recently put into a round: last task per artifact.
  await db.schema.createIndex('tasks_artifact_created_idx').on('tasks').columns(['artifact_id', 'created_at']).execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('tasks_artifact_created_idx').execute();
  await db.schema.dropTable('scheduler_leases').execute();
}

export const schedulerMigration: Migration = { up, down };
