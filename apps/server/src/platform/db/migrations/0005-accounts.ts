import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function up(db: AnyDb): Promise<void> {
  // Organizations and personal accounts share one table: a key belongs to exactly one account, and
  // an account's kind decides which policy its keys apply (spec part 5 item 4).
  await db.schema
    .createTable('accounts')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Only the SHA-256 of the secret is kept; the key id is the lookup key.
  await db.schema
    .createTable('api_keys')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('use_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_account_idx').on('api_keys').columns(['account_id', 'created_at']).execute();
  // Every administrative action: who (key id or the operator's command), what, on what, when, from where.
  await db.schema
    .createTable('audit_log')
    .addColumn('entry_id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('source_ip', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'entry_id']).execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('audit_log_at_idx').execute();
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropIndex('api_keys_account_idx').execute();
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('accounts').execute();
}

export const accountsMigration: Migration = { up, down };
