import { getPublicKey } from '@vigil/crypto';
import {
  EMPTY_TREE_HASH,
  TlogError,
  cosignatureTimestamp,
  cosignatureVerifier,
  formatKeyId,
  noteVerifier,
  openCheckpoint,
  proveConsistency,
  type Hash,
  type NoteVerifier,
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
  /** Signs a checkpoint of the tree as committed now, keeps it (log_checkpoints), and adds the cosignatures kept for its size. */
  checkpoint(now: number): Promise<SignedCheckpoint>;
  /**
   * Signs and keeps a checkpoint as `checkpoint` does, but answers the log's signature only: for
   * a caller that only keeps checkpoints (the periodic checkpointer), which then reads no cosignature.
   */
  keepCheckpoint(now: number): Promise<SignedCheckpoint>;
  /** A tile or entry bundle's bytes; `path` is `tile/…` as C2SP writes it. */
  tile(path: string): Promise<Uint8Array>;
  /** The newest entry about `subject` and its tlog-proof text, against a fresh checkpoint; null when none. */
  proofFor(subject: string, now: number): Promise<{ entry: string; proof: string } | null>;
  /** The RFC 6962 consistency proof from tree size `from` to tree size `to` (1 ≤ from ≤ to ≤ size). */
  consistency(from: number, to: number): Promise<Hash[]>;
  /**
   * Keeps the cosignatures of configured witnesses found on `note`, a checkpoint this log signed;
   * answers the checkpoint with every cosignature kept for it. Refuses (log_cosignature_refused) anything else.
   */
  addCosignatures(note: string, now: number): Promise<SignedCheckpoint>;
}

export interface TransparencyLogOptions {
  db: Kysely<Database>;
  /** The server identity's ed25519 seed (docs/crypto.md): checkpoints are signed with it. */
  secretKey: Uint8Array;
  origin: string;
  /** Witness verifier keys (type 0x04, C2SP tlog-cosignature) whose cosignatures are kept and served. */
  witnesses?: readonly string[];
}

/** The log origin when VIGIL_LOG_ORIGIN is unset: names the server's key, so two servers never share one. */
export function defaultLogOrigin(serverPublicKeyHex: string): string {
  return `vigil/${serverPublicKeyHex}`;
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
  const logVerifier = noteVerifier(verifierKey);
  const witnesses: NoteVerifier[] = (options.witnesses ?? []).map((vkey) => cosignatureVerifier(vkey));
  const reader = dbHashReader(db);

  /** The cosignature lines kept for the checkpoint of `size`, by witnesses configured now. */
  async function cosignatureLines(size: number): Promise<string> {
    if (witnesses.length === 0) return '';
    const rows = await db.selectFrom('log_cosignatures').select(['key_name', 'key_id', 'signature']).where('size', '=', size).orderBy('key_name').orderBy('key_id').execute();
    return rows
      .filter((r) => witnesses.some((w) => w.name === r.key_name && w.keyId === Number(r.key_id)))
      .map((r) => `\u2014 ${r.key_name} ${r.signature}\n`)
      .join('');
  }

  async function keepCheckpoint(now: number): Promise<SignedCheckpoint> {
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

  async function checkpoint(now: number): Promise<SignedCheckpoint> {
    const signed = await keepCheckpoint(now);
    // The note of a size is always the same text (no extension line, deterministic Ed25519), so
    // every witness line kept for that size verifies on it.
    return { ...signed, note: signed.note + (await cosignatureLines(signed.size)) };
  }

  async function consistency(from: number, to: number): Promise<Hash[]> {
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 1 || from > to) throw new VigilError('log_consistency_range');
    if (to > (await logSize(db))) throw new VigilError('log_size_not_reached');
    return proveConsistency(to, from, reader);
  }

  /** The signature lines of `note` by a configured witness's name and key ID (the note has been opened: its form is valid). */
  function witnessLines(note: string): { name: string; keyId: number; base64: string }[] {
    const block = note.slice(note.lastIndexOf('\n\n') + 2);
    return block.split('\n').flatMap((line) => {
      const [name, base64] = line.replace(/^\u2014 /, '').split(' ');
      if (name === undefined || base64 === undefined || !line.startsWith('\u2014 ')) return [];
      const head = Buffer.from(base64.slice(0, 8), 'base64');
      if (head.length < 4) return [];
      const keyId = head.readUInt32BE(0);
      return witnesses.some((w) => w.name === name && w.keyId === keyId) ? [{ name, keyId, base64 }] : [];
    });
  }

  async function addCosignatures(note: string, now: number): Promise<SignedCheckpoint> {
    const refuse = (why: string): never => {
      throw new VigilError('log_cosignature_refused', why);
    };
    if (witnesses.length === 0) refuse('this log accepts no cosignatures: no witness is configured (VIGIL_LOG_WITNESSES)');
    let opened: ReturnType<typeof openCheckpoint>;
    try {
      opened = openCheckpoint(note, origin, logVerifier, witnesses);
    } catch (error) {
      if (!(error instanceof TlogError)) throw error;
      if (error.code === 'invalid_signature') refuse(`body: a signature does not verify (${error.message})`);
      refuse(`body: not a checkpoint of ${origin} signed by this log (${error.message})`);
    }
    const { checkpoint: cp, note: opened_ } = opened!;
    const kept = await db.selectFrom('log_checkpoints').select(['root']).where('size', '=', cp.size).executeTakeFirst();
    // Signed by this log's key, so it is one of its checkpoints; the row says it is one of this database's.
    if (kept === undefined || kept.root !== bytesToHex(cp.root)) refuse(`body: the checkpoint of size ${cp.size} is not one this log served`);
    const cosignatures = opened_.sigs.filter((sig) => witnesses.some((w) => w.name === sig.name && w.keyId === sig.keyId));
    if (cosignatures.length === 0) refuse('body: no cosignature by a configured witness (VIGIL_LOG_WITNESSES)');
    // Every line by a configured witness, repeats included (the opened note keeps only a witness's
    // first line, though each was verified): the refusal must not depend on what else the note holds.
    for (const sig of [...cosignatures, ...witnessLines(note).filter((line) => !cosignatures.some((c) => c.base64 === line.base64))]) {
      const timestamp = cosignatureTimestamp(sig);
      if (timestamp === undefined) refuse(`body: the cosignature of ${sig.name}+${formatKeyId(sig.keyId)} has a timestamp beyond 2^53 - 1`);
    }
    for (const sig of cosignatures) {
      const timestamp = cosignatureTimestamp(sig)!;
      // A witness cosigning the same checkpoint again replaces its line only with a newer one.
      await db
        .insertInto('log_cosignatures')
        .values({ size: cp.size, key_name: sig.name, key_id: sig.keyId, signature: sig.base64, timestamp, created_at: now })
        .onConflict((oc) =>
          oc.columns(['size', 'key_name', 'key_id']).doUpdateSet({ signature: sig.base64, timestamp, created_at: now }).where('log_cosignatures.timestamp', '<', timestamp),
        )
        .execute();
    }
    const signed = signCheckpoint({ origin, size: cp.size, root: cp.root, extensions: [] }, [signer]);
    return { size: cp.size, root: bytesToHex(cp.root), note: signed + (await cosignatureLines(cp.size)) };
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
    keepCheckpoint,
    consistency,
    addCosignatures,
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
