import { sql, type Kysely, type Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const COLUMNS = ['artifact_id', 'purl', 'ecosystem', 'namespace', 'name', 'version', 'uploaded_by', 'size', 'media_type', 'created_at'] as const;

/** artifact_packages' columns as 0006 made them, under another table name and primary key. */
async function createClaimsTable(db: AnyDb, table: string, pk: { name: string; columns: string[] }): Promise<void> {
  await db.schema
    .createTable(table)
    .addColumn('artifact_id', 'bigint', (c) => c.notNull().references('artifacts.id'))
    .addColumn('purl', 'text', (c) => c.notNull())
    .addColumn('ecosystem', 'text', (c) => c.notNull())
    .addColumn('namespace', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text')
    .addColumn('uploaded_by', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint(pk.name, pk.columns as never)
    .execute();
}

async function up(db: AnyDb): Promise<void> {
  // Accounts the operator vouches for: their package-reference claims count for every account
  // (docs/artifacts.md, "Whose references count"). 0/1, as round_results.winner.
  await db.schema.alterTable('accounts').addColumn('trusted', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('accounts_trusted_idx').on('accounts').columns(['trusted', 'account_id']).execute();

  // A reference is a claim by one account: two accounts may claim the same reference for the same
  // bytes, each claim its own row, so the key gains the uploader. Neither dialect can change a
  // primary key in place portably, so the table is rebuilt under its name.
  await createClaimsTable(db, 'artifact_packages_v2', { name: 'artifact_packages_claim_pk', columns: ['artifact_id', 'purl', 'uploaded_by'] });
  await db
    .insertInto('artifact_packages_v2')
    .columns([...COLUMNS])
    .expression(db.selectFrom('artifact_packages').select([...COLUMNS]))
    .execute();
  await db.schema.dropIndex('artifact_packages_purl_idx').execute();
  await db.schema.dropTable('artifact_packages').execute();
  await db.schema.alterTable('artifact_packages_v2').renameTo('artifact_packages').execute();
  // Verification and lookups read a purl's claims by the accounts that count: the uploader is in
  // the index, so another account's claims are passed over without reading their rows.
  await db.schema.createIndex('artifact_packages_purl_idx').on('artifact_packages').columns(['purl', 'uploaded_by', 'artifact_id']).execute();
}

async function down(db: AnyDb): Promise<void> {
  await createClaimsTable(db, 'artifact_packages_v1', { name: 'artifact_packages_pk_v1', columns: ['artifact_id', 'purl'] });
  // One row per (artifact, purl) again: the first claim of each is kept.
  await db
    .insertInto('artifact_packages_v1')
    .columns([...COLUMNS])
    .expression(
      db
        .selectFrom('artifact_packages as p')
        .select(COLUMNS.map((c) => `p.${c}` as const))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('artifact_packages as earlier')
                .select(sql`1`.as('one'))
                .whereRef('earlier.artifact_id', '=', 'p.artifact_id')
                .whereRef('earlier.purl', '=', 'p.purl')
                .where((eb) =>
                  eb.or([
                    eb('earlier.created_at', '<', eb.ref('p.created_at')),
                    eb.and([eb('earlier.created_at', '=', eb.ref('p.created_at')), eb('earlier.uploaded_by', '<', eb.ref('p.uploaded_by'))]),
                  ]),
                ),
            ),
          ),
        ),
    )
    .execute();
  await db.schema.dropIndex('artifact_packages_purl_idx').execute();
  await db.schema.dropTable('artifact_packages').execute();
  await db.schema.alterTable('artifact_packages_v1').renameTo('artifact_packages').execute();
  await db.schema.createIndex('artifact_packages_purl_idx').on('artifact_packages').columns(['purl', 'artifact_id']).execute();
  await db.schema.dropIndex('accounts_trusted_idx').execute();
  await db.schema.alterTable('accounts').dropColumn('trusted').execute();
}

export const referenceTrustMigration: Migration = { up, down };
