import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** A staging file untouched this long belongs to no upload in progress (an upload writes as it reads). */
export const STAGING_ORPHAN_AGE_MS = 10 * 60_000;

/**
 * Removes staging files of uploads that never finished: a process that was killed, or stopped
 * while an upload stalled, leaves its `.tmp` behind. Returns how many were removed. Files written
 * within `olderThanMs` are left alone, so uploads in progress on another instance sharing the
 * directory are not touched.
 */
export async function sweepStagingFiles(root: string, now: number, olderThanMs = STAGING_ORPHAN_AGE_MS): Promise<number> {
  const staging = join(root, 'staging');
  let names: string[];
  try {
    names = await readdir(staging);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const path = join(staging, name);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile() || now - info.mtimeMs < olderThanMs) continue;
    await rm(path, { force: true });
    removed += 1;
  }
  return removed;
}
