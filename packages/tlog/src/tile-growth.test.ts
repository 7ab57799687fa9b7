import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  arrayHashReader,
  leafHash,
  newTiles,
  proveConsistency,
  proveInclusion,
  readTileData,
  storedHashes,
  tileHashReader,
  tilePath,
  treeHash,
  verifyConsistency,
  verifyInclusion,
  type Hash,
} from './index.js';

async function build(size: number): Promise<Hash[]> {
  const stored: Hash[] = [];
  for (let i = 0; i < size; i++) stored.push(...(await storedHashes(i, new TextEncoder().encode(`e${i}`), arrayHashReader(stored))));
  return stored;
}

describe('tiles as a log grows (Go TestTree)', () => {
  it('each new or grown tile extends the earlier partial tile, and re-reading any range gives the same bytes', async () => {
    const height = 2;
    const stored: Hash[] = [];
    const reader = arrayHashReader(stored);
    const tiles = new Map<string, Uint8Array>();
    for (let i = 0; i < 100; i++) {
      stored.push(...(await storedHashes(i, new TextEncoder().encode(`e${i}`), reader)));
      for (const tile of newTiles(i, i + 1, height)) {
        const data = await readTileData(tile, reader, height);
        const earlier = tile.width > 1 ? tiles.get(tilePath({ ...tile, width: tile.width - 1 }, height)) : new Uint8Array(0);
        expect(earlier, tilePath(tile, height)).toBeDefined();
        expect(data.subarray(0, earlier!.length)).toEqual(earlier);
        expect(data.length).toBe(earlier!.length + 32);
        tiles.set(tilePath(tile, height), data);
      }
      for (const tile of [...newTiles(0, i + 1, height), ...newTiles(Math.floor(i / 2), i + 1, height)]) {
        expect(await readTileData(tile, reader, height)).toEqual(tiles.get(tilePath(tile, height)));
      }
    }
  });
});

describe('proofs through verified tiles (property)', () => {
  it('any index in any tree up to 3,000 entries, and any two sizes, verify through tiles of height 8', async () => {
    const stored = await build(3000);
    const direct = arrayHashReader(stored);
    const files = new Map<string, Uint8Array>();
    for (const tile of newTiles(0, 3000)) files.set(tilePath(tile), await readTileData(tile, direct));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3000 }), fc.nat(), fc.nat(), async (size, a, b) => {
        const index = a % size;
        const old = 1 + (b % size);
        const root = await treeHash(size, direct);
        // Tiles of the 3,000-entry tree: a smaller tree reads only full tiles and its own partial
        // widths, so serve each partial tile by cutting the full-width data.
        const reader = tileHashReader(
          { size, root },
          {
            readTiles: (wanted) =>
              Promise.resolve(
                wanted.map((t) => {
                  const full = files.get(tilePath({ ...t, width: 256 })) ?? [...files.entries()].find(([p]) => p.startsWith(`${tilePath({ ...t, width: 256 })}.p/`))?.[1];
                  return full!.subarray(0, t.width * 32);
                }),
              ),
          },
        );
        const proof = await proveInclusion(size, index, reader);
        expect(verifyInclusion(proof, size, root, index, leafHash(new TextEncoder().encode(`e${index}`)))).toBe(true);
        const consistency = await proveConsistency(size, old, reader);
        expect(verifyConsistency(consistency, size, root, old, await treeHash(old, direct))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
