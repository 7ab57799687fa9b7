import type { Kysely, Selectable } from 'kysely';
import { readArchive } from '../archive/archive-listing.js';
import { isPackageFactFile, packageFactsOf, type ArchivePackageFacts } from './archive-package-facts.js';
import type { BlobStore } from '../../../platform/blobs/index.js';
import type { ArtifactFactsTable, ArtifactProvenanceTable, Database } from '../../../platform/db/schema.js';
import type { PackageFacts } from './package-facts.js';

/**
 * The version of the extraction rules (features/artifacts/facts/archive-package-facts.ts). A stored row computed by older
 * rules is computed again the next time it is read, so a change of rules needs no migration: bump this.
 */
export const FACTS_EXTRACTOR_VERSION = 1;

/** Archives read at once when facts are computed lazily (each read is bounded by the archive limits). */
const LAZY_READS_AT_ONCE = 4;

type FactsRow = Selectable<ArtifactFactsTable>;

/** The stored row of what an archive read found (`undefined`: not a package archive the rules read). */
export function factsRow(artifactId: number, facts: ArchivePackageFacts | undefined, now: number): FactsRow {
  return {
    artifact_id: artifactId,
    extractor_version: FACTS_EXTRACTOR_VERSION,
    kind: facts?.kind ?? 'none',
    license: facts?.license ?? null,
    license_source: facts?.license_source ?? null,
    install_scripts: JSON.stringify(facts?.install_scripts ?? []),
    computed_at: now,
  };
}

/** Reads an artifact's archive from the blob store; undefined when the store does not hold the bytes. */
export async function readPackageFacts(blobs: BlobStore, contentHash: string, ecosystem: string | null): Promise<{ facts: ArchivePackageFacts | undefined } | undefined> {
  return blobs.withLocalFile(contentHash, async (file) => ({ facts: packageFactsOf(await readArchive(file.path, { capture: isPackageFactFile }), ecosystem) }));
}

async function storeFacts(db: Kysely<Database>, rows: readonly FactsRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('artifact_facts')
    .values([...rows])
    .onConflict((oc) =>
      oc.column('artifact_id').doUpdateSet((eb) => ({
        extractor_version: eb.ref('excluded.extractor_version'),
        kind: eb.ref('excluded.kind'),
        license: eb.ref('excluded.license'),
        license_source: eb.ref('excluded.license_source'),
        install_scripts: eb.ref('excluded.install_scripts'),
        computed_at: eb.ref('excluded.computed_at'),
      })),
    )
    .execute();
}

/**
 * Computes and stores the facts of the artifacts that have no current row (older artifacts: the demo
 * data, uploads from before migration 0011, rows of older rules). Artifacts whose bytes the store
 * does not hold are left without a row, and tried again next time.
 */
export async function computeMissingFacts(db: Kysely<Database>, blobs: BlobStore, artifactIds: readonly number[], now: number): Promise<FactsRow[]> {
  if (artifactIds.length === 0) return [];
  const rows = await db
    .selectFrom('artifacts')
    .leftJoin('artifact_packages', 'artifact_packages.artifact_id', 'artifacts.id')
    .select(['artifacts.id', 'artifacts.content_hash', 'artifact_packages.ecosystem'])
    .where('artifacts.id', 'in', [...artifactIds])
    .orderBy('artifacts.id')
    .execute();
  const targets = new Map<number, { contentHash: string; ecosystem: string | null }>();
  for (const row of rows) {
    const id = Number(row.id);
    if (!targets.has(id)) targets.set(id, { contentHash: row.content_hash, ecosystem: row.ecosystem });
  }
  const computed: FactsRow[] = [];
  const queue = [...targets];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const [id, target] = next;
      const read = await readPackageFacts(blobs, target.contentHash, target.ecosystem);
      if (read !== undefined) computed.push(factsRow(id, read.facts, now));
    }
  };
  await Promise.all(Array.from({ length: LAZY_READS_AT_ONCE }, worker));
  await storeFacts(db, computed);
  return computed;
}

