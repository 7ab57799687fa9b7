import { TlogError } from './errors.js';
import { HASH_SIZE, nodeHash, type Hash } from './hash.js';
import { readExactly, type HashReader } from './hash-reader.js';
import { assertIndex, shiftLeft, shiftRight } from './integer-math.js';
import { splitStoredHashIndex, storedHashIndex } from './stored-hash-index.js';

/** C2SP tlog-tiles fixes the tile height at 8: a full tile holds 256 hashes (8,192 bytes). */
export const TILE_HEIGHT = 8;

/** newTiles lists at most this many tiles (a step of about 2^24 entries at height 8); larger steps are refused. */
export const MAX_NEW_TILES = 1 << 16;

/** Tile heights from 1 to 30: a tile of 2^30 hashes is already 32 GiB. */
export function assertHeight(height: number): void {
  if (!Number.isInteger(height) || height < 1 || height > 30) throw new TlogError('invalid_input', `tile height must be an integer from 1 to 30, got ${height}`);
}

/** The level of an entry bundle (`tile/entries/<N>`): entries, not hashes, below level 0. */
export const ENTRIES_LEVEL = -1;

/**
 * A tile: the `n`-th tile at `level` (ENTRIES_LEVEL for an entry bundle), `width` hashes or entries
 * wide (2^height for a full tile, fewer for the rightmost partial tile of a tree).
 */
export interface Tile {
  readonly level: number;
  readonly n: number;
  readonly width: number;
}

export function tileKey(tile: Tile): string {
  return `${tile.level}/${tile.n}/${tile.width}`;
}

/**
 * The tile holding stored hash `index`, with the byte range of that hash's subtree inside the
 * tile's data. The width is the smallest that contains the hash (Go tlog's tileForIndex).
 */
export function tileForIndex(height: number, index: number): { tile: Tile; start: number; end: number } {
  let { level, n } = splitStoredHashIndex(index);
  const tileLevel = Math.floor(level / height);
  level -= tileLevel * height;
  const tileN = shiftRight(shiftLeft(n, level), height);
  n -= shiftRight(shiftLeft(tileN, height), level);
  return {
    tile: { level: tileLevel, n: tileN, width: shiftLeft(n + 1, level) },
    start: shiftLeft(n, level) * HASH_SIZE,
    end: shiftLeft(n + 1, level) * HASH_SIZE,
  };
}

// Every complete subtree hash inside a tile, computed once per tile data buffer: verifying a tile
// (its whole hash) and answering proof hashes from it (its subtree hashes) then share one pass of
// width - 1 SHA-256 calls instead of repeating them. Keyed by the buffer object, so a reader that
// caches verified tiles gets these levels for free on the next proof. Tile data must not be
// modified after it is handed over.
const tileTrees = new WeakMap<Uint8Array, Hash[][]>();

function tileTree(data: Uint8Array): Hash[][] {
  let levels = tileTrees.get(data);
  if (levels !== undefined) return levels;
  const width = Math.floor(data.length / HASH_SIZE);
  levels = [Array.from({ length: width }, (_, i) => data.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE))];
  for (let below = levels[0]!; below.length >= 2; ) {
    const above: Hash[] = [];
    for (let j = 0; j + 1 < below.length; j += 2) above.push(nodeHash(below[j]!, below[j + 1]!));
    levels.push(above);
    below = above;
  }
  tileTrees.set(data, levels);
  return levels;
}

/** The Merkle hash of the subtree spanning tile hashes [start, start + count), count a power of two. */
function tileSubtreeHash(data: Uint8Array, start: number, count: number): Hash {
  const level = Math.log2(count);
  if (!Number.isInteger(level) || start % count !== 0) throw new TlogError('invalid_input', 'bad math in tileSubtreeHash');
  const hash = tileTree(data)[level]?.[start / count];
  if (hash === undefined) throw new TlogError('invalid_input', 'bad math in tileSubtreeHash');
  return hash.slice();
}

/** The Merkle hash of a run of tile hashes whose count is a power of two. */
export function tileHash(data: Uint8Array): Hash {
  if (data.length === 0 || data.length % HASH_SIZE !== 0) throw new TlogError('invalid_input', 'bad math in tileHash');
  return tileSubtreeHash(data, 0, data.length / HASH_SIZE);
}

/** Stored hash `index` computed from the data of `tile`, which must contain it. */
export function hashFromTile(tile: Tile, data: Uint8Array, index: number, height = TILE_HEIGHT): Hash {
  if (tile.level < 0 || tile.level >= 64 || tile.width < 1 || tile.width > 2 ** height) {
    throw new TlogError('invalid_input', `invalid tile ${tilePath(tile, height)}`);
  }
  if (data.length < tile.width * HASH_SIZE) {
    throw new TlogError('invalid_input', `data length ${data.length} too short for tile ${tilePath(tile, height)}`);
  }
  const found = tileForIndex(height, index);
  if (tile.level !== found.tile.level || tile.n !== found.tile.n || tile.width < found.tile.width) {
    throw new TlogError('invalid_input', `index ${index} is in ${tilePath(found.tile, height)} not ${tilePath(tile, height)}`);
  }
  return tileSubtreeHash(data, found.start / HASH_SIZE, (found.end - found.start) / HASH_SIZE);
}

