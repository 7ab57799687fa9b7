import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MetagraphSnapshot } from '@vigil/core';
import { validateMetagraphSnapshot } from './metagraph-source.js';

/**
 * Saves a snapshot (typically a live subtensor read) as a metagraph file that `FileMetagraphSource`
 * and `vigil verify-attestation` read back. The file is replaced atomically, so a server polling it
 * never sees a half-written snapshot. Neurons are written in uid order for readable diffs.
 */
export async function writeSnapshotFile(path: string, snapshot: MetagraphSnapshot): Promise<void> {
  if (typeof path !== 'string' || path.length === 0) throw new TypeError('path: expected a non-empty file path');
  const valid = validateMetagraphSnapshot(snapshot, 'snapshot');
  const ordered = { ...valid, neurons: [...valid.neurons].sort((a, b) => a.uid - b.uid) };
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(ordered, null, 2)}\n`, { encoding: 'utf8', flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Reads `source` once and saves the result to `path`; what an operator's "export" command runs. */
export async function exportMetagraphSnapshot(
  source: { snapshot(): Promise<MetagraphSnapshot> },
  path: string,
): Promise<MetagraphSnapshot> {
  const snapshot = await source.snapshot();
  await writeSnapshotFile(path, snapshot);
  return snapshot;
}
