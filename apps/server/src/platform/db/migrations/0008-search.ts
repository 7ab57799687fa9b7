import type { Kysely, Migration } from 'kysely';
import { addIdColumn, createFullTextIndex, dropFullTextIndex } from '../dialect.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Search (docs/search.md): one document per artifact and per attestation, written in the same
 * transaction as the row it describes (platform/search-index.ts), and the database's own
 * full-text index over it: an FTS5 table on SQLite, a tsvector column with a GIN index on
 * PostgreSQL (platform/db/dialect.ts, createFullTextIndex).
 */
async function up(db: AnyDb): Promise<void> {
  await addIdColumn(db, db.schema.createTable('search_documents'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'bigint', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    // JSON object: field name → distinct values, what the snippet is cut from.
    .addColumn('facets', 'text', (c) => c.notNull())
    // Normalized words (lowercase letters and digits, space separated): identifiers rank above the rest.
    .addColumn('primary_terms', 'text', (c) => c.notNull())
    .addColumn('other_terms', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('search_documents_kind_ref_uq', ['kind', 'ref_id'])
    .execute();
  await createFullTextIndex(db, { table: 'search_documents', columns: ['primary_terms', 'other_terms'] });
}

async function down(db: AnyDb): Promise<void> {
  await dropFullTextIndex(db, { table: 'search_documents', columns: ['primary_terms', 'other_terms'] });
  await db.schema.dropTable('search_documents').execute();
}

export const searchMigration: Migration = { up, down };
