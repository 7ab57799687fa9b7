import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';
import { inTransaction } from '../../../platform/db/transaction.js';

export interface CreatedTask {
  taskId: string;
  hotkey: string;
  bundleHash: string;
}

/**
 * Creates one task per (frozen agent, artifact) of a round in its evaluation phase. Artifacts must
 * exist and belong to the round's track. A pair that already has a task is skipped, so calling it
 * again with more artifacts only adds the new ones. Returns the tasks created by this call.
 */
export async function createTasks(
  db: Kysely<Database>,
  input: { roundId: string; bundleHashes: readonly string[]; now: number },
): Promise<CreatedTask[]> {
  if (input.bundleHashes.length === 0) throw new VigilError('invalid_argument', 'bundleHashes: must not be empty');
  return inTransaction(db, async (trx) => {
    const round = await trx.selectFrom('rounds').selectAll().where('round_id', '=', input.roundId).executeTakeFirst();
    if (round === undefined) throw new VigilError('round_not_found');
    if (round.status !== 'open' || round.phase !== 'evaluation') {
      throw new VigilError('round_wrong_phase', `roundId: round ${round.round_id} is not in its evaluation phase`);
    }
    const wanted = [...new Set(input.bundleHashes)];
    const artifacts = await trx
      .selectFrom('artifacts')
      .select(['id', 'bundle_hash', 'track'])
      .where('bundle_hash', 'in', wanted)
      .execute();
    const byHash = new Map(artifacts.map((a) => [a.bundle_hash, a]));
    for (const hash of wanted) {
      const artifact = byHash.get(hash);
      if (artifact === undefined) throw new VigilError('artifact_not_found', `bundleHashes: unknown artifact ${hash}`);
      if (artifact.track !== round.track) {
        throw new VigilError('invalid_argument', `bundleHashes: ${hash} is not on track ${round.track}`);
      }
    }
    const agents = await trx.selectFrom('round_agents').select('hotkey').where('round_id', '=', round.round_id).execute();
    const existing = await trx
      .selectFrom('tasks')
      .select(['hotkey', 'artifact_id'])
      .where('round_id', '=', round.round_id)
      .execute();
    const taken = new Set(existing.map((t) => `${t.hotkey} ${t.artifact_id}`));
    const created: CreatedTask[] = [];
    const rows: Database['tasks'][] = [];
    for (const agent of agents) {
      for (const hash of wanted) {
        const artifact = byHash.get(hash)!;
        if (taken.has(`${agent.hotkey} ${artifact.id}`)) continue;
        const taskId = randomUUID();
        rows.push({ task_id: taskId, round_id: round.round_id, hotkey: agent.hotkey, artifact_id: artifact.id, created_at: input.now, fast: 0 });
        created.push({ taskId, hotkey: agent.hotkey, bundleHash: hash });
      }
    }
    // Batched so a large round stays under SQLite's bound-parameter limit.
    for (let i = 0; i < rows.length; i += 500) {
      await trx.insertInto('tasks').values(rows.slice(i, i + 500)).execute();
    }
    return created;
  });
}
