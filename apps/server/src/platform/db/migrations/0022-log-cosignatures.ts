import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Witness cosignatures of the transparency log's checkpoints (docs/log.md, "Witnesses"): one row per
 * checkpoint size and witness key, the newest cosignature line that witness submitted for it. Only
 * lines that verified against a configured witness key and a checkpoint the server signed are kept.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('log_cosignatures')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('key_name', 'text', (c) => c.notNull())
    .addColumn('key_id', 'bigint', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('log_cosignatures_pk', ['size', 'key_name', 'key_id'])
    .execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('log_cosignatures').execute();
}

export const logCosignaturesMigration: Migration = { up, down };
