import type { HashReader } from '@vigil/tlog';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** Stored hashes read per statement (a tile is 256). */
const READ_CHUNK = 512;

export function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/**
 * A HashReader over the `log_hashes` table, and over `pending` (hashes of this transaction not yet
 * written). A hash that is not there makes the read fail (@vigil/tlog reports `hash_reader`).
 */
export function dbHashReader(db: Kysely<Database>, pending?: ReadonlyMap<number, Uint8Array>): HashReader {
  return {
    async readHashes(indexes) {
      const found = new Map<number, Uint8Array>();
      const wanted = [...new Set(indexes.filter((i) => !pending?.has(i)))];
      for (let start = 0; start < wanted.length; start += READ_CHUNK) {
        const rows = await db
          .selectFrom('log_hashes')
          .select(['hash_index', 'hash'])
          .where('hash_index', 'in', wanted.slice(start, start + READ_CHUNK))
          .execute();
        for (const r of rows) found.set(Number(r.hash_index), hexToBytes(r.hash));
      }
      return indexes.map((i) => {
        const hash = pending?.get(i) ?? found.get(i);
        if (hash === undefined) throw new Error(`log_hashes: no stored hash ${i}`);
        return hash;
      });
    },
  };
}
