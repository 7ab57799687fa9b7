import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { formatOffsetTimestamp, type ArtifactFacts, type ArtifactProvenance } from '@vigil/core';
import type { Kysely, Selectable } from 'kysely';
import type { BlobStore } from '../blobs/index.js';
import type { ArtifactProvenanceTable, Database } from '../db/schema.js';
import { VigilError } from '../errors.js';
import { inTransaction } from '../repositories/transaction.js';
import { checkProvenance, NotABundleError, provenanceBundle } from '../provenance/verify-provenance.js';
import { artifactPublicId, findArtifactById } from './customer-artifacts.js';
import { artifactFacts, FACTS_EXTRACTOR_VERSION } from './package-facts.js';

function provenanceBody(row: Selectable<ArtifactProvenanceTable>): ArtifactProvenance {
  return {
    artifact_id: artifactPublicId(Number(row.artifact_id)),
    status: row.status,
    reason: row.reason,
    subject: row.subject,
    source_repository: row.source_repository,
    logged_at: row.logged_at === null ? null : formatOffsetTimestamp(Number(row.logged_at)),
    created_at: formatOffsetTimestamp(Number(row.created_at)),
  };
}

async function sha512Of(blobs: BlobStore, contentHash: string): Promise<string | undefined> {
  return blobs.withLocalFile(
    contentHash,
    (file) =>
      new Promise<string>((resolve, reject) => {
        const hash = createHash('sha512');
        createReadStream(file.path)
          .on('data', (chunk) => hash.update(chunk))
          .on('error', reject)
          .on('end', () => resolve(hash.digest('hex')));
      }),
  );
}

/**
 * Attaches a Sigstore provenance bundle to an artifact the calling account uploaded, verifies it
 * offline (docs/package-facts.md, "Provenance") and stores the outcome. Another account's artifact,
 * or one that no account uploaded, is 404 like an unknown one. A verified bundle is kept: a later
 * bundle that does not verify does not replace it (the answer is the kept one).
 */
export async function attachProvenance(
  db: Kysely<Database>,
  blobs: BlobStore,
  input: { artifactId: string; document: unknown; accountId: string; now: number },
): Promise<ArtifactProvenance> {
  const artifact = await findArtifactById(db, input.artifactId);
  const id = Number(artifact.id);
  const packages = await db.selectFrom('artifact_packages').select(['purl', 'uploaded_by']).where('artifact_id', '=', id).execute();
  if (!packages.some((p) => p.uploaded_by === input.accountId)) throw new VigilError('artifact_unknown');
  let bundle;
  try {
    bundle = provenanceBundle(input.document);
  } catch (error) {
    if (error instanceof NotABundleError) throw new VigilError('validation_error', { issues: [{ path: 'body', message: error.message }], cause: error });
    throw error;
  }
  const sha512Hex = await sha512Of(blobs, artifact.content_hash);
  const check =
    sha512Hex === undefined
      ? { status: 'present_unverified' as const, reason: "the artifact's bytes are not in the blob store", subject: null, source_repository: null, logged_at: null }
      : checkProvenance(bundle, { sha512Hex, purls: packages.map((p) => p.purl) });
  const row = {
    artifact_id: id,
    ...check,
    bundle: JSON.stringify(input.document),
    uploaded_by: input.accountId,
    created_at: input.now,
  };
  return inTransaction(db, async (trx) => {
    const existing = await trx.selectFrom('artifact_provenance').selectAll().where('artifact_id', '=', id).executeTakeFirst();
    if (existing?.status === 'verified' && row.status !== 'verified') return provenanceBody(existing);
    await trx
      .insertInto('artifact_provenance')
      .values(row)
      .onConflict((oc) =>
        oc.column('artifact_id').doUpdateSet({
          status: row.status,
          reason: row.reason,
          bundle: row.bundle,
          subject: row.subject,
          source_repository: row.source_repository,
          logged_at: row.logged_at,
          uploaded_by: row.uploaded_by,
          created_at: row.created_at,
        }),
      )
      .execute();
    return provenanceBody(row);
  });
}

/** `GET /v1/artifacts/{id}/facts` (docs/package-facts.md): the facts, computed first when the artifact has none yet. */
export async function artifactFactsDetail(db: Kysely<Database>, blobs: BlobStore, publicId: string, now: number): Promise<ArtifactFacts> {
  const artifact = await findArtifactById(db, publicId);
  const id = Number(artifact.id);
  const facts = (await artifactFacts(db, blobs, [id], now)).get(id);
  const [row, provenance] = await Promise.all([
    db.selectFrom('artifact_facts').selectAll().where('artifact_id', '=', id).where('extractor_version', '=', FACTS_EXTRACTOR_VERSION).executeTakeFirst(),
    db.selectFrom('artifact_provenance').selectAll().where('artifact_id', '=', id).executeTakeFirst(),
  ]);
  if (row === undefined) {
    // The bytes are not in the store (facts cannot be read): say so rather than answer empty facts.
    throw new VigilError('artifact_not_found', `${publicId}: its bytes are not in the blob store, so its facts cannot be read`);
  }
  return {
    artifact_id: artifactPublicId(id),
    kind: row.kind === 'none' ? null : row.kind,
    license: row.license,
    license_source: row.license_source,
    install_scripts: JSON.parse(row.install_scripts) as string[],
    registry_provenance: provenance?.status ?? 'absent',
    published_at: facts?.published_at === null || facts === undefined ? null : formatOffsetTimestamp(facts.published_at),
    provenance: provenance === undefined ? null : provenanceBody(provenance),
  };
}
