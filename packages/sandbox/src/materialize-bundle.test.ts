import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { materializeBundle } from './materialize-bundle.js';
import { tempDir } from './test-support/temp-dirs.js';

describe('materializeBundle', () => {
  const file = (path: string, mode?: '0644' | '0755') => ({ path, content_base64: Buffer.from(`# ${path}\n`).toString('base64'), ...(mode ? { mode } : {}) });

  it('writes every file with its mode', async () => {
    const dir = await materializeBundle({ format: 'vigil-agent-bundle/1', entrypoint: 'bin/run.js', files: [file('bin/run.js', '0755'), file('lib/a.js')] }, join(await tempDir(), 'b'));
    expect(await readFile(join(dir, 'lib/a.js'), 'utf8')).toBe('# lib/a.js\n');
    expect((await stat(join(dir, 'bin/run.js'))).mode & 0o777).toBe(0o755);
    expect((await stat(join(dir, 'lib/a.js'))).mode & 0o777).toBe(0o644);
  });

  it('refuses unsafe paths before writing anything, and a directory that is not empty', async () => {
    const parent = await tempDir();
    await expect(materializeBundle({ format: 'vigil-agent-bundle/1', entrypoint: 'a.js', files: [file('a.js'), file('../escape.js')] }, join(parent, 'b'))).rejects.toThrow(
      'bundle.files.1.path: must not contain ".." segments',
    );
    await expect(materializeBundle({ format: 'vigil-agent-bundle/1', entrypoint: '/a.js', files: [file('/a.js')] }, join(parent, 'c'))).rejects.toThrow('must be relative');
    expect(existsSync(join(parent, 'escape.js'))).toBe(false);
    await mkdir(join(parent, 'full'));
    await writeFile(join(parent, 'full', 'x'), '');
    await expect(materializeBundle({ format: 'vigil-agent-bundle/1', entrypoint: 'a.js', files: [file('a.js')] }, join(parent, 'full'))).rejects.toThrow('is not empty');
  });
});
