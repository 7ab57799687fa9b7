import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * One row per accepted signed request (spec part 5 item 8: a hotkey, timestamp and signature
 * triple is used once). The primary key is the triple, so a second insert of it conflicts on every
 * instance sharing the database. `expires_at` (epoch ms) is when the timestamp leaves the freshness
 * window; rows past it can no longer be replayed (freshness refuses them first) and are purged.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('signature_uses')
    .addColumn('hotkey', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('signature_uses_pk', ['hotkey', 'timestamp', 'signature'])
    .execute();
  await db.schema.createIndex('signature_uses_expires_idx').on('signature_uses').column('expires_at').execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('signature_uses').execute();
}

export const signedRequestsMigration: Migration = { up, down };
