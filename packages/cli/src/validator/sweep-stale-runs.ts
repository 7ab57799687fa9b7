import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { removeTree } from '@vigil/sandbox';

/** Longer than any run can last (the largest wall budget is one hour), with room to spare. */
export const STALE_RUN_MS = 2 * 60 * 60 * 1000;

/**
 * Removes the task scratch directories under `<workDir>/runs` that a validator killed mid-run left
 * behind (an unpacked artifact each). Only those untouched for STALE_RUN_MS: another validator
 * sharing the work directory may be running the rest. Resolves to how many it removed.
 */
export async function sweepStaleRuns(workDir: string, now: number): Promise<number> {
  const runs = join(workDir, 'runs');
  let names: string[];
  try {
    names = await readdir(runs);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const info = await stat(join(runs, name)).catch(() => undefined);
    if (info === undefined || now - info.mtimeMs <= STALE_RUN_MS) continue;
    // removeTree, not rm: a killed run's scratch may hold what its agent made undeletable.
    if (await removeTree(join(runs, name))) removed += 1;
  }
  return removed;
}
