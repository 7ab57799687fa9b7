import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

// Shared with @vigil/reference-agents' tests, which import it by relative path (as the server's tests
// import @vigil/registries' test-support): one copy for the workspace. Never published.

const made: string[] = [];

/**
 * Removes the directories made so far. Registered after the file that first imports this module;
 * where test files share their worker's modules (vitest `isolate: false`, as in
 * @vigil/reference-agents) this module is not evaluated again for the next file, so that package's
 * setup file registers it after every file.
 */
export async function removeTempDirs(): Promise<void> {
  const dirs = made.splice(0);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}
afterAll(removeTempDirs);

/** A fresh directory removed after the test file. */
export async function tempDir(prefix = 'vigil-package-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A fresh directory holding `files` (relative path → content). */
export async function dirWith(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await tempDir();
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}
