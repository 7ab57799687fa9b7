import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The transparency log (docs/log.md, "The log of this server"): its entries, every stored hash of
 * its Merkle tree (leaf hashes and complete subtree hashes, Go's sumdb/tlog numbering), so tiles and
 * proofs are read, never recomputed from all entries, and the checkpoints it has signed. All three
 * are append-only. Attestations and verdicts stored before this migration have no entry.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('log_entries')
    .addColumn('idx', 'bigint', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('log_entries_subject_idx').on('log_entries').columns(['subject', 'idx']).execute();
  await db.schema
    .createTable('log_hashes')
    .addColumn('hash_index', 'bigint', (c) => c.primaryKey())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('log_checkpoints')
    .addColumn('size', 'bigint', (c) => c.primaryKey())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('log_checkpoints').execute();
  await db.schema.dropTable('log_hashes').execute();
  await db.schema.dropTable('log_entries').execute();
}

export const transparencyLogMigration: Migration = { up, down };
