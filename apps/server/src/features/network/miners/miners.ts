import { formatOffsetTimestamp, MinerAgent } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database, MinersTable, TrackName } from '../../../platform/db/schema.js';
import { inTransaction } from '../../../platform/db/transaction.js';

/** Registers (or re-registers) a miner hotkey on a track. */
export async function registerMiner(
  db: Kysely<Database>,
  input: { hotkey: string; track: TrackName; now: number },
): Promise<MinersTable> {
  return inTransaction(db, async (trx) => {
    await trx
      .insertInto('miners')
      .values({ hotkey: input.hotkey, track: input.track, status: 'registered', registered_at: input.now, updated_at: input.now })
      .onConflict((oc) => oc.columns(['hotkey', 'track']).doUpdateSet({ status: 'registered', updated_at: input.now }))
      .execute();
    return trx
      .selectFrom('miners')
      .selectAll()
      .where('hotkey', '=', input.hotkey)
      .where('track', '=', input.track)
      .executeTakeFirstOrThrow();
  });
}

/** Ends a registration. Its agent stays in history but no longer enters rounds. Returns false when there was none. */
export async function deregisterMiner(
  db: Kysely<Database>,
  input: { hotkey: string; track: TrackName; now: number },
): Promise<boolean> {
  const result = await db
    .updateTable('miners')
    .set({ status: 'deregistered', updated_at: input.now })
    .where('hotkey', '=', input.hotkey)
    .where('track', '=', input.track)
    .where('status', '=', 'registered')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The hotkey's registration on a track, whatever its status. */
export async function findRegistration(db: Kysely<Database>, hotkey: string, track: TrackName): Promise<MinersTable | undefined> {
  return db.selectFrom('miners').selectAll().where('hotkey', '=', hotkey).where('track', '=', track).executeTakeFirst();
}

/** The hotkey's active agent on a track with the time its current version was submitted. */
export async function findActiveAgent(db: Kysely<Database>, hotkey: string, track: TrackName): Promise<MinerAgent | undefined> {
  const row = await db
    .selectFrom('agents')
    .innerJoin('agent_versions', (join) =>
      join
        .onRef('agent_versions.hotkey', '=', 'agents.hotkey')
        .onRef('agent_versions.track', '=', 'agents.track')
        .onRef('agent_versions.version', '=', 'agents.version'),
    )
    .select([
      'agents.hotkey',
      'agents.track',
      'agents.name',
      'agents.provider',
      'agents.version',
      'agents.code_hash',
      'agent_versions.submitted_at',
    ])
    .where('agents.hotkey', '=', hotkey)
    .where('agents.track', '=', track)
    .where('agents.status', '=', 'active')
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return MinerAgent.parse({
    hotkey: row.hotkey,
    track: row.track,
    name: row.name,
    provider: row.provider,
    version: Number(row.version),
    agent_hash: row.code_hash,
    status: 'active',
    submitted_at: formatOffsetTimestamp(Number(row.submitted_at)),
  });
}
