import { generateSecretKey, getPublicKey } from '@vigil/crypto';
import {
  SIGNATURE_TYPE_COSIGNATURE_V1,
  formatVerifierKey,
  leafHash,
  noteVerifier,
  openCheckpoint,
  parseEntryBundle,
  proveConsistency,
  rootFromLeafHashes,
  storedHashCount,
  storedHashIndex,
  tileHashReader,
  verifyConsistency,
  verifyTlogProof,
  type Tile,
  tilePath,
} from '@vigil/tlog';
import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../../platform/db/transaction.js';
import { describeEachDialect } from '../../test-support/databases.js';
import { VigilError } from '../../platform/errors.js';
import { appendLogEntries, logSize } from './append-log-entries.js';
import { checkTransparencyLog } from './check-log.js';
import { checkpointEvery } from './checkpoint-every.js';
import { dbHashReader } from './db-hash-reader.js';
import { verdictLogEntry, type LogEntryInput } from './log-entry.js';
import { createTransparencyLog, tileHashesAvailable } from './transparency-log.js';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const ORIGIN = 'vigil.test/log';

function entry(i: number): LogEntryInput {
  return verdictLogEntry({ bundleHash: `skills/pkg-${i}/gh`, track: 'skills', verdict: 'ALLOW', previousVerdict: null, riskScore: i % 100, roundId: 'r'.repeat(16), publishedAt: T0 + i });
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('tileHashesAvailable', () => {
  it('gives the widths of C2SP tiles (70,000 entries: 273 full level-0 tiles, then 112; level 1: 1 full, then 17; level 2: 1)', () => {
    expect(tileHashesAvailable(70_000, 0, 272)).toBe(256);
    expect(tileHashesAvailable(70_000, 0, 273)).toBe(112);
    expect(tileHashesAvailable(70_000, 0, 274)).toBe(0);
    expect(tileHashesAvailable(70_000, 1, 0)).toBe(256);
    expect(tileHashesAvailable(70_000, 1, 1)).toBe(17);
    expect(tileHashesAvailable(70_000, 2, 0)).toBe(1);
    expect(tileHashesAvailable(70_000, 3, 0)).toBe(0);
  });
});

describeEachDialect('transparency log', (ctx) => {
  it('appends in the transaction of what it logs: a rolled-back transaction leaves no entry and no hash', async () => {
    const db = ctx.db();
    await inTransaction(db, (trx) => appendLogEntries(trx, [entry(0)], T0));
    await expect(
      inTransaction(db, async (trx) => {
        expect(await appendLogEntries(trx, [entry(1), entry(2)], T0)).toEqual([1, 2]);
        expect(await logSize(trx)).toBe(3);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await logSize(db)).toBe(1);
    const hashes = await db.selectFrom('log_hashes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(hashes.n)).toBe(storedHashCount(1));
    // The next append takes index 1: no gap where the rolled-back entries were.
    expect(await inTransaction(db, (trx) => appendLogEntries(trx, [entry(3)], T0))).toEqual([1]);
    expect((await checkTransparencyLog(db)).problem).toBeNull();
  });

  it('serves a signed checkpoint, tiles and entry bundles that @vigil/tlog verifies, and inclusion proofs for entries', async () => {
    const db = ctx.db();
    const secretKey = generateSecretKey();
    const log = createTransparencyLog({ db, secretKey, origin: ORIGIN });
    const empty = await log.checkpoint(T0);
    expect(empty.size).toBe(0);
    expect(empty.note.split('\n').slice(0, 3)).toEqual([ORIGIN, '0', '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=']);

    // 600 entries over several transactions: two full level-0 tiles and a partial one of 88.
    const all = Array.from({ length: 600 }, (_, i) => entry(i));
    for (let start = 0; start < all.length; start += 97) {
      await inTransaction(db, (trx) => appendLogEntries(trx, all.slice(start, start + 97), T0));
    }
    const signed = await log.checkpoint(T0 + 1);
    const verifier = noteVerifier(log.verifierKey);
    const { checkpoint } = openCheckpoint(signed.note, ORIGIN, verifier);
    expect(checkpoint.size).toBe(600);
    expect(Buffer.from(checkpoint.root).toString('hex')).toBe(signed.root);
    expect(checkpoint.root).toEqual(rootFromLeafHashes(all.map((e) => leafHash(bytes(e.entry)))));

    // A tile client (tileHashReader) checks every tile it reads against the checkpoint's root.
    const read: string[] = [];
    const tiles = tileHashReader(checkpoint, {
      readTiles: (wanted: readonly Tile[]) =>
        Promise.all(
          wanted.map((t) => {
            read.push(tilePath(t));
            return log.tile(tilePath(t));
          }),
        ),
    });
    const proofTree = dbHashReader(db);
    const proof = await proveConsistency(600, 300, tiles);
    expect(proof).toEqual(await proveConsistency(600, 300, proofTree));
    const rootAt300 = rootFromLeafHashes(all.slice(0, 300).map((e) => leafHash(bytes(e.entry))));
    expect(verifyConsistency(proof, 600, checkpoint.root, 300, rootAt300)).toBe(true);
    expect(read).toContain('tile/0/002.p/88');

    const bundle = parseEntryBundle(await log.tile('tile/entries/001'));
    expect(bundle.map((b) => new TextDecoder().decode(b))).toEqual(all.slice(256, 512).map((e) => e.entry));
    expect(parseEntryBundle(await log.tile('tile/entries/002.p/88'))).toHaveLength(88);
    // A partial tile narrower than what the tree holds is the prefix asked for.
    expect((await log.tile('tile/0/002.p/10')).length).toBe(320);

    const notFound = ['tile/0/002', 'tile/0/002.p/89', 'tile/0/003.p/1', 'tile/1/000', 'tile/1/000.p/3', 'tile/entries/002', 'tile/entries/003.p/1'];
    for (const path of notFound) await expect(log.tile(path), path).rejects.toMatchObject({ code: 'log_tile_not_found' });
    expect(await log.tile('tile/1/000.p/2')).toHaveLength(64);
    const malformed = ['tile/0/2', 'tile/0/x000/002', 'tile/0/000.p/256', 'tile/0/000.p/07', 'tile/64/000', 'tile/entries/', 'tile/0/000/', 'tiles/0/000'];
    for (const path of malformed) {
      const error = await log.tile(path).catch((e: unknown) => e);
      expect(error, path).toBeInstanceOf(VigilError);
      expect((error as VigilError).code, path).toBe('log_tile_malformed');
    }

    const found = await log.proofFor(all[300]!.subject, T0 + 2);
    expect(found?.entry).toBe(all[300]!.entry);
    const verified = verifyTlogProof(found!.proof, { leafHash: leafHash(bytes(all[300]!.entry)), origin: ORIGIN, logVerifier: verifier });
    expect(verified.index).toBe(300);
    expect(verified.checkpoint.size).toBe(600);
    expect(await log.proofFor('attestation:sha256:none', T0)).toBeNull();
    // Every checkpoint served is kept, for the startup check.
    const kept = await db.selectFrom('log_checkpoints').select('size').orderBy('size').execute();
    expect(kept.map((k) => Number(k.size))).toEqual([0, 600]);
  });

  it('the startup check recomputes the root from the entries and finds an edited entry, a deleted one, and a tree that is not the last checkpoint', async () => {
    const db = ctx.db();
    const log = createTransparencyLog({ db, secretKey: generateSecretKey(), origin: ORIGIN });
    await inTransaction(db, (trx) => appendLogEntries(trx, Array.from({ length: 40 }, (_, i) => entry(i)), T0));
    await log.checkpoint(T0);
    await inTransaction(db, (trx) => appendLogEntries(trx, [entry(40), entry(41)], T0));
    expect(await checkTransparencyLog(db)).toEqual({ size: 42, checkpointSize: 40, problem: null });

    await db.updateTable('log_entries').set({ entry: entry(99).entry }).where('idx', '=', 7).execute();
    expect((await checkTransparencyLog(db)).problem).toBe('entry 7: its leaf hash is not the stored one (the entry was changed)');
    await db.updateTable('log_entries').set({ entry: entry(7).entry }).where('idx', '=', 7).execute();
    expect((await checkTransparencyLog(db)).problem).toBeNull();

    // A rewritten tree: the entry and its stored leaf hash both changed; the interior hashes and the
    // signed checkpoint no longer agree with the entries.
    await db.updateTable('log_entries').set({ entry: entry(99).entry }).where('idx', '=', 7).execute();
    await db.updateTable('log_hashes').set({ hash: Buffer.from(leafHash(bytes(entry(99).entry))).toString('hex') }).where('hash_index', '=', storedHashIndex(0, 7)).execute();
    expect((await checkTransparencyLog(db)).problem).toMatch(/^the root of the entries \([0-9a-f]{64}\) is not the root of the stored hashes/);

    await db.updateTable('log_entries').set({ entry: entry(7).entry }).where('idx', '=', 7).execute();
    await db.updateTable('log_hashes').set({ hash: Buffer.from(leafHash(bytes(entry(7).entry))).toString('hex') }).where('hash_index', '=', storedHashIndex(0, 7)).execute();
    expect((await checkTransparencyLog(db)).problem).toBeNull();
    await db.deleteFrom('log_entries').where('idx', '=', 41).execute();
    await db.deleteFrom('log_entries').where('idx', '=', 40).execute();
    await db.deleteFrom('log_entries').where('idx', '=', 39).execute();
    expect((await checkTransparencyLog(db)).problem).toBe('the log holds 39 entries but a checkpoint of 40 was signed: entries are missing');
    await db.deleteFrom('log_entries').where('idx', '=', 3).execute();
    expect((await checkTransparencyLog(db)).problem).toMatch(/^the log holds 39 entries|entries 0 to 38: 1 missing/);
  });

  // Several instances share one PostgreSQL: one starting (a restart under load) checks the log while
  // the others append and sign. SQLite is one process with no other appender (and its one connection
  // stays held while a plugin's transformResult runs, so the race cannot be staged there).
  it.skipIf(ctx.dialect === 'sqlite')('the startup check judges the tree as of its first reads while another instance appends and signs a checkpoint', async () => {
    const db = ctx.db();
    const log = createTransparencyLog({ db, secretKey: generateSecretKey(), origin: ORIGIN });
    await inTransaction(db, (trx) => appendLogEntries(trx, Array.from({ length: 40 }, (_, i) => entry(i)), T0));
    await log.checkpoint(T0);
    // Right after the check has read the log's size (logSize's `last`), another instance appends 5
    // entries and signs a checkpoint over 45.
    let appended = false;
    const racing: KyselyPlugin = {
      transformQuery: (args) => args.node,
      async transformResult(args) {
        const row = args.result.rows[0];
        if (!appended && typeof row === 'object' && row !== null && 'last' in row) {
          appended = true;
          await inTransaction(db, (trx) => appendLogEntries(trx, Array.from({ length: 5 }, (_, i) => entry(40 + i)), T0));
          await log.checkpoint(T0);
        }
        return args.result;
      },
    };
    expect(await checkTransparencyLog(db.withPlugin(racing))).toEqual({ size: 40, checkpointSize: 40, problem: null });
    expect(appended).toBe(true);
    expect(await checkTransparencyLog(db)).toEqual({ size: 45, checkpointSize: 45, problem: null });
  });

  it('parallel appends give one sequence 0..N-1 with no gap (PostgreSQL: the advisory lock)', async () => {
    const db = ctx.db();
    // PostgreSQL: each transaction on its own pooled connection, all at once. SQLite: one writer at a time.
    const n = 24;
    await Promise.all(Array.from({ length: n }, (_, i) => inTransaction(db, (trx) => appendLogEntries(trx, [entry(i), entry(i + n)], T0))));
    const rows = await db.selectFrom('log_entries').select('idx').orderBy('idx').execute();
    expect(rows.map((r) => Number(r.idx))).toEqual(Array.from({ length: 2 * n }, (_, i) => i));
    expect((await checkTransparencyLog(db)).problem).toBeNull();
  });

  it('checkpointEvery signs and keeps a checkpoint at each interval, one per size, reads no cosignature, and reports a failed pass', async () => {
    const db = ctx.db();
    // Every statement the log runs, as text: the periodic pass must not read the witnesses' lines it would discard.
    const statements: string[] = [];
    const recording: KyselyPlugin = {
      transformQuery: (args) => {
        statements.push(JSON.stringify(args.node));
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const witness = formatVerifierKey('witness.test/w1', getPublicKey(generateSecretKey()), SIGNATURE_TYPE_COSIGNATURE_V1);
    const log = createTransparencyLog({ db: db.withPlugin(recording), secretKey: generateSecretKey(), origin: ORIGIN, witnesses: [witness] });
    const errors: unknown[] = [];
    const kept = async () => (await db.selectFrom('log_checkpoints').select('size').orderBy('size').execute()).map((r) => Number(r.size));
    const until = async (check: () => Promise<boolean>) => {
      // Up to a minute, well inside the test's guard: a fixed 2 s is short on a loaded two-core machine.
      for (const end = Date.now() + 60_000; Date.now() < end && !(await check()); ) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    const loop = checkpointEvery(log, 20, (error) => errors.push(error), () => T0);
    loop.start();
    try {
      // The first pass runs at once: the empty tree.
      await until(async () => (await kept()).length === 1);
      expect(await kept()).toEqual([0]);
      await inTransaction(db, (trx) => appendLogEntries(trx, [entry(0), entry(1), entry(2)], T0));
      await until(async () => (await kept()).includes(3));
      await inTransaction(db, (trx) => appendLogEntries(trx, [entry(3)], T0));
      await until(async () => (await kept()).includes(4));
      // Further passes over a tree that did not grow add nothing.
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await kept()).toEqual([0, 3, 4]);
      expect(errors).toEqual([]);
    } finally {
      loop.stop();
    }
    expect(statements.some((statement) => statement.includes('log_checkpoints'))).toBe(true);
    expect(statements.filter((statement) => statement.includes('log_cosignatures'))).toEqual([]);
    // Served, the checkpoint does read them: the recording would see a read if the pass made one.
    await log.checkpoint(T0);
    expect(statements.filter((statement) => statement.includes('log_cosignatures'))).toHaveLength(1);
    const failing = checkpointEvery({ keepCheckpoint: () => Promise.reject(new Error('database down')) }, 10, (error) => errors.push(error));
    failing.start();
    await until(async () => errors.length >= 2);
    failing.stop();
    expect((errors[0] as Error).message).toBe('database down');
  });

  it('consistency proofs: every pair of sizes of a 300-entry log verifies; a range outside 1 ≤ from ≤ to ≤ size is refused', async () => {
    const db = ctx.db();
    const log = createTransparencyLog({ db, secretKey: generateSecretKey(), origin: ORIGIN });
    const all = Array.from({ length: 300 }, (_, i) => entry(i));
    await inTransaction(db, (trx) => appendLogEntries(trx, all, T0));
    const leaves = all.map((e) => leafHash(bytes(e.entry)));
    const roots = leaves.map((_, i) => rootFromLeafHashes(leaves.slice(0, i + 1)));
    for (const to of [1, 2, 7, 255, 256, 257, 300]) {
      for (const from of [1, 2, 3, 128, 255, 256, 257, 299, 300].filter((f) => f <= to)) {
        const proof = await log.consistency(from, to);
        expect(verifyConsistency(proof, to, roots[to - 1]!, from, roots[from - 1]!), `${from}..${to}`).toBe(true);
      }
    }
    for (const [from, to] of [[0, 3], [4, 3], [1.5, 3], [-1, 3], [Number.NaN, 3]] as const) {
      await expect(log.consistency(from, to)).rejects.toMatchObject({ code: 'log_consistency_range' });
    }
    await expect(log.consistency(1, 301)).rejects.toMatchObject({ code: 'log_size_not_reached' });
  });
});
