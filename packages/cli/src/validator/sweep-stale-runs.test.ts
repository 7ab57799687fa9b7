import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { STALE_RUN_MS, sweepStaleRuns } from './sweep-stale-runs.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('removes run directories a killed validator left, and keeps recent ones another validator may be using', async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-sweep-runs-'));
  const old = join(dir, 'runs', 'task_old');
  const fresh = join(dir, 'runs', 'task_fresh');
  for (const run of [old, fresh]) {
    await mkdir(join(run, 'artifact'), { recursive: true });
    await writeFile(join(run, 'artifact', 'index.js'), 'x');
  }
  // What an agent may leave in its scratch: a directory without permissions (fs.rm alone fails on it when not root).
  await mkdir(join(old, 'scratch', 'locked', 'deep'), { recursive: true });
  await chmod(join(old, 'scratch', 'locked'), 0);
  const now = Date.now();
  const long = new Date(now - STALE_RUN_MS - 60_000);
  await utimes(old, long, long);
  expect(await sweepStaleRuns(dir, now)).toBe(1);
  expect(existsSync(old)).toBe(false);
  expect(existsSync(join(fresh, 'artifact', 'index.js'))).toBe(true);
  // No runs directory yet: nothing to do.
  expect(await sweepStaleRuns(join(dir, 'absent'), now)).toBe(0);
});
