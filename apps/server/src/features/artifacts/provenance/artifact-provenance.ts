import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { formatOffsetTimestamp, type ArtifactFacts, type ArtifactProvenance } from '@vigil/core';
import type { Kysely, Selectable } from 'kysely';
import type { BlobStore } from '../../../platform/blobs/index.js';
import type { ArtifactProvenanceTable, Database } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { checkProvenance, NotABundleError, provenanceBundle } from './verify-provenance.js';
import { artifactPublicId, findArtifactById } from '../customer-artifacts.js';
import type { ReferenceView } from '../references/reference-claims.js';
import { artifactFacts, FACTS_EXTRACTOR_VERSION } from '../facts/stored-package-facts.js';

type ProvenanceRow = Selectable<ArtifactProvenanceTable>;

function provenanceBody(row: ProvenanceRow & { subject: string }): ArtifactProvenance {
  return {
    artifact_id: artifactPublicId(Number(row.artifact_id)),
    status: 'verified',
    subject: row.subject,
    source_repository: row.source_repository,
    logged_at: row.logged_at === null ? null : formatOffsetTimestamp(Number(row.logged_at)),
    created_at: formatOffsetTimestamp(Number(row.created_at)),
  };
}

/**
 * The artifact's kept bundle: a verified one. Rows that did not verify (stored before such bundles
 * were refused) stand for nobody: they are read as no bundle.
 */
