import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkServerBuilt } from './support/vigil-server.js';

// The check the SDK's and the CLI's real-server suites run at import (test-support/vigil-server.ts).
describe('checkServerBuilt', () => {
  const missing = join(tmpdir(), 'vigil-no-such-build', 'bin.js');

  it('fails under CI=true when the server binary is missing, naming it', () => {
    expect(() => checkServerBuilt(missing, { CI: 'true' })).toThrow(`${missing} is not built; CI=true requires the tests against a real server`);
    expect(() => checkServerBuilt(missing, { CI: ' true\n' })).toThrow(/CI=true requires/);
  });

  it('skips (false) without CI=true, and runs (true) when the binary exists', () => {
    expect(checkServerBuilt(missing, {})).toBe(false);
    expect(checkServerBuilt(missing, { CI: 'false' })).toBe(false);
    expect(checkServerBuilt(fileURLToPath(import.meta.url), { CI: 'true' })).toBe(true);
  });
});
