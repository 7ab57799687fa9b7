// Transparency-log proofs at scale (issue 28): a log of BENCH_TLOG_SIZE entries (10 million by
// default) written as C2SP tlog-tiles files, then inclusion proofs served from those files through
// @vigil/tlog's tileHashReader (every tile read is checked against the signed checkpoint, nothing is
// cached between proofs), and verified as a client would: the bare Merkle check, and the whole
// tlog-proof (log signature + inclusion).
// Targets: proof served in under 5 ms median, verified by the client in under 1 ms.
import { createHash, randomInt } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generateSecretKey, getPublicKey } from '@vigil/crypto';
import {
  formatTlogProof,
  formatVerifierKey,
  hashFromTile,
  leafHash,
  noteSigner,
  noteVerifier,
  proveInclusion,
  signCheckpoint,
  tileForIndex,
  tileHashReader,
  tilePath,
  treeHash,
  verifyInclusion,
  verifyTlogProof,
} from '@vigil/tlog';
import { median } from './lib.mjs';

const SIZE = Number(process.env.BENCH_TLOG_SIZE ?? 10_000_000);
const PROOFS = Number(process.env.BENCH_TLOG_PROOFS ?? 2000);
const ORIGIN = 'bench.vigil.example/log';
const WIDTH = 256;

const entry = (i) => Buffer.from(`entry ${i}`);
// Tile generation uses node:crypto for speed; the library's own hashing checks it below.
const sha = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);
const tileRoot = (hashes, lo, hi) => (hi - lo === 1 ? hashes[lo] : sha(NODE, tileRoot(hashes, lo, (lo + hi) / 2), tileRoot(hashes, (lo + hi) / 2, hi)));

async function writeTile(dir, tile, hashes) {
  const file = join(dir, tilePath(tile));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, Buffer.concat(hashes));
}

/** Writes every full and partial tile of a tree of `size` entries; returns nothing but files. */
async function generateTiles(dir, size) {
  let level = 0;
  let count = size;
  let hashAt = (i) => sha(LEAF, entry(i));
  while (count > 0) {
    const parents = [];
    for (let n = 0; n * WIDTH < count; n++) {
      const width = Math.min(WIDTH, count - n * WIDTH);
      const hashes = Array.from({ length: width }, (_, i) => hashAt(n * WIDTH + i));
      await writeTile(dir, { level, n, width }, hashes);
      if (width === WIDTH) parents.push(tileRoot(hashes, 0, WIDTH));
    }
    hashAt = (i) => parents[i];
    count = parents.length;
    level++;
  }
}

function fileTileReader(dir) {
  return { readTiles: (tiles) => Promise.all(tiles.map(async (t) => new Uint8Array(await readFile(join(dir, tilePath(t)))))) };
}

/**
 * What a server would run: the file reader behind a bounded cache of tiles already verified against
 * the tree (saveTiles is called only after verification). 4,096 tiles is 32 MiB.
 */
function cachedTileReader(dir, capacity = 4096) {
  const files = fileTileReader(dir);
  const cache = new Map();
  return {
    async readTiles(tiles) {
      const missing = tiles.filter((t) => !cache.has(tilePath(t)));
      const read = await files.readTiles(missing);
      const fresh = new Map(missing.map((t, i) => [tilePath(t), read[i]]));
      return tiles.map((t) => cache.get(tilePath(t)) ?? fresh.get(tilePath(t)));
    },
    saveTiles(tiles, data) {
      tiles.forEach((t, i) => {
        const path = tilePath(t);
        cache.delete(path);
        cache.set(path, data[i]);
      });
      while (cache.size > capacity) cache.delete(cache.keys().next().value);
    },
  };
}

/** Reads stored hashes from the tile files without checking them: only to compute the root to sign. */
function uncheckedReader(dir, size) {
  return {
    async readHashes(indexes) {
      return Promise.all(
        indexes.map(async (x) => {
          const { tile } = tileForIndex(8, x);
          const full = Math.floor(size / 256 ** (tile.level + 1)) > tile.n;
          const width = full ? WIDTH : Math.floor(size / 256 ** tile.level) % WIDTH;
          const data = new Uint8Array(await readFile(join(dir, tilePath({ ...tile, width }))));
          return hashFromTile({ ...tile, width }, data, x);
        }),
      );
    },
  };
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: median(sorted), p95: sorted[Math.floor(sorted.length * 0.95)] };
}

