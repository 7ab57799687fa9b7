import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The validator's DSSE signature of an attestation's in-toto statement (docs/attestations.md, "In-toto
 * statement and DSSE envelope"), 128 hex, sent beside the envelope by validators that sign it. Nullable:
 * older rows and older validators have none, and the previous release neither reads nor writes it.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('attestations').addColumn('dsse_signature', 'text').execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('attestations').dropColumn('dsse_signature').execute();
}

export const attestationDsseMigration: Migration = { up, down };
