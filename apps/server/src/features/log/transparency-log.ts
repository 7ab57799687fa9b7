import { getPublicKey } from '@vigil/crypto';
import {
  EMPTY_TREE_HASH,
  ENTRIES_LEVEL,
  TILE_HEIGHT,
  encodeEntryBundle,
  formatTlogProof,
  formatVerifierKey,
  noteSigner,
  parseTilePath,
  proveInclusion,
  readTileData,
  signCheckpoint,
  treeHash,
  type Tile,
} from '@vigil/tlog';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { bytesToHex, dbHashReader } from './db-hash-reader.js';
import { logSize } from './append-log-entries.js';

/** Hashes per full tile (C2SP tile height 8). */
const TILE_WIDTH = 2 ** TILE_HEIGHT;

export interface SignedCheckpoint {
  size: number;
  /** The root hash, 64 lowercase hex. */
  root: string;
  /** The C2SP signed note, verbatim. */
  note: string;
}

export interface TransparencyLog {
  /** The checkpoint origin line, also the log key's name. */
  readonly origin: string;
  /** The log's verifier key: `<origin>+<key ID>+<base64(0x01 || public key)>`. */
  readonly verifierKey: string;
  /** Signs a checkpoint of the tree as committed now, and keeps it (log_checkpoints). */
  checkpoint(now: number): Promise<SignedCheckpoint>;
  /** A tile or entry bundle's bytes; `path` is `tile/…` as C2SP writes it. */
  tile(path: string): Promise<Uint8Array>;
  /** The newest entry about `subject` and its tlog-proof text, against a fresh checkpoint; null when none. */
  proofFor(subject: string, now: number): Promise<{ entry: string; proof: string } | null>;
}

export interface TransparencyLogOptions {
  db: Kysely<Database>;
  /** The server identity's ed25519 seed (docs/crypto.md): checkpoints are signed with it. */
  secretKey: Uint8Array;
  origin: string;
}

/** How many hashes the tile `n` at `level` holds in a tree of `size` entries (0 to 256). */
export function tileHashesAvailable(size: number, level: number, n: number): number {
  const below = Math.floor(size / TILE_WIDTH ** Math.max(level, 0));
  return Math.max(0, Math.min(TILE_WIDTH, below - n * TILE_WIDTH));
}

export function createTransparencyLog(options: TransparencyLogOptions): TransparencyLog {
  const { db, secretKey, origin } = options;
  const signer = noteSigner(origin, secretKey);
  const verifierKey = formatVerifierKey(origin, getPublicKey(secretKey));
  const reader = dbHashReader(db);

  async function checkpoint(now: number): Promise<SignedCheckpoint> {
    // Stored hashes never change once written, so the hashes of `size` entries are all there
    // however many entries commit after this read.
    const size = await logSize(db);
    const root = size === 0 ? EMPTY_TREE_HASH : await treeHash(size, reader);
    const note = signCheckpoint({ origin, size, root, extensions: [] }, [signer]);
    const signed = { size, root: bytesToHex(root), note };
    await db
      .insertInto('log_checkpoints')
      .values({ ...signed, created_at: now })
      .onConflict((oc) => oc.column('size').doNothing())
      .execute();
    return signed;
  }

  async function entryBundle(tile: Tile): Promise<Uint8Array> {
    const start = tile.n * TILE_WIDTH;
    const rows = await db
      .selectFrom('log_entries')
      .select(['idx', 'entry'])
      .where('idx', '>=', start)
      .where('idx', '<', start + tile.width)
      .orderBy('idx')
      .execute();
    if (rows.length !== tile.width) throw new VigilError('log_tile_not_found');
    const encoder = new TextEncoder();
    return encodeEntryBundle(rows.map((r) => encoder.encode(r.entry)));
  }

  return {
    origin,
    verifierKey,
    checkpoint,
    async tile(path) {
      let tile: Tile;
      try {
        tile = parseTilePath(path);
      } catch {
        throw new VigilError('log_tile_malformed');
      }
      if (tile.level === ENTRIES_LEVEL) return entryBundle(tile);
      const size = await logSize(db);
      if (tile.width > tileHashesAvailable(size, tile.level, tile.n)) throw new VigilError('log_tile_not_found');
      return readTileData(tile, reader);
    },
    async proofFor(subject, now) {
      const row = await db
        .selectFrom('log_entries')
        .select(['idx', 'entry'])
        .where('subject', '=', subject)
        .orderBy('idx', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (row === undefined) return null;
      const signed = await checkpoint(now);
      const index = Number(row.idx);
      const proof = await proveInclusion(signed.size, index, reader);
      return { entry: row.entry, proof: formatTlogProof({ index, proof, checkpoint: signed.note }) };
    },
  };
}
