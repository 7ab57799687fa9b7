import type { Finding } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { indexArtifact, indexAttestations, indexClaims } from '../../platform/search-index.js';
import { inTransaction } from '../../platform/db/transaction.js';

/** Attestations (and artifacts) written per transaction: small enough to keep each short. */
const BATCH = 500;

export interface ReindexResult {
  artifacts: number;
  attestations: number;
}

/**
 * Rebuilds the search entries from the tables they describe (docs/search.md): every artifact, its
 * package references (each claim in its account's entry), every attestation. For databases that had
 * rows before migration 0016, or after a change of what is indexed. Searches running meanwhile see
 * a partial index. Leaves the index marked built.
 */
export async function reindexSearch(db: Kysely<Database>, now: number): Promise<ReindexResult> {
  await db.deleteFrom('search_entries').execute();
  let artifacts = 0;
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('artifacts')
      .select(['id', 'bundle_hash', 'content_hash', 'uploaded_by'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    const ids = rows.map((r) => Number(r.id));
    await inTransaction(db, async (trx) => {
      const claims = await trx
        .selectFrom('artifact_packages')
        .select(['artifact_id', 'purl', 'uploaded_by'])
        .where('artifact_id', 'in', ids)
        .orderBy('created_at')
        .orderBy('purl')
        .orderBy('uploaded_by')
        .execute();
      const byId = new Map(rows.map((row) => [Number(row.id), { id: Number(row.id), bundle_hash: row.bundle_hash, content_hash: row.content_hash, uploaded_by: row.uploaded_by }]));
      for (const artifact of byId.values()) await indexArtifact(trx, artifact, now);
      await indexClaims(
        trx,
        claims.map((c) => ({ artifact: byId.get(Number(c.artifact_id))!, accountId: c.uploaded_by, purl: c.purl })),
        now,
      );
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
  await db.updateTable('search_index_state').set({ state: 'built', updated_at: now }).where('name', '=', 'search').execute();
  return { artifacts, attestations };
}

/**
 * Rebuilds the index once when a migration left it to be rebuilt (0016: `search_index_state` says
 * `needed`), for `vigil-server migrate` and `serve`. One process claims the rebuild (needed →
 * building); others starting at the same time go on without waiting. A rebuild that fails puts
 * `needed` back; one whose process dies stays `building` until `vigil-server search reindex` runs.
 * Returns what it indexed, or null when nothing was needed.
 */
export async function reindexSearchIfNeeded(db: Kysely<Database>, now: () => number): Promise<ReindexResult | null> {
  const claimed = await db
    .updateTable('search_index_state')
    .set({ state: 'building', updated_at: now() })
    .where('name', '=', 'search')
    .where('state', '=', 'needed')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return null;
  try {
    return await reindexSearch(db, now());
  } catch (error) {
    await db.updateTable('search_index_state').set({ state: 'needed', updated_at: now() }).where('name', '=', 'search').execute();
    throw error;
  }
}
