import type { Kysely } from 'kysely';
import type { BlobStore } from '../../platform/blobs/index.js';
import type { Database, TrackName, VerdictName } from '../../platform/db/schema.js';
import { registerArtifact, type ArtifactRow } from './register-artifact.js';
import { VigilError } from '../../platform/errors.js';

export type StoreArtifactInput = {
  track: TrackName;
  label: string;
  sourceId: string;
  bytes: Uint8Array;
  now: number;
} & ({ kind: 'labeled'; groundTruth: VerdictName } | { kind: 'live'; groundTruth?: undefined });

/**
 * Puts an artifact's bytes in the blob store and registers the artifact under the content hash of
 * those bytes, so a validator leasing one of its tasks can download exactly what the hash names.
 * The path by which seeds, tests and ingestion add artifacts; idempotent like registerArtifact.
 */
export async function storeArtifact(db: Kysely<Database>, blobs: BlobStore, input: StoreArtifactInput): Promise<ArtifactRow> {
  if (!(input.bytes instanceof Uint8Array)) throw new VigilError('invalid_argument', 'bytes: expected a Uint8Array');
  if (input.bytes.byteLength === 0) throw new VigilError('invalid_argument', 'bytes: an artifact cannot be empty');
  const contentHash = await blobs.put(input.bytes);
  const base = { track: input.track, label: input.label, sourceId: input.sourceId, contentHash, now: input.now };
  return input.kind === 'labeled'
    ? registerArtifact(db, { ...base, kind: 'labeled', groundTruth: input.groundTruth })
    : registerArtifact(db, { ...base, kind: 'live' });
}
