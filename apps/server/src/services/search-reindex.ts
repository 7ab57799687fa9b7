import type { Finding } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { indexArtifact, indexAttestations } from '../repositories/search-index.js';
import { inTransaction } from '../repositories/transaction.js';

/** Attestations (and artifacts) written per transaction: small enough to keep each short. */
const BATCH = 500;

export interface ReindexResult {
  artifacts: number;
  attestations: number;
}

/**
 * Rebuilds the search documents from the tables they describe (docs/search.md): every artifact,
 * its package references, every attestation. For databases that had rows before migration
 * 0008-search, or after a change of what is indexed. Searches running meanwhile see a partial index.
 */
export async function reindexSearch(db: Kysely<Database>, now: number): Promise<ReindexResult> {
  await db.deleteFrom('search_documents').execute();
  let artifacts = 0;
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('artifacts')
      .select(['id', 'bundle_hash', 'content_hash'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    const ids = rows.map((r) => Number(r.id));
    await inTransaction(db, async (trx) => {
      const packages = await trx.selectFrom('artifact_packages').select(['artifact_id', 'purl']).where('artifact_id', 'in', ids).execute();
      for (const row of rows) {
        const artifact = { id: Number(row.id), bundle_hash: row.bundle_hash, content_hash: row.content_hash };
        const purls = packages.filter((p) => Number(p.artifact_id) === artifact.id).map((p) => p.purl);
        await indexArtifact(trx, artifact, now, purls.length > 0 ? { purl: purls } : {});
      }
    });
    artifacts += rows.length;
    after = ids[ids.length - 1]!;
  }
  let attestations = 0;
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('attestations as a')
      .innerJoin('artifacts as r', 'r.id', 'a.artifact_id')
      .select([
        'a.id',
        'a.canonical_hash',
        'a.task_id',
        'a.round_id',
        'a.track',
        'a.miner_hotkey',
        'a.validator_hotkey',
        'a.verdict',
        'a.findings',
        'r.id as artifact_id',
        'r.bundle_hash',
        'r.content_hash',
      ])
      .where('a.id', '>', after)
      .orderBy('a.id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    await inTransaction(db, (trx) =>
      indexAttestations(
        trx,
        rows.map((row) => ({
          id: Number(row.id),
          canonical_hash: row.canonical_hash,
          task_id: row.task_id,
          round_id: row.round_id,
          track: row.track,
          miner_hotkey: row.miner_hotkey,
          validator_hotkey: row.validator_hotkey,
          verdict: row.verdict,
          findings: JSON.parse(row.findings) as Finding[],
          bundle_hash: row.bundle_hash,
          sha256: row.content_hash,
          artifact: { id: Number(row.artifact_id), bundle_hash: row.bundle_hash, content_hash: row.content_hash },
        })),
        now,
      ),
    );
    attestations += rows.length;
    after = Number(rows[rows.length - 1]!.id);
  }
  return { artifacts, attestations };
}
