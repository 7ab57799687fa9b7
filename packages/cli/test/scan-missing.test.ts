import { describe, expect, it } from 'vitest';
import { run } from '../src/run.js';

describe('vigil scan of a path that does not exist', () => {
  it('names the path, not the <path> placeholder, and exits 1', async () => {
    let stderr = '';
    const code = await run(['scan', './no-such-dir/pkg.tgz'], { stdout: () => {}, stderr: (t) => void (stderr += t), env: {} });
    expect(code).toBe(1);
    expect(stderr).toBe('vigil: ./no-such-dir/pkg.tgz: does not exist\n');
  });
});