/** `provenance`: the artifact's verified bundle, if it has one (artifact-provenance.ts keeps no other). */
function publicFacts(row: FactsRow, provenance: Pick<ArtifactProvenanceTable, 'logged_at'> | undefined): PackageFacts {
  return {
    license: row.license,
    install_scripts: JSON.parse(row.install_scripts) as string[],
    registry_provenance: provenance === undefined ? 'absent' : 'verified',
    published_at: provenance !== undefined && provenance.logged_at !== null ? Number(provenance.logged_at) : null,
  };
}

/**
 * The facts of each artifact that is a package archive (docs/package-facts.md), keyed by artifact
 * row id: stored rows in one query with their provenance; artifacts without a current row are read
 * once from the blob store and stored. An artifact that is not a package archive, or whose bytes are
 * not in the store, is absent from the map.
 */
export async function artifactFacts(db: Kysely<Database>, blobs: BlobStore, artifactIds: readonly number[], now: number): Promise<Map<number, PackageFacts>> {
  const result = new Map<number, PackageFacts>();
  const ids = [...new Set(artifactIds)];
  if (ids.length === 0) return result;
  const stored = await db
    .selectFrom('artifact_facts as f')
    // Only a verified bundle counts; a row that did not verify (stored before they were refused) is no bundle.
    .leftJoin('artifact_provenance as p', (join) => join.onRef('p.artifact_id', '=', 'f.artifact_id').on('p.status', '=', 'verified'))
    .selectAll('f')
    .select(['p.status', 'p.logged_at'])
    .where('f.artifact_id', 'in', ids)
    .execute();
  const current = new Map<number, FactsRow>();
  const provenance = new Map<number, Pick<ArtifactProvenanceTable, 'logged_at'>>();
  for (const row of stored) {
    const id = Number(row.artifact_id);
    if (row.status !== null) provenance.set(id, { logged_at: row.logged_at });
    if (row.extractor_version === FACTS_EXTRACTOR_VERSION) current.set(id, { ...row, artifact_id: id });
  }
  const missing = ids.filter((id) => !current.has(id));
  if (missing.length > 0) {
    for (const row of await computeMissingFacts(db, blobs, missing, now)) current.set(row.artifact_id, row);
    // A provenance bundle can exist for an artifact whose facts were never computed before.
    const late = await db
      .selectFrom('artifact_provenance')
      .select(['artifact_id', 'logged_at'])
      .where('artifact_id', 'in', missing)
      .where('status', '=', 'verified')
      .execute();
    for (const row of late) provenance.set(Number(row.artifact_id), { logged_at: row.logged_at });
  }
  for (const id of ids) {
    const row = current.get(id);
    if (row === undefined || row.kind === 'none') continue;
    result.set(id, publicFacts(row, provenance.get(id)));
  }
  return result;
}

/** Artifacts read per backfill step. */
const BACKFILL_BATCH = 200;

/**
 * Computes the facts of every artifact without a current row, oldest first (`vigil-server facts
 * backfill`). The same work a first read does lazily, done ahead of time.
 */
export async function backfillFacts(db: Kysely<Database>, blobs: BlobStore, now: () => number): Promise<{ computed: number; packages: number; unavailable: number }> {
  let computed = 0;
  let packages = 0;
  let unavailable = 0;
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('artifacts')
      .leftJoin('artifact_facts', 'artifact_facts.artifact_id', 'artifacts.id')
      .select(['artifacts.id', 'artifact_facts.extractor_version'])
      .where('artifacts.id', '>', after)
      .orderBy('artifacts.id')
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1]!.id);
    const missing = rows.filter((r) => r.extractor_version !== FACTS_EXTRACTOR_VERSION).map((r) => Number(r.id));
    const stored = await computeMissingFacts(db, blobs, missing, now());
    computed += stored.length;
    packages += stored.filter((r) => r.kind !== 'none').length;
    unavailable += missing.length - stored.length;
  }
  return { computed, packages, unavailable };
}
