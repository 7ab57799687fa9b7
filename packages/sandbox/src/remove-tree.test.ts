import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { removeTree } from './remove-tree.js';
import { tempDir } from './test-support/temp-dirs.js';

it('removes a tree nested past PATH_MAX and directories without permissions, where fs.rm gives up', async (context) => {
  if (process.platform === 'win32') context.skip();
  const root = await tempDir();
  const top = join(root, 'scratch');
  // Built by relative paths from a moving working directory, as an agent can: no absolute path
  // to the deepest file fits in PATH_MAX (4096).
  execFileSync(process.execPath, [
    '-e',
    `const fs = require('fs'); fs.mkdirSync(${JSON.stringify(top)}); process.chdir(${JSON.stringify(top)});
     fs.mkdirSync('locked/inner', { recursive: true }); fs.writeFileSync('locked/inner/x', 'x'); fs.chmodSync('locked/inner', 0); fs.chmodSync('locked', 0);
     const name = 'd'.repeat(200); for (let i = 0; i < 30; i++) { fs.mkdirSync(name); process.chdir(name); } fs.writeFileSync('marker.txt', 'x');`,
  ]);
  expect(await removeTree(top)).toBe(true);
  expect(existsSync(top)).toBe(false);
  // Already gone: still fine.
  expect(await removeTree(top)).toBe(true);
});
