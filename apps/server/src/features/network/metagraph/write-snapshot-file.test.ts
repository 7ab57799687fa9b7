import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileMetagraphSource } from './file-metagraph-source.js';
import { MetagraphError } from './metagraph-error.js';
import { ALICE, BOB, CHARLIE, sampleSnapshot } from './test-support/snapshots.js';
import { SubtensorMetagraphSource } from './subtensor-metagraph-source.js';
import { startStandInSubtensor, subnetStorage } from './test-support/stand-in-subtensor.js';
import { exportMetagraphSnapshot, writeSnapshotFile } from './write-snapshot-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-metagraph-write-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeSnapshotFile', () => {
  it('writes a file the file source reads back, neurons in uid order, creating the directory', async () => {
    const file = join(dir, 'nested', 'metagraph.json');
    const snapshot = sampleSnapshot({
      neurons: [
        { uid: 2, hotkey: CHARLIE, validator_permit: false },
        { uid: 0, hotkey: ALICE, validator_permit: true },
        { uid: 1, hotkey: BOB, validator_permit: false },
      ],
    });
    await writeSnapshotFile(file, snapshot);

    const read = await new FileMetagraphSource(file).snapshot();
    expect(read.neurons.map((n) => n.uid)).toEqual([0, 1, 2]);
    expect(read.neurons[0]).toEqual({ uid: 0, hotkey: ALICE, validator_permit: true });
    expect(read.block).toBe(snapshot.block);
    expect(read.taken_at).toBe(snapshot.taken_at);
    expect((await readFile(file, 'utf8')).endsWith('}\n')).toBe(true);
    expect(await readdir(join(dir, 'nested'))).toEqual(['metagraph.json']);
  });

  it('refuses to write an invalid snapshot and leaves no file behind', async () => {
    const file = join(dir, 'metagraph.json');
    const bad = { ...sampleSnapshot(), block: -5 };
    await expect(writeSnapshotFile(file, bad)).rejects.toBeInstanceOf(MetagraphError);
    await expect(writeSnapshotFile(file, bad)).rejects.toThrow(/snapshot: .*block/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('names the path argument when it is empty', async () => {
    await expect(writeSnapshotFile('', sampleSnapshot())).rejects.toThrow(/path/);
  });

  it('exports a live chain read to a file that the file source serves offline', async () => {
    const chain = await startStandInSubtensor({
      storage: subnetStorage(76, [{ publicKey: Buffer.alloc(32, 3), validatorPermit: true }]),
      blockNumber: 777,
    });
    try {
      const file = join(dir, 'metagraph-76.json');
      const live = await exportMetagraphSnapshot(new SubtensorMetagraphSource({ url: chain.httpUrl }), file);
      const offline = await new FileMetagraphSource(file).snapshot();
      expect(offline).toEqual(live);
      expect(offline.block).toBe(777);
      expect(offline.neurons).toHaveLength(1);
    } finally {
      await chain.close();
    }
  });
});