/** The hash tiles that appear or grow when a tree goes from `oldSize` to `newSize` entries. */
export function newTiles(oldSize: number, newSize: number, height = TILE_HEIGHT): Tile[] {
  assertIndex(oldSize, 'oldSize');
  assertIndex(newSize, 'newSize');
  assertHeight(height);
  if (oldSize > newSize) throw new TlogError('invalid_input', `a tree does not shrink: oldSize ${oldSize} > newSize ${newSize}`);
  // Counted before any is allocated: a huge range would otherwise run out of memory.
  let count = 0;
  for (let level = 0; shiftRight(newSize, height * level) > 0; level++) {
    count += shiftRight(shiftRight(newSize, height * level), height) - shiftRight(shiftRight(oldSize, height * level), height) + 1;
  }
  if (count > MAX_NEW_TILES) {
    throw new TlogError('invalid_input', `newTiles(${oldSize}, ${newSize}) would list about ${count} tiles, more than ${MAX_NEW_TILES}: grow in steps`);
  }
  const tiles: Tile[] = [];
  for (let level = 0; shiftRight(newSize, height * level) > 0; level++) {
    const oldN = shiftRight(oldSize, height * level);
    const newN = shiftRight(newSize, height * level);
    if (oldN === newN) continue;
    for (let n = shiftRight(oldN, height); n < shiftRight(newN, height); n++) {
      tiles.push({ level, n, width: 2 ** height });
    }
    const n = shiftRight(newN, height);
    const width = newN - shiftLeft(n, height);
    if (width > 0) tiles.push({ level, n, width });
  }
  return tiles;
}

/** The bytes of a hash tile, read from stored hashes (what a log writes to `tile/<L>/<N>`). */
export async function readTileData(tile: Tile, reader: HashReader, height = TILE_HEIGHT): Promise<Uint8Array> {
  const start = shiftLeft(tile.n, height);
  const indexes = Array.from({ length: tile.width }, (_, i) => storedHashIndex(height * tile.level, start + i));
  const hashes = await readExactly(reader, indexes);
  const data = new Uint8Array(tile.width * HASH_SIZE);
  hashes.forEach((hash, i) => data.set(hash, i * HASH_SIZE));
  return data;
}

/** `tile/<L>/<N>[.p/<W>]`, or `tile/entries/<N>[.p/<W>]` for an entry bundle (C2SP tlog-tiles). */
export function tilePath(tile: Tile, height = TILE_HEIGHT): string {
  assertHeight(height);
  if (typeof tile !== 'object' || tile === null) throw new TlogError('invalid_input', 'no tile');
  const validLevel = tile.level === ENTRIES_LEVEL || (Number.isInteger(tile.level) && tile.level >= 0 && tile.level <= 63);
  if (!validLevel || !Number.isSafeInteger(tile.n) || tile.n < 0 || !Number.isInteger(tile.width) || tile.width < 1 || tile.width > 2 ** height) {
    throw new TlogError('invalid_input', `invalid tile (level ${tile.level}, n ${tile.n}, width ${tile.width}): level ${ENTRIES_LEVEL} or 0 to 63, n a non-negative integer, width 1 to ${2 ** height}`);
  }
  let n = tile.n;
  let nPath = String(n % 1000).padStart(3, '0');
  while (n >= 1000) {
    n = Math.floor(n / 1000);
    nPath = `x${String(n % 1000).padStart(3, '0')}/${nPath}`;
  }
  const partial = tile.width === 2 ** height ? '' : `.p/${tile.width}`;
  const level = tile.level === ENTRIES_LEVEL ? 'entries' : String(tile.level);
  return `tile/${level}/${nPath}${partial}`;
}

const PATH_ELEMENT = /^x?[0-9]{3}$/;

/**
 * Parses a tile or entry-bundle path (without the log prefix). Strict: the path must be exactly what
 * tilePath prints for the tile, so `tile/0/1` or `tile/0/x000/001` are refused.
 */
export function parseTilePath(path: string, height = TILE_HEIGHT): Tile {
  const refuse = (): never => {
    throw new TlogError('malformed_tile_path', `malformed tile path ${JSON.stringify(path)}`);
  };
  const parts = path.split('/');
  if (parts.length < 3 || parts[0] !== 'tile') refuse();
  const levelText = parts[1]!;
  let level: number;
  if (levelText === 'entries') level = ENTRIES_LEVEL;
  else if (/^(0|[1-9][0-9]?)$/.test(levelText) && Number(levelText) <= 63) level = Number(levelText);
  else return refuse();
  let width = 2 ** height;
  let nParts = parts.slice(2);
  const beforeLast = nParts[nParts.length - 2];
  if (beforeLast !== undefined && beforeLast.endsWith('.p')) {
    const widthText = nParts[nParts.length - 1]!;
    if (!/^[1-9][0-9]*$/.test(widthText) || Number(widthText) >= width) refuse();
    width = Number(widthText);
    nParts = [...nParts.slice(0, -2), beforeLast.slice(0, -2)];
  }
  let n = 0;
  for (const part of nParts) {
    if (!PATH_ELEMENT.test(part)) refuse();
    n = n * 1000 + Number(part.replace(/^x/, ''));
  }
  if (!Number.isSafeInteger(n)) refuse();
  const tile = { level, n, width };
  if (tilePath(tile, height) !== path) refuse();
  return tile;
}
