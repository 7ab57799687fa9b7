import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

// Shared with @vigil/reference-agents' tests, which import it by relative path (as the server's tests
// import @vigil/registries' test-support): one copy for the workspace. Never published.

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

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
