import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  arrayHashReader,
  encodeEntryBundle,
  ENTRIES_LEVEL,
  hashFromTile,
  leafHash,
  newTiles,
  parseEntryBundle,
  parseTilePath,
  proveConsistency,
  proveInclusion,
  readTileData,
  splitStoredHashIndex,
  storedHashes,
  storedHashIndex,
  tileForIndex,
  tileHashReader,
  tilePath,
  treeHash,
  verifyInclusion,
  type Hash,
  type Tile,
} from './index.js';

const c2sp = JSON.parse(readFileSync(new URL('./test-vectors/c2sp.json', import.meta.url), 'utf8')) as {
  tilePathExample: { n: number; path: string };
  partialTiles70000: { size: number; fullLevel0: number; partialLevel0Width: number; fullLevel1: number; partialLevel1Width: number; partialLevel2Width: number };
};
const go = JSON.parse(readFileSync(new URL('./test-vectors/go-sumdb.json', import.meta.url), 'utf8')) as {
  tilePaths: { valid: { goPath: string; level: number; n: number }[]; invalidGoPaths: string[] };
};

// Drops Go's height element: tile/H/L/N… → tile/L/N…
const withoutHeight = (goPath: string): string => goPath.replace(/^tile\/[0-9]+\//, 'tile/');

describe('tile paths (C2SP tlog-tiles)', () => {
  it('encodes N as x-prefixed three-digit elements (the spec example and Go vectors)', () => {
    expect(tilePath({ level: 0, n: c2sp.tilePathExample.n, width: 256 })).toBe(`tile/0/${c2sp.tilePathExample.path}`);
    for (const v of go.tilePaths.valid) {
      const path = withoutHeight(v.goPath);
      expect(parseTilePath(path)).toEqual({ level: v.level, n: v.n, width: 256 });
      expect(tilePath({ level: v.level, n: v.n, width: 256 })).toBe(path);
    }
    expect(tilePath({ level: 0, n: 0, width: 256 })).toBe('tile/0/000');
    expect(tilePath({ level: 2, n: 1000, width: 17 })).toBe('tile/2/x001/000.p/17');
    expect(tilePath({ level: ENTRIES_LEVEL, n: 5, width: 3 })).toBe('tile/entries/005.p/3');
    expect(parseTilePath('tile/entries/x001/234.p/255')).toEqual({ level: ENTRIES_LEVEL, n: 1234, width: 255 });
  });

  it('refuses every path that is not exactly the canonical form', () => {
    for (const bad of [
      ...go.tilePaths.invalidGoPaths.map(withoutHeight),
      'tile/0/1',
      'tile/0/x000/001',
      'tile/0/001.p/256',
      'tile/0/001.p/0',
      'tile/0/001.p/07',
      'tile/64/000',
      'tile/01/000',
      'tile/-1/000',
      'tile/data/000',
      'tile/0/x001',
      'tile/0/001/',
      'tiles/0/000',
      'tile/0',
    ]) {
      expect(() => parseTilePath(bad), bad).toThrow(expect.objectContaining({ code: 'malformed_tile_path' }));
    }
  });

  it('lists the tiles of a tree of 70,000 entries as the spec does', () => {
    const v = c2sp.partialTiles70000;
    const tiles = newTiles(0, v.size);
    const at = (level: number) => tiles.filter((t) => t.level === level);
    expect(at(0).filter((t) => t.width === 256)).toHaveLength(v.fullLevel0);
    expect(at(0).filter((t) => t.width < 256).map((t) => t.width)).toEqual([v.partialLevel0Width]);
    expect(at(1).filter((t) => t.width === 256)).toHaveLength(v.fullLevel1);
    expect(at(1).filter((t) => t.width < 256).map((t) => t.width)).toEqual([v.partialLevel1Width]);
    expect(at(2).map((t) => t.width)).toEqual([v.partialLevel2Width]);
    expect(tiles).toHaveLength(273 + 1 + 1 + 1 + 1);
    // "a tree of size 256 will be represented by a full level 0 tile and a partial level 1 tile of width 1"
    expect(newTiles(0, 256)).toEqual([{ level: 0, n: 0, width: 256 }, { level: 1, n: 0, width: 1 }]);
  });

  it('counts new tiles as Go does (TestNewTilesForSize, height 10)', () => {
    for (const [old, next, want] of [[1, 1, 0], [100, 101, 1], [1023, 1025, 3], [1024, 1030, 1], [1030, 2000, 1], [1030, 10000, 10], [49516517, 49516586, 3]] as const) {
      expect(newTiles(old, next, 10)).toHaveLength(want);
    }
  });
});

describe('entry bundles', () => {
  it('round-trips big-endian uint16 length-prefixed entries', () => {
    const entries = [new Uint8Array(0), new Uint8Array([1, 2, 3]), new Uint8Array(300).fill(7), new Uint8Array(65535).fill(9)];
    const bundle = encodeEntryBundle(entries);
    expect([...bundle.subarray(0, 7)]).toEqual([0, 0, 0, 3, 1, 2, 3]);
    expect([...bundle.subarray(7, 9)]).toEqual([0x01, 0x2c]);
    expect(parseEntryBundle(bundle)).toEqual(entries);
  });

  it('refuses an oversized entry and a truncated bundle', () => {
    expect(() => encodeEntryBundle([new Uint8Array(65536)])).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    const bundle = encodeEntryBundle([new Uint8Array([1, 2, 3])]);
    expect(() => parseEntryBundle(bundle.subarray(0, 4))).toThrow(expect.objectContaining({ code: 'malformed_entry_bundle' }));
    expect(() => parseEntryBundle(new Uint8Array([0]))).toThrow(expect.objectContaining({ code: 'malformed_entry_bundle' }));
  });
});

async function buildLog(size: number): Promise<{ stored: Hash[]; leaves: Hash[] }> {
  const stored: Hash[] = [];
  const leaves: Hash[] = [];
  const reader = arrayHashReader(stored);
  for (let i = 0; i < size; i++) {
    const entry = new TextEncoder().encode(`entry ${i}`);
    leaves.push(leafHash(entry));
    stored.push(...(await storedHashes(i, entry, reader)));
  }
  return { stored, leaves };
}

async function tileStore(stored: Hash[], size: number, height: number): Promise<Map<string, Uint8Array>> {
  const tiles = new Map<string, Uint8Array>();
  for (const tile of newTiles(0, size, height)) tiles.set(tilePath(tile, height), await readTileData(tile, arrayHashReader(stored), height));
  return tiles;
}

describe('tileHashReader (Go TileHashReader)', () => {
  for (const [height, sizes] of [[2, [1, 2, 3, 5, 16, 17, 63, 64, 65, 100]], [8, [1, 255, 256, 257, 70_000]]] as const) {
    it(`serves the same proofs from tiles as from stored hashes (height ${height})`, async () => {
      const { stored, leaves } = await buildLog(sizes[sizes.length - 1]!);
      const direct = arrayHashReader(stored);
      for (const size of sizes) {
        const tiles = await tileStore(stored, size, height);
        const saved: Tile[] = [];
        const reader = tileHashReader(
          { size, root: await treeHash(size, direct) },
          {
            height,
            readTiles: (wanted) => Promise.resolve(wanted.map((t) => tiles.get(tilePath(t, height)) ?? new Uint8Array(0))),
            saveTiles: (done) => saved.push(...done),
          },
        );
        expect(await treeHash(size, reader)).toEqual(await treeHash(size, direct));
        const indexes = size > 1000 ? [0, 1, 255, 256, 65_535, 65_536, size - 1] : Array.from({ length: size }, (_, i) => i);
        for (const index of indexes) {
          const proof = await proveInclusion(size, index, reader);
          expect(proof).toEqual(await proveInclusion(size, index, direct));
          expect(verifyInclusion(proof, size, await treeHash(size, direct), index, leaves[index]!)).toBe(true);
        }
        for (const old of [1, Math.floor(size / 2) || 1, size]) {
          expect(await proveConsistency(size, old, reader)).toEqual(await proveConsistency(size, old, direct));
        }
        expect(saved.length).toBeGreaterThan(0);
      }
    });
  }

  it('refuses tiles that do not hash to the checkpoint root, or to their parent tile', async () => {
    const height = 2;
    const size = 40;
    const { stored } = await buildLog(size);
    const root = await treeHash(size, arrayHashReader(stored));
    const honest = await tileStore(stored, size, height);
    for (const path of ['tile/0/000', 'tile/1/000', 'tile/0/009', 'tile/2/000.p/2']) {
      const tiles = new Map(honest);
      const forged = tiles.get(path)!.slice();
      forged[0]! ^= 1;
      tiles.set(path, forged);
      const reader = tileHashReader({ size, root }, { height, readTiles: (wanted) => Promise.resolve(wanted.map((t) => tiles.get(tilePath(t, height))!)) });
      const all = Array.from({ length: size }, (_, i) => i);
      const results = await Promise.allSettled(all.map((i) => proveInclusion(size, i, reader)));
      const refused = results.filter((r) => r.status === 'rejected');
      expect(refused.length, path).toBeGreaterThan(0);
      for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'inconsistent_tile' });
    }
    const short = tileHashReader({ size, root }, { height, readTiles: (wanted) => Promise.resolve(wanted.map((t) => honest.get(tilePath(t, height))!.subarray(32))) });
    await expect(proveInclusion(size, 3, short)).rejects.toMatchObject({ code: 'inconsistent_tile' });
  });

  it('never returns a hash from a forged tile: every tile used is checked, not only the right edge', async () => {
    // Every hash slot of every tile of a 43-entry height-2 tree (32 + 8 + 2 + 1: two edge subtrees
    // share tile/0/010.p/3) flipped: each stored hash read is the honest one or inconsistent_tile.
    const height = 2;
    const size = 43;
    const { stored } = await buildLog(size);
    const root = await treeHash(size, arrayHashReader(stored));
    const honest = await tileStore(stored, size, height);
    const limit = storedHashIndex(0, size);
    for (const [path, data] of honest) {
      for (let slot = 0; slot < data.length / 32; slot++) {
        const tiles = new Map(honest);
        const forged = data.slice();
        forged[slot * 32 + 7]! ^= 1;
        tiles.set(path, forged);
        const reader = tileHashReader({ size, root }, { height, readTiles: (wanted) => Promise.resolve(wanted.map((t) => tiles.get(tilePath(t, height))!)) });
        let refused = 0;
        for (let x = 0; x < limit; x++) {
          try {
            expect((await reader.readHashes([x]))[0], `${path} slot ${slot} index ${x}`).toEqual(stored[x]);
          } catch (e) {
            expect(e, `${path} slot ${slot} index ${x}`).toMatchObject({ code: 'inconsistent_tile' });
            refused++;
          }
        }
        expect(refused, `${path} slot ${slot}`).toBeGreaterThan(0);
      }
    }
  });

  it('refuses a forged leaf in a full level-0 tile and a tampered full level-1 tile (outside tester, 69,999 entries)', async () => {
    const size = 69_999;
    const { stored } = await buildLog(size);
    const direct = arrayHashReader(stored);
    const root = await treeHash(size, direct);
    const target = 12_345;
    const forgedReader = (level: number, n: number, byte: number) =>
      tileHashReader(
        { size, root },
        {
          readTiles: (wanted) =>
            Promise.all(
              wanted.map(async (t) => {
                const data = await readTileData(t, direct);
                if (t.level !== level || t.n !== n) return data;
                const forged = data.slice();
                if (byte < 0) forged.set(leafHash(new TextEncoder().encode('forged entry')), 32 * (target % 256));
                else forged[byte]! ^= 1;
                return forged;
              }),
            ),
        },
      );
    await expect(forgedReader(0, 48, -1).readHashes([storedHashIndex(0, target)])).rejects.toMatchObject({ code: 'inconsistent_tile' });
    await expect(forgedReader(1, 0, 32 * 48).readHashes([storedHashIndex(0, target)])).rejects.toMatchObject({ code: 'inconsistent_tile' });
    for (const byte of [5, 32 * 57 + 3]) {
      await expect(proveInclusion(size, target, forgedReader(0, 48, byte))).rejects.toMatchObject({ code: 'inconsistent_tile' });
      await expect(treeHash(12_346, forgedReader(0, 48, byte))).rejects.toMatchObject({ code: 'inconsistent_tile' });
    }
  }, 60_000);

  it('finds each stored hash in the tile tileForIndex names', async () => {
    // 64 entries at height 2: levels 0, 1 and 2 are all full tiles; the root (level 6) is in none.
    const height = 2;
    const { stored } = await buildLog(64);
    const tiles = await tileStore(stored, 64, height);
    let checked = 0;
    for (let index = 0; index < stored.length; index++) {
      if (splitStoredHashIndex(index).level >= 6) continue;
      const { tile } = tileForIndex(height, index);
      const full = { ...tile, width: 4 };
      expect(hashFromTile(full, tiles.get(tilePath(full, height))!, index, height)).toEqual(stored[index]);
      checked++;
    }
    expect(checked).toBe(stored.length - 1);
  });
});
