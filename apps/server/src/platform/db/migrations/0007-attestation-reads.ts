import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The customer attestation list (docs/customer-attestations.md) reads newest first by
 * (recorded_at, id) and pages with a keyset on that pair, so each filter gets an index that starts
 * with the filtered column and ends with the pair: the first page and the thousandth both seek
 * straight to their rows. Also the metagraph snapshot an attestation was checked against at
 * submission (null for rows recorded before this migration).
 */
const ORDERED_BY_FILTER: Record<string, string | null> = {
  attestations_recorded_idx: null,
  attestations_artifact_recorded_idx: 'artifact_id',
  attestations_validator_recorded_idx: 'validator_hotkey',
  attestations_miner_recorded_idx: 'miner_hotkey',
  attestations_round_recorded_idx: 'round_id',
  attestations_verdict_recorded_idx: 'verdict',
};

async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('attestations').addColumn('metagraph_block', 'bigint').execute();
  await db.schema.alterTable('attestations').addColumn('metagraph_taken_at', 'bigint').execute();
  for (const [name, column] of Object.entries(ORDERED_BY_FILTER)) {
    const columns = column === null ? ['recorded_at', 'id'] : [column, 'recorded_at', 'id'];
    await db.schema.createIndex(name).on('attestations').columns(columns).execute();
  }
  // `sha256=` resolves the content hash to artifact ids first: 0006's artifacts_content_hash_idx
  // (content_hash, track) serves it by its leading column.
}

async function down(db: AnyDb): Promise<void> {
  for (const name of Object.keys(ORDERED_BY_FILTER)) await db.schema.dropIndex(name).execute();
  await db.schema.alterTable('attestations').dropColumn('metagraph_taken_at').execute();
  await db.schema.alterTable('attestations').dropColumn('metagraph_block').execute();
}

export const attestationReadsMigration: Migration = { up, down };