export async function verifiedProvenance(db: Kysely<Database>, artifactId: number): Promise<(ProvenanceRow & { subject: string }) | undefined> {
  const row = await db.selectFrom('artifact_provenance').selectAll().where('artifact_id', '=', artifactId).where('status', '=', 'verified').executeTakeFirst();
  return row === undefined || row.subject === null ? undefined : { ...row, subject: row.subject };
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
 * Attaches a Sigstore provenance bundle to an artifact the calling account uploaded and verifies it
 * offline (docs/package-facts.md, "Provenance"). Only a bundle that verifies against the bytes, under
 * a reference the caller uploaded them as, is stored: it is then a fact about the bytes, shown to
 * every account. One that does not verify is refused with the reason (422) and changes nothing, so no
 * account's bundle can stand for another's. Of two verified bundles the one the transparency log
 * recorded first is kept, whoever attached it: the one closest to publication, and no later signer
 * can move `published_at`.
 */
export async function attachProvenance(
  db: Kysely<Database>,
  blobs: BlobStore,
  input: { artifactId: string; document: unknown; accountId: string; now: number },
): Promise<ArtifactProvenance> {
  // Only the account's own uploads take a bundle: the view of its own claims is the one to read by.
  const artifact = await findArtifactById(db, input.artifactId, { accountId: input.accountId });
  const id = Number(artifact.id);
  const own = await db.selectFrom('artifact_packages').select('purl').where('artifact_id', '=', id).where('uploaded_by', '=', input.accountId).execute();
  if (own.length === 0) throw new VigilError('artifact_unknown');
  let bundle;
  try {
    bundle = provenanceBundle(input.document);
  } catch (error) {
    if (error instanceof NotABundleError) throw new VigilError('validation_error', { issues: [{ path: 'body', message: error.message }], cause: error });
    throw error;
  }
  const sha512Hex = await sha512Of(blobs, artifact.content_hash);
  if (sha512Hex === undefined) {
    throw new VigilError('artifact_not_found', `${artifactPublicId(id)}: its bytes are not in the blob store, so a provenance bundle cannot be verified against them`);
  }
  const check = checkProvenance(bundle, { sha512Hex, purls: own.map((p) => p.purl) });
  if (!check.verified) throw new VigilError('provenance_unverified', { issues: [{ path: 'body', message: check.reason }] });
  return keepVerifiedProvenance(db, {
    artifact_id: id,
    subject: check.subject,
    source_repository: check.source_repository,
    logged_at: check.logged_at,
    bundle: JSON.stringify(input.document),
    uploaded_by: input.accountId,
    created_at: input.now,
  });
}

/** What became of the provenance a registry offered with a fetched version. */
export type RegistryProvenanceOutcome = { kept: true; provenance: ArtifactProvenance } | { kept: false; reason: string };

/**
 * The npm registry's attestations document of a version Vigil fetched (docs/package-facts.md,
 * "Provenance of fetched packages"): checked exactly as an attached bundle is, against the sha512 of
 * the bytes the registry served (checked against `dist.integrity` before they were stored) and the
 * purl they were fetched as, and kept when it verifies, attached by `accountId` (Vigil's registry
 * account). One that does not verify is not kept; the reason is answered for the worker's log.
 */
export async function keepRegistryProvenance(
  db: Kysely<Database>,
  input: { artifactId: number; document: unknown; sha512Hex: string; purl: string; accountId: string; now: number },
): Promise<RegistryProvenanceOutcome> {
  let bundle;
  try {
    bundle = provenanceBundle(input.document);
  } catch (error) {
    if (error instanceof NotABundleError) return { kept: false, reason: error.message };
    throw error;
  }
  const check = checkProvenance(bundle, { sha512Hex: input.sha512Hex, purls: [input.purl] });
  if (!check.verified) return { kept: false, reason: check.reason };
  const provenance = await keepVerifiedProvenance(db, {
    artifact_id: input.artifactId,
    subject: check.subject,
    source_repository: check.source_repository,
    logged_at: check.logged_at,
    bundle: JSON.stringify(input.document),
    uploaded_by: input.accountId,
    created_at: input.now,
  });
  return { kept: true, provenance };
}

export interface VerifiedBundleRow {
  artifact_id: number;
  subject: string;
  source_repository: string | null;
  logged_at: number | null;
  /** The document as sent (JSON text). */
  bundle: string;
  uploaded_by: string;
  created_at: number;
}

/**
 * Stores a verified bundle unless the artifact keeps an earlier-logged one, and answers the kept
 * bundle. A bundle whose log time is unknown never replaces a known one.
 */
export async function keepVerifiedProvenance(db: Kysely<Database>, bundle: VerifiedBundleRow): Promise<ArtifactProvenance> {
  const row = { ...bundle, status: 'verified' as const, reason: null };
  return inTransaction(db, async (trx) => {
    await trx
      .insertInto('artifact_provenance')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('artifact_id')
          .doUpdateSet({
            status: row.status,
            reason: row.reason,
            bundle: row.bundle,
            subject: row.subject,
            source_repository: row.source_repository,
            logged_at: row.logged_at,
            uploaded_by: row.uploaded_by,
            created_at: row.created_at,
          })
          // One statement decides which bundle is kept, so concurrent attachments agree on it.
          .where((eb) =>
            eb.or([
              eb('artifact_provenance.status', '!=', 'verified'),
              eb.and([
                eb('excluded.logged_at', 'is not', null),
                eb.or([eb('artifact_provenance.logged_at', 'is', null), eb('artifact_provenance.logged_at', '>', eb.ref('excluded.logged_at'))]),
              ]),
            ]),
          ),
      )
      .execute();
    const kept = await verifiedProvenance(trx, row.artifact_id);
    if (kept === undefined) throw new Error(`artifact ${row.artifact_id}: the verified bundle just stored is not there`);
    return provenanceBody(kept);
  });
}

/** `GET /v1/artifacts/{id}/facts` (docs/package-facts.md): the facts, computed first when the artifact has none yet. */
export async function artifactFactsDetail(db: Kysely<Database>, blobs: BlobStore, publicId: string, view: ReferenceView, now: number): Promise<ArtifactFacts> {
  const artifact = await findArtifactById(db, publicId, view);
  const id = Number(artifact.id);
  const facts = (await artifactFacts(db, blobs, [id], now)).get(id);
  const [row, provenance] = await Promise.all([
    db.selectFrom('artifact_facts').selectAll().where('artifact_id', '=', id).where('extractor_version', '=', FACTS_EXTRACTOR_VERSION).executeTakeFirst(),
    verifiedProvenance(db, id),
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
    registry_provenance: provenance === undefined ? 'absent' : 'verified',
    published_at: facts?.published_at === null || facts === undefined ? null : formatOffsetTimestamp(facts.published_at),
    provenance: provenance === undefined ? null : provenanceBody(provenance),
  };
}
