import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { recordKeyUses } from './accounts.js';

export interface KeyUsageRecorder {
  /** Counts one use; nothing is written until the next flush. */
  record(keyId: string, at: number): void;
  /** Writes what was counted since the last flush. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

/**
 * Batches key uses in memory and writes them every `flushMs`, so an authenticated request adds no
 * database write to its own path. A failed flush keeps its counts for the next one; what a crash
 * loses is at most one interval of `use_count` (never access: the key check does not depend on it).
 */
export function createKeyUsageRecorder(
  db: Kysely<Database>,
  options: { flushMs: number; onError: (error: unknown) => void },
): KeyUsageRecorder {
  let pending = new Map<string, { count: number; lastUsedAt: number }>();
  let running: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    running = running.then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await recordKeyUses(db, batch);
      } catch (error) {
        // Put the batch back (merged with uses counted meanwhile) for the next flush.
        for (const [keyId, use] of batch) {
          const now = pending.get(keyId);
          pending.set(keyId, now ? { count: now.count + use.count, lastUsedAt: Math.max(now.lastUsedAt, use.lastUsedAt) } : use);
        }
        options.onError(error);
      }
    });
    return running;
  };

  const timer = setInterval(() => void flush(), options.flushMs);
  timer.unref();

  return {
    record(keyId, at) {
      const use = pending.get(keyId);
      if (use) {
        use.count += 1;
        if (at > use.lastUsedAt) use.lastUsedAt = at;
      } else {
        pending.set(keyId, { count: 1, lastUsedAt: at });
      }
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
