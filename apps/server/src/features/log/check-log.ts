import { EMPTY_TREE_HASH, hashesEqual, leafHash, nodeHash, storedHashIndex, treeHash, type Hash } from '@vigil/tlog';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { bytesToHex, dbHashReader, hexToBytes } from './db-hash-reader.js';
import { logSize } from './append-log-entries.js';

/** Entries read per statement by the check. */
const CHECK_CHUNK = 1_000;

export interface LogCheck {
  /** Entries in the log. */
  size: number;
  /** The size of the newest checkpoint the server signed, null when it never signed one. */
  checkpointSize: number | null;
  /** Null when consistent; otherwise what disagrees. */
  problem: string | null;
}

/**
 * A Merkle tree root computed from leaf hashes as they stream in, in O(log n) memory: the
 * complete subtrees of the entries so far, left to right (what RFC 6962's MTH splits into).
 */
class StreamingRoot {
  private readonly stack: { hash: Hash; size: number }[] = [];

  push(leaf: Hash): void {
    let node = { hash: leaf, size: 1 };
    while (this.stack.length > 0 && this.stack.at(-1)!.size === node.size) {
      const left = this.stack.pop()!;
      node = { hash: nodeHash(left.hash, node.hash), size: left.size * 2 };
    }
    this.stack.push(node);
  }

  root(): Hash {
    if (this.stack.length === 0) return EMPTY_TREE_HASH;
    let hash = this.stack.at(-1)!.hash;
    for (let i = this.stack.length - 2; i >= 0; i--) hash = nodeHash(this.stack[i]!.hash, hash);
    return hash;
  }
}

/**
 * The startup check (docs/log.md, "Startup check"): recomputes the root from the entries
 * themselves and checks that every entry's leaf hash is the stored one, that indexes run 0 to
 * size − 1, that the stored hashes give the same root, and that the tree at the size of the newest
 * signed checkpoint has that checkpoint's root. Reads every entry once.
 */
export async function checkTransparencyLog(db: Kysely<Database>): Promise<LogCheck> {
  // Other instances keep appending and signing while an instance starts (the soak run restarts one
  // under load): the check judges the tree as of its first reads. The checkpoint is read before the
  // size, so a checkpoint signed meanwhile (over more entries than the size read) is not taken for
  // missing entries, and every entry read is bounded by that size.
  const last = await db.selectFrom('log_checkpoints').select(['size', 'root']).orderBy('size', 'desc').limit(1).executeTakeFirst();
  const size = await logSize(db);
  const checkpointSize = last === undefined ? null : Number(last.size);
  const result = (problem: string | null): LogCheck => ({ size, checkpointSize, problem });
  if (checkpointSize !== null && checkpointSize > size) {
    return result(`the log holds ${size} entries but a checkpoint of ${checkpointSize} was signed: entries are missing`);
  }
  const reader = dbHashReader(db);
  const streaming = new StreamingRoot();
  const encoder = new TextEncoder();
  let rootAtCheckpoint: Hash | null = checkpointSize === 0 ? EMPTY_TREE_HASH : null;
  for (let start = 0; start < size; start += CHECK_CHUNK) {
    const rows = await db
      .selectFrom('log_entries')
      .select(['idx', 'entry'])
      .where('idx', '>=', start)
      .where('idx', '<', Math.min(start + CHECK_CHUNK, size))
      .orderBy('idx')
      .execute();
    const expected = Math.min(CHECK_CHUNK, size - start);
    if (rows.length !== expected) return result(`entries ${start} to ${start + expected - 1}: ${expected - rows.length} missing`);
    let stored: Hash[];
    try {
      stored = await reader.readHashes(rows.map((r) => storedHashIndex(0, Number(r.idx))));
    } catch (error) {
      return result(`stored leaf hashes of entries ${start} to ${start + expected - 1}: ${(error as Error).message}`);
    }
    for (const [i, row] of rows.entries()) {
      const leaf = leafHash(encoder.encode(row.entry));
      if (!hashesEqual(leaf, stored[i]!)) return result(`entry ${String(row.idx)}: its leaf hash is not the stored one (the entry was changed)`);
      streaming.push(leaf);
      if (Number(row.idx) + 1 === checkpointSize) rootAtCheckpoint = streaming.root();
    }
  }
  const fromEntries = streaming.root();
  let fromHashes: Hash;
  try {
    fromHashes = size === 0 ? EMPTY_TREE_HASH : await treeHash(size, reader);
  } catch (error) {
    return result(`stored hashes: ${(error as Error).message}`);
  }
  if (!hashesEqual(fromEntries, fromHashes)) {
    return result(`the root of the entries (${bytesToHex(fromEntries)}) is not the root of the stored hashes (${bytesToHex(fromHashes)})`);
  }
  if (last !== undefined && !hashesEqual(rootAtCheckpoint!, hexToBytes(last.root))) {
    return result(`the tree of ${checkpointSize} entries has root ${bytesToHex(rootAtCheckpoint!)}, not the signed checkpoint's ${last.root}`);
  }
  return result(null);
}
