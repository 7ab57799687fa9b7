import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import { countRedisFailure } from '../../../platform/metrics/index.js';
import type { Database } from '../../../platform/db/schema.js';

/**
 * Remembers which (hotkey, timestamp, signature) triples were used (spec part 5 item 8). Both
 * implementations keep the claims outside the process, so a replay is refused after a restart and
 * on every instance sharing the store.
 */
export interface ReplayStore {
  /**
   * Records one use of the triple for `ttlSeconds` (how long its timestamp stays fresh). True the
   * first time, false for a replay. Rejects when the store cannot be reached: the caller must then
   * refuse the request, since it cannot tell a replay from a first use.
   */
  claim(hotkey: string, timestamp: number, signature: string, ttlSeconds: number): Promise<boolean>;
}

export interface DatabaseReplayStoreOptions {
  /** Clock in epoch ms; tests pass a controllable one. */
  now?: () => number;
  /** Expired rows are deleted at most this often, during a claim. Default one minute. */
  purgeIntervalMs?: number;
}

function assertTtl(ttlSeconds: number): void {
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new RangeError(`ttlSeconds: expected a number of seconds > 0, got ${String(ttlSeconds)}`);
  }
}

/**
 * Claims as rows of `signature_uses`, whose primary key is the triple: the insert that conflicts
 * is the replay. `ON CONFLICT DO NOTHING` (SQLite and PostgreSQL alike) reports it as zero rows
 * inserted instead of raising, so a claim inside a PostgreSQL transaction does not abort it.
 */
export function createDatabaseReplayStore(db: Kysely<Database>, options: DatabaseReplayStoreOptions = {}): ReplayStore {
  const now = options.now ?? Date.now;
  const purgeIntervalMs = options.purgeIntervalMs ?? 60_000;
  let lastPurge = Number.NEGATIVE_INFINITY;
  return {
    async claim(hotkey, timestamp, signature, ttlSeconds) {
      assertTtl(ttlSeconds);
      const at = now();
      if (at - lastPurge >= purgeIntervalMs) {
        lastPurge = at;
        // Opportunistic: a failed purge only leaves rows for the next one.
        await db.deleteFrom('signature_uses').where('expires_at', '<', at).execute().catch(() => undefined);
      }
      const result = await db
        .insertInto('signature_uses')
        .values({ hotkey, timestamp, signature, expires_at: at + Math.ceil(ttlSeconds * 1000) })
        .onConflict((oc) => oc.columns(['hotkey', 'timestamp', 'signature']).doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },
  };
}

export const REDIS_REPLAY_PREFIX = 'vigil:sig-used:';

/** Claims as Redis keys set with NX and a TTL: one round trip, expired by Redis itself. */
export function createRedisReplayStore(redis: Redis): ReplayStore {
  return {
    async claim(hotkey, timestamp, signature, ttlSeconds) {
      assertTtl(ttlSeconds);
      const key = `${REDIS_REPLAY_PREFIX}${hotkey}:${timestamp}:${signature}`;
      try {
        const reply = await redis.set(key, '1', 'PX', Math.ceil(ttlSeconds * 1000), 'NX');
        return reply === 'OK';
      } catch (error) {
        // No fallback here: a replay check not made is a refusal (502), counted for the alert.
        countRedisFailure('replay_store');
        throw error;
      }
    },
  };
}
