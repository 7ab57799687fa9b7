import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileMetagraphSource } from './file-metagraph-source.js';
import { MetagraphError } from './metagraph-error.js';
import { ALICE, BOB, CHARLIE, sampleSnapshot } from './test-support/snapshots.js';
import { writeSnapshotFile } from './write-snapshot-file.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-metagraph-'));
  file = join(dir, 'metagraph.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(source: FileMetagraphSource): Promise<MetagraphError> {
  const error = await source.snapshot().then(
    () => {
      throw new Error('expected the read to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MetagraphError);
  return error as MetagraphError;
}

describe('FileMetagraphSource', () => {
  it('reads a valid snapshot file, keeping extra fields', async () => {
    await writeFile(file, JSON.stringify({ ...sampleSnapshot(), chain: 'finney' }));
    const snapshot = await new FileMetagraphSource(file).snapshot();
    expect(snapshot).toEqual({ ...sampleSnapshot(), chain: 'finney' });
  });

  it('does not re-read an unchanged file', async () => {
    await writeFile(file, JSON.stringify(sampleSnapshot()));
    const source = new FileMetagraphSource(file);
    const first = await source.snapshot();
    expect(await source.snapshot()).toBe(first);
  });

  it('picks up a file rewritten in place once its mtime changes', async () => {
    await writeFile(file, JSON.stringify(sampleSnapshot()));
    const source = new FileMetagraphSource(file);
    expect((await source.snapshot()).block).toBe(4_200_000);

    const next = sampleSnapshot({ block: 4_200_360, neurons: [{ uid: 0, hotkey: CHARLIE, validator_permit: true }] });
    await writeFile(file, JSON.stringify(next));
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    const snapshot = await source.snapshot();
    expect(snapshot.block).toBe(4_200_360);
    expect(snapshot.neurons.map((n) => n.hotkey)).toEqual([CHARLIE]);
  });

  it('picks up a file replaced atomically by writeSnapshotFile', async () => {
    await writeSnapshotFile(file, sampleSnapshot());
    const source = new FileMetagraphSource(file);
    await source.snapshot();
    await writeSnapshotFile(file, sampleSnapshot({ block: 4_200_001 }));
    expect((await source.snapshot()).block).toBe(4_200_001);
  });

  it('names the file when it is missing', async () => {
    const error = await failure(new FileMetagraphSource(file));
    expect(error.kind).toBe('file_unreadable');
    expect(error.source).toBe(file);
    expect(error.message).toContain(file);
  });

  it('names the file and the problem when the content is not JSON', async () => {
    await writeFile(file, '{"netuid": 76,');
    const error = await failure(new FileMetagraphSource(file));
    expect(error.kind).toBe('snapshot_invalid');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/not valid JSON/);
  });

  it('names the offending field when the JSON is not a snapshot', async () => {
    const bad = sampleSnapshot();
    await writeFile(file, JSON.stringify({ ...bad, neurons: [{ uid: -1, hotkey: ALICE, validator_permit: 'yes' }] }));
    const error = await failure(new FileMetagraphSource(file));
    expect(error.kind).toBe('snapshot_invalid');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/neurons\[0\]\.uid/);
    expect(error.message).toMatch(/neurons\[0\]\.validator_permit/);
  });

  it('refuses a snapshot of another netuid, or one that repeats a uid or hotkey', async () => {
    await writeFile(file, JSON.stringify(sampleSnapshot({ netuid: 1 })));
    expect((await failure(new FileMetagraphSource(file))).message).toMatch(/netuid 1, expected netuid 76/);

    const repeatedUid = sampleSnapshot({
      neurons: [
        { uid: 0, hotkey: ALICE, validator_permit: true },
        { uid: 0, hotkey: BOB, validator_permit: false },
      ],
    });
    await writeFile(file, JSON.stringify(repeatedUid));
    expect((await failure(new FileMetagraphSource(file))).message).toMatch(/neurons\[1\]\.uid 0 appears twice/);

    const repeatedHotkey = sampleSnapshot({
      neurons: [
        { uid: 0, hotkey: ALICE, validator_permit: false },
        { uid: 1, hotkey: ALICE, validator_permit: true },
      ],
    });
    await writeFile(file, JSON.stringify(repeatedHotkey));
    expect((await failure(new FileMetagraphSource(file))).message).toMatch(/neurons\[1\]\.hotkey .* appears twice/);
  });

  it('fails (instead of serving the old content) once a good file turns bad', async () => {
    await writeFile(file, JSON.stringify(sampleSnapshot()));
    const source = new FileMetagraphSource(file);
    await source.snapshot();
    await writeFile(file, 'garbage');
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    expect((await failure(source)).kind).toBe('snapshot_invalid');
  });

  it('accepts another netuid when told to, and rejects a bad path argument', async () => {
    await writeFile(file, JSON.stringify(sampleSnapshot({ netuid: 1 })));
    expect((await new FileMetagraphSource(file, { netuid: 1 }).snapshot()).netuid).toBe(1);
    expect(() => new FileMetagraphSource('')).toThrow(/path/);
  });
});
