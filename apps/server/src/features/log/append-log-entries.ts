import { storedHashCount, storedHashes } from '@vigil/tlog';
import type { Kysely } from 'kysely';
import { chunkRows } from '../../platform/db/chunk-rows.js';
import { takeTurnsOn } from '../../platform/db/dialect.js';
import type { Database } from '../../platform/db/schema.js';
import { bytesToHex, dbHashReader } from './db-hash-reader.js';
import type { LogEntryInput } from './log-entry.js';

/** The advisory-lock key every append takes (PostgreSQL): one appender at a time, across instances. */
export const LOG_APPEND_LOCK = 'transparency-log';

/** How many entries the log holds (committed, or written earlier in this transaction). */
export async function logSize(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('log_entries')
    .select((eb) => eb.fn.max('idx').as('last'))
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

/**
 * Appends entries to the transparency log inside `trx`, the transaction that records what they
 * log: they commit or roll back with it. Appends take turns (PostgreSQL: a transaction advisory
 * lock held to commit; SQLite: one writer at a time), so indexes run 0, 1, 2, … in commit order
 * with no gap. Writes each entry and every stored hash it adds (its leaf hash and the subtree
 * hashes it completes). Returns the entries' indexes.
 */
export async function appendLogEntries(trx: Kysely<Database>, entries: readonly LogEntryInput[], now: number): Promise<number[]> {
  if (entries.length === 0) return [];
  await takeTurnsOn(trx, LOG_APPEND_LOCK);
  const size = await logSize(trx);
  const pending = new Map<number, Uint8Array>();
  const reader = dbHashReader(trx, pending);
  let next = storedHashCount(size);
  const encoder = new TextEncoder();
  for (const [i, e] of entries.entries()) {
    for (const hash of await storedHashes(size + i, encoder.encode(e.entry), reader)) pending.set(next++, hash);
  }
  const rows = entries.map((e, i) => ({ idx: size + i, type: e.type, subject: e.subject, entry: e.entry, created_at: now }));
  for (const chunk of chunkRows(rows, 5)) await trx.insertInto('log_entries').values(chunk).execute();
  const hashes = [...pending].map(([hashIndex, hash]) => ({ hash_index: hashIndex, hash: bytesToHex(hash) }));
  for (const chunk of chunkRows(hashes, 2)) await trx.insertInto('log_hashes').values(chunk).execute();
  return rows.map((r) => r.idx);
}