const dir = await mkdtemp(join(tmpdir(), 'vigil-bench-tlog-'));
try {
  // The generator must agree with the library: a small log's root from the tile files equals
  // @vigil/tlog's root over the same leaves.
  {
    const small = join(dir, 'check');
    await generateTiles(small, 70_001);
    const { rootFromLeafHashes } = await import('@vigil/tlog');
    const expected = rootFromLeafHashes(Array.from({ length: 70_001 }, (_, i) => leafHash(entry(i))));
    const actual = await treeHash(70_001, uncheckedReader(small, 70_001));
    if (Buffer.compare(Buffer.from(expected), Buffer.from(actual)) !== 0) throw new Error('tile generator disagrees with @vigil/tlog');
    await rm(small, { recursive: true });
  }

  process.stdout.write(`generating the tiles of ${SIZE.toLocaleString('en')} entries… `);
  let started = performance.now();
  await generateTiles(dir, SIZE);
  const root = await treeHash(SIZE, uncheckedReader(dir, SIZE));
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);

  const secret = generateSecretKey();
  const checkpoint = signCheckpoint({ origin: ORIGIN, size: SIZE, root, extensions: [] }, [noteSigner(ORIGIN, secret)]);
  const logVerifier = noteVerifier(formatVerifierKey(ORIGIN, getPublicKey(secret)));
  const tree = { size: SIZE, root };

  const serve = [];
  const serveCached = [];
  const cached = cachedTileReader(dir);
  const verifyMerkle = [];
  const verifyWhole = [];
  const indexes = Array.from({ length: PROOFS }, () => randomInt(SIZE));
  indexes.push(0, SIZE - 1);
  for (const [k, index] of indexes.entries()) {
    // A fresh reader per proof: each one reads and checks its tiles, as an uncached server would.
    started = performance.now();
    const proof = await proveInclusion(SIZE, index, tileHashReader(tree, fileTileReader(dir)));
    const text = formatTlogProof({ index, proof, checkpoint });
    const served = performance.now() - started;
    const leaf = leafHash(entry(index));

    started = performance.now();
    const again = await proveInclusion(SIZE, index, tileHashReader(tree, cached));
    formatTlogProof({ index, proof: again, checkpoint });
    const servedCached = performance.now() - started;

    started = performance.now();
    const ok = verifyInclusion(proof, SIZE, root, index, leaf);
    const merkle = performance.now() - started;
    if (!ok) throw new Error(`proof of ${index} does not verify`);

    started = performance.now();
    verifyTlogProof(text, { leafHash: leaf, origin: ORIGIN, logVerifier });
    const whole = performance.now() - started;
    if (k >= 20) {
      // The first proofs warm the JIT and the page cache: not counted.
      serve.push(served);
      serveCached.push(servedCached);
      verifyMerkle.push(merkle);
      verifyWhole.push(whole);
    }
  }
  const s = stats(serve);
  const c = stats(serveCached);
  const m = stats(verifyMerkle);
  const w = stats(verifyWhole);
  const verdict = (value, target) => (value < target ? 'met' : 'MISSED');
  console.log(`${serve.length} inclusion proofs at ${SIZE.toLocaleString('en')} entries (tiles read from files and checked per proof)`);
  console.log(`  served (proveInclusion via tileHashReader + tlog-proof text): median ${s.median.toFixed(3)} ms, p95 ${s.p95.toFixed(3)} ms  [target < 5 ms median: ${verdict(s.median, 5)}]`);
  console.log(`  served with a 4,096-tile cache of verified tiles (same proofs, alternating): median ${c.median.toFixed(3)} ms, p95 ${c.p95.toFixed(3)} ms  [target < 5 ms median: ${verdict(c.median, 5)}]`);
  console.log(`  client Merkle check (verifyInclusion):                       median ${m.median.toFixed(4)} ms, p95 ${m.p95.toFixed(4)} ms  [target < 1 ms: ${verdict(m.median, 1)}]`);
  console.log(`  client whole tlog-proof (parse + log signature + inclusion): median ${w.median.toFixed(4)} ms, p95 ${w.p95.toFixed(4)} ms  [target < 1 ms: ${verdict(w.median, 1)}]`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
