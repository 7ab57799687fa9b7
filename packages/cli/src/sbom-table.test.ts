import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notAllowed } from '@vigil/core';
import { readJson } from './context.js';

describe('vigil sbom', () => {
  it('lists a pending dependency even when the policy gives it ALLOW (outsider finding M1), not a decided ALLOW', () => {
    expect(notAllowed({ verdict: 'ALLOW', state: 'pending' })).toBe(true);
    expect(notAllowed({ verdict: 'WARN', state: 'decided' })).toBe(true);
    expect(notAllowed({ verdict: 'BLOCK', state: 'decided' })).toBe(true);
    expect(notAllowed({ verdict: 'ALLOW', state: 'decided' })).toBe(false);
  });

  it('reads a file that starts with a UTF-8 byte order mark, as the server does', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vigil-bom-')), 'bom.json');
    writeFileSync(file, '\uFEFF{"bomFormat":"CycloneDX"}', 'utf8');
    expect(await readJson({ stdout: () => {}, stderr: () => {}, env: {} }, file, 'file')).toEqual({ bomFormat: 'CycloneDX' });
    expect(await readJson({ stdout: () => {}, stderr: () => {}, env: {}, readStdin: async () => '\uFEFF[1]' }, '-', 'file')).toEqual([1]);
  });
});
