import { callReader, TlogError } from './errors.js';
import { HASH_SIZE, hashesEqual, isHash, nodeHash, type Hash } from './hash.js';
import type { HashReader } from './hash-reader.js';
import { shiftLeft, shiftRight } from './integer-math.js';
import { storedHashIndex } from './stored-hash-index.js';
import { assertHeight, hashFromTile, tileForIndex, tileHash, tileKey, tilePath, TILE_HEIGHT, type Tile } from './tile.js';
import { subTreeIndex } from './tree-hash.js';

/** Where tile bytes come from: a log's HTTP endpoint, a mirror's files, the server's storage. */
export interface TileReader {
  /** Tile height; C2SP tlog-tiles logs use 8. */
  readonly height?: number;
  /** The data of each tile, in order; a partial tile's data is exactly `width` hashes. */
  readTiles(tiles: readonly Tile[]): Promise<Uint8Array[]>;
  /** Called with tiles once they are verified against the tree, for caching. */
  saveTiles?(tiles: readonly Tile[], data: readonly Uint8Array[]): void;
}

/** A tree head: a size and its root hash, as a verified checkpoint gives them. */
export interface TreeHead {
  readonly size: number;
  readonly root: Hash;
}

function tileParent(tile: Tile, k: number, size: number, height: number): Tile | undefined {
  const level = tile.level + k;
  const n = shiftRight(tile.n, k * height);
  let width = 2 ** height;
  const max = shiftRight(size, level * height);
  if (shiftLeft(n, height) + width >= max) {
    if (shiftLeft(n, height) >= max) return undefined;
    width = max - shiftLeft(n, height);
  }
  return { level, n, width };
}

/**
 * A HashReader that reads hashes from tiles and verifies every tile it uses against `tree` before
 * answering (Go tlog's TileHashReader): the tiles on the tree's right edge must hash to the root, and
 * every other tile to its hash in the parent tile. A server that serves a tile inconsistent with the
 * tree head gets 'inconsistent_tile', never a wrong proof.
 */
export function tileHashReader(tree: TreeHead, reader: TileReader): HashReader {
  if (typeof tree !== 'object' || tree === null || !Number.isSafeInteger(tree.size) || tree.size < 0 || !isHash(tree.root)) {
    throw new TlogError('invalid_input', 'tree must be { size: a non-negative safe integer, root: a 32-byte hash }');
  }
  if (typeof reader !== 'object' || reader === null || typeof reader.readTiles !== 'function') throw new TlogError('invalid_input', 'reader must have readTiles');
  const height = reader.height ?? TILE_HEIGHT;
  assertHeight(height);
  const bad = (detail: string): never => {
    throw new TlogError('invalid_input', `bad math in tileHashReader: ${detail}`);
  };
  return {
    async readHashes(indexes) {
      if (indexes.length === 0) return [];
      if (tree.size === 0) throw new TlogError('invalid_input', 'an empty tree has no stored hashes');
      const tileOrder = new Map<string, number>();
      const tiles: Tile[] = [];
      const stx = subTreeIndex(0, tree.size, []);
      const stxTileOrder: number[] = [];
      for (const x of stx) {
        const tile = tileParent(tileForIndex(height, x).tile, 0, tree.size, height) ?? bad(`no tile for ${x}`);
        const known = tileOrder.get(tileKey(tile));
        if (known !== undefined) {
          stxTileOrder.push(known);
          continue;
        }
        stxTileOrder.push(tiles.length);
        tileOrder.set(tileKey(tile), tiles.length);
        tiles.push(tile);
      }
      // Several subtrees of the right edge share a tile, so the tiles checked against the root are
      // the first `edgeTiles`, not the first stx.length: counting subtrees here skipped the check of
      // every tile below the edge (a forged full tile was accepted).
      const edgeTiles = tiles.length;

      const indexTileOrder: number[] = [];
      const limit = storedHashIndex(0, tree.size);
      for (const x of indexes) {
        if (x >= limit) throw new TlogError('invalid_input', `stored hash ${x} is not in a tree of size ${tree.size}`);
        const tile = tileForIndex(height, x).tile;
        let k = 0;
        for (; ; k++) {
          const parent = tileParent(tile, k, tree.size, height) ?? bad(`no parent of ${tilePath(tile, height)}`);
          const known = tileOrder.get(tileKey(parent));
          if (known !== undefined) {
            if (k === 0) indexTileOrder.push(known);
            break;
          }
        }
        for (k--; k >= 0; k--) {
          const parent = tileParent(tile, k, tree.size, height) ?? bad(`no parent of ${tilePath(tile, height)}`);
          if (parent.width !== 2 ** height) bad(`${tree.size} ${x} ${tilePath(parent, height)}`);
          tileOrder.set(tileKey(parent), tiles.length);
          if (k === 0) indexTileOrder.push(tiles.length);
          tiles.push(parent);
        }
      }

      const data = await callReader('readTiles', () => reader.readTiles(tiles));
      if (!Array.isArray(data)) throw new TlogError('hash_reader', 'readTiles did not return an array');
      if (data.length !== tiles.length) {
        throw new TlogError('hash_reader', `readTiles returned ${data.length} tiles, want ${tiles.length}`);
      }
      tiles.forEach((tile, i) => {
        if (!(data[i] instanceof Uint8Array) || data[i]!.length !== tile.width * HASH_SIZE) {
          throw new TlogError('inconsistent_tile', `tile ${tilePath(tile, height)} is ${data[i]!.length} bytes, want ${tile.width * HASH_SIZE}`);
        }
      });

      const last = stx.length - 1;
      let root = hashFromTile(tiles[stxTileOrder[last]!]!, data[stxTileOrder[last]!]!, stx[last]!, height);
      for (let i = last - 1; i >= 0; i--) {
        root = nodeHash(hashFromTile(tiles[stxTileOrder[i]!]!, data[stxTileOrder[i]!]!, stx[i]!, height), root);
      }
      if (!hashesEqual(root, tree.root)) throw new TlogError('inconsistent_tile', 'tiles do not hash to the tree root');

      for (let i = edgeTiles; i < tiles.length; i++) {
        const tile = tiles[i]!;
        const parent = tileParent(tile, 1, tree.size, height) ?? bad(`lost parent of ${tilePath(tile, height)}`);
        const j = tileOrder.get(tileKey(parent)) ?? bad(`lost parent of ${tilePath(tile, height)}`);
        const expected = hashFromTile(parent, data[j]!, storedHashIndex(parent.level * height, tile.n), height);
        if (!hashesEqual(expected, tileHash(data[i]!))) {
          throw new TlogError('inconsistent_tile', `tile ${tilePath(tile, height)} does not match its parent tile`);
        }
      }

      reader.saveTiles?.(tiles, data);
      return indexes.map((x, i) => hashFromTile(tiles[indexTileOrder[i]!]!, data[indexTileOrder[i]!]!, x, height));
    },
  };
}
