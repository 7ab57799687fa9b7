import { sql, type Kysely, type Migration } from 'kysely';
import { addIdColumn, createFieldedTextIndex, createFullTextIndex, dropFieldedTextIndex, dropFullTextIndex, type FieldedTextIndex } from '../dialect.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const ENTRIES_INDEX: FieldedTextIndex = { table: 'search_entries', columns: ['ident_terms', 'other_terms', 'finding_terms'], restrictedColumns: 2 };
const DOCUMENTS_INDEX = { table: 'search_documents', columns: ['primary_terms', 'other_terms'] };

/**
 * Search by audience (docs/search.md): 0008's one document per artifact becomes one entry per
 * artifact and audience (everyone, or the one account whose package references it carries), so an
 * upload's references are found only by the accounts they count for, with the findings-derived
 * words in a column of their own that plans without findings never match. The artifacts an upload
 * registered remember their uploader: such an artifact is readable only where a reference to it
 * counts (docs/artifacts.md, "Who can read an artifact").
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('artifacts').addColumn('uploaded_by', 'text', (c) => c.references('accounts.account_id')).execute();
  // An upload writes the artifact row and its first claim in one transaction with one clock
  // reading, so the claim made at the artifact's own creation instant is the upload that made it;
  // an artifact registered otherwise (benchmark, seed, the operator's loaders) has none.
  await sql`update artifacts set uploaded_by = (
      select min(p.uploaded_by) from artifact_packages p where p.artifact_id = artifacts.id and p.created_at = artifacts.created_at)`.execute(db);

  await dropFullTextIndex(db, DOCUMENTS_INDEX);
  await db.schema.dropTable('search_documents').execute();

  await addIdColumn(db, db.schema.createTable('search_entries'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'bigint', (c) => c.notNull())
    // '' (everyone the artifact is visible to) or the account whose package references the entry carries.
    .addColumn('audience', 'text', (c) => c.notNull())
    // The artifact the entry is about (ref_id itself for an artifact entry): who may see it.
    .addColumn('artifact_id', 'bigint', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('facets', 'text', (c) => c.notNull())
    .addColumn('ident_terms', 'text', (c) => c.notNull())
    .addColumn('other_terms', 'text', (c) => c.notNull())
    .addColumn('finding_terms', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('search_entries_kind_ref_audience_uq', ['kind', 'ref_id', 'audience'])
    .execute();
  await db.schema.createIndex('search_entries_artifact_idx').on('search_entries').columns(['artifact_id', 'kind']).execute();
  await createFieldedTextIndex(db, ENTRIES_INDEX);

  // The index starts empty: `vigil-server migrate` and `serve` rebuild it once when this says so
  // (features/search/reindex-search.ts). A database without artifacts has nothing to rebuild.
  await db.schema
    .createTable('search_index_state')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  const populated = await db.selectFrom('artifacts').select('id').limit(1).executeTakeFirst();
  await db
    .insertInto('search_index_state')
    .values({ name: 'search', state: populated === undefined ? 'built' : 'needed', updated_at: Date.now() })
    .execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('search_index_state').execute();
  await dropFieldedTextIndex(db, ENTRIES_INDEX);
  await db.schema.dropIndex('search_entries_artifact_idx').execute();
  await db.schema.dropTable('search_entries').execute();
  // 0008's empty index again: `vigil-server search reindex` of that version fills it.
  await addIdColumn(db, db.schema.createTable('search_documents'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'bigint', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('facets', 'text', (c) => c.notNull())
    .addColumn('primary_terms', 'text', (c) => c.notNull())
    .addColumn('other_terms', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('search_documents_kind_ref_uq', ['kind', 'ref_id'])
    .execute();
  await createFullTextIndex(db, DOCUMENTS_INDEX);
  await db.schema.alterTable('artifacts').dropColumn('uploaded_by').execute();
}

export const searchAudiencesMigration: Migration = { up, down };
