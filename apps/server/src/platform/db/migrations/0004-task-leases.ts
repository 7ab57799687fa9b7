import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function up(db: AnyDb): Promise<void> {
  // One row per (task, validator) ever leased: the key itself enforces "never the same task twice
  // to one validator", and an expired row keeps doing so after its replica slot has been freed.
  await db.schema
    .createTable('task_leases')
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.task_id'))
    .addColumn('validator_hotkey', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('leased_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addPrimaryKeyConstraint('task_leases_pk', ['task_id', 'validator_hotkey'])
    .execute();
  // Access checks (downloads, progress, submission) look up a validator's live leases.
  await db.schema
    .createIndex('task_leases_validator_idx')
    .on('task_leases')
    .columns(['validator_hotkey', 'expires_at'])
    .execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('task_leases_validator_idx').execute();
  await db.schema.dropTable('task_leases').execute();
}

export const taskLeasesMigration: Migration = { up, down };
