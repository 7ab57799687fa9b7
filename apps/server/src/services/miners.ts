import type { Kysely } from 'kysely';
import type { Database, MinersTable, TrackName } from '../db/schema.js';
import { inTransaction } from '../repositories/transaction.js';

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
