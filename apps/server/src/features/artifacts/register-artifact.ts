import { SHA256_HASH_RE, formatBundleHash } from '@vigil/core';
import type { Kysely, Selectable } from 'kysely';
import type { ArtifactsTable, Database, TrackName, VerdictName } from '../../platform/db/schema.js';
import { indexArtifact } from '../../platform/search-index.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { VigilError } from '../../platform/errors.js';

export type ArtifactRow = Selectable<ArtifactsTable>;

export type RegisterArtifactInput = {
  track: TrackName;
  label: string;
  sourceId: string;
  /** `sha256:<hex>` of the artifact bytes. */
  contentHash: string;
  now: number;
  /** The account whose upload registers it (customer-artifacts.ts); absent for every other path. */
  uploadedBy?: string;
} & ({ kind: 'labeled'; groundTruth: VerdictName } | { kind: 'live' });

/**
 * Adds an artifact under its bundle hash `{track}/{label}/{source_id}`. Registering the same
 * artifact again is a no-op; the same bundle hash with other content, kind or ground truth is refused.
 */
export async function registerArtifact(db: Kysely<Database>, input: RegisterArtifactInput): Promise<ArtifactRow> {
  let bundleHash: string;
  try {
    bundleHash = formatBundleHash({ track: input.track, label: input.label, sourceId: input.sourceId });
  } catch (error) {
    throw new VigilError('invalid_argument', (error as Error).message);
  }
  if (!SHA256_HASH_RE.test(input.contentHash)) {
    throw new VigilError('invalid_argument', 'contentHash: expected sha256:<64 lowercase hex>');
  }
  const groundTruth = input.kind === 'labeled' ? input.groundTruth : null;
  return inTransaction(db, async (trx) => {
    const existing = await trx.selectFrom('artifacts').selectAll().where('bundle_hash', '=', bundleHash).executeTakeFirst();
    if (existing !== undefined) {
      if (existing.content_hash !== input.contentHash || existing.kind !== input.kind || existing.ground_truth !== groundTruth) {
        throw new VigilError('artifact_conflict', `bundleHash: ${bundleHash} is already registered with other content`);
      }
      return existing;
    }
    await trx
      .insertInto('artifacts')
      .values({
        bundle_hash: bundleHash,
        track: input.track,
        label: input.label,
        source_id: input.sourceId,
        content_hash: input.contentHash,
        kind: input.kind,
        ground_truth: groundTruth,
        created_at: input.now,
        uploaded_by: input.uploadedBy ?? null,
      })
      .execute();
    const row = await trx.selectFrom('artifacts').selectAll().where('bundle_hash', '=', bundleHash).executeTakeFirstOrThrow();
    await indexArtifact(trx, row, input.now);
    return row;
  });
}
