import { sql, type Kysely, type Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function up(db: AnyDb): Promise<void> {
  // An organization's policies (docs/policies.md). A deleted policy keeps its row (`deleted_at`) so
  // the evaluations that ran it still name it, and its name becomes free again.
  await db.schema
    .createTable('policies')
    .addColumn('policy_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  // Names are unique among an organization's live policies; a partial index (both dialects have them)
  // lets a deleted policy's name be taken again.
  await db.schema
    .createIndex('policies_account_name_idx')
    .on('policies')
    .columns(['account_id', 'name'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  // Every version as saved: an update writes the next one, evaluations name the one they ran.
  await db.schema
    .createTable('policy_versions')
    .addColumn('policy_id', 'text', (c) => c.notNull().references('policies.policy_id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('policy_versions_pk', ['policy_id', 'version'])
    .execute();
  // Stored answers of POST /v1/policies/evaluate, read back by id by the account that asked.
  await db.schema
    .createTable('policy_evaluations')
    .addColumn('evaluation_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('artifact', 'text', (c) => c.notNull())
    .addColumn('policy_id', 'text', (c) => c.notNull())
    .addColumn('policy_version', 'integer', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('evaluated_at', 'bigint', (c) => c.notNull())
    .execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('policy_evaluations').execute();
  await db.schema.dropTable('policy_versions').execute();
  await db.schema.dropIndex('policies_account_name_idx').execute();
  await db.schema.dropTable('policies').execute();
}

export const policiesMigration: Migration = { up, down };
