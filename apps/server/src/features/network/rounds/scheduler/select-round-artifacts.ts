import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, TrackName } from '../../../../platform/db/schema.js';

export interface RoundArtifactSelection {
  labeled: string[];
  live: string[];
}

function sampleKey(roundId: string, bundleHash: string): string {
  return createHash('sha256').update(`${roundId}\n${bundleHash}`).digest('hex');
}

/**
 * The bundle hashes a round evaluates. Labeled: a sample of `labeled` artifacts of the track,
 * ordered by sha256(round_id, bundle_hash), so the sample is the same whenever it is recomputed
 * for a round and differs from round to round. Live: the `live` artifacts of the track least
 * recently put into a round (never first, then by their latest round task: fast tasks, made between
 * rounds, do not count), oldest registration first on ties, so every live artifact is re-evaluated
 * in turn and one decided between rounds enters the next round like a new one.
 */
export async function selectRoundArtifacts(
  db: Kysely<Database>,
  input: { roundId: string; track: TrackName; labeled: number; live: number },
): Promise<RoundArtifactSelection> {
  const labeledRows =
    input.labeled > 0
      ? await db
          .selectFrom('artifacts')
          .select('bundle_hash')
          .where('track', '=', input.track)
          .where('kind', '=', 'labeled')
          .execute()
      : [];
  const labeled = labeledRows
    .map((r) => ({ hash: r.bundle_hash, key: sampleKey(input.roundId, r.bundle_hash) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, input.labeled)
    .map((r) => r.hash);

  const live =
    input.live > 0
      ? await db
          .selectFrom('artifacts')
          .leftJoin('tasks', (j) => j.onRef('tasks.artifact_id', '=', 'artifacts.id').on('tasks.fast', '=', 0))
          .select('artifacts.bundle_hash')
          .where('artifacts.track', '=', input.track)
          .where('artifacts.kind', '=', 'live')
          .groupBy(['artifacts.id', 'artifacts.bundle_hash'])
          .orderBy(sql`coalesce(max(tasks.created_at), -1)`)
          .orderBy('artifacts.id')
          .limit(input.live)
          .execute()
      : [];
  return { labeled, live: live.map((r) => r.bundle_hash) };
}
