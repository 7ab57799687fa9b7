import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve) => {
    execFile(command, args, { env: {} }, () => resolve());
  });
}

/**
 * Removes a directory an agent wrote in, never throwing: an agent can leave what `fs.rm` cannot
 * remove — directories it made unreadable (chmod 0, for a runner that is not root), paths nested
 * past PATH_MAX. Those go through `chmod -R u+rwx` and `rm -rf`, which walk by descriptor.
 * Resolves to whether the tree is gone.
 */
export async function removeTree(dir: string): Promise<boolean> {
  try {
    await rm(dir, { recursive: true, force: true });
    return true;
  } catch {
    // Below.
  }
  if (process.platform !== 'win32') {
    await run('chmod', ['-R', 'u+rwx', '--', dir]);
    await run('rm', ['-rf', '--', dir]);
  }
  return !existsSync(dir);
}
