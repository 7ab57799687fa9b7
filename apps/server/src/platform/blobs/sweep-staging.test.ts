import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STAGING_ORPHAN_AGE_MS, sweepStagingFiles } from './sweep-staging.js';

describe('sweepStagingFiles', () => {
  it('removes staging files older than the orphan age and keeps fresh ones', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vigil-sweep-'));
    try {
      mkdirSync(join(root, 'staging'));
      const now = Date.now();
      writeFileSync(join(root, 'staging', 'old.tmp'), 'x');
      const old = (now - STAGING_ORPHAN_AGE_MS - 1000) / 1000;
      utimesSync(join(root, 'staging', 'old.tmp'), old, old);
      writeFileSync(join(root, 'staging', 'fresh.tmp'), 'y');
      expect(await sweepStagingFiles(root, now)).toBe(1);
      expect(readdirSync(join(root, 'staging'))).toEqual(['fresh.tmp']);
      expect(await sweepStagingFiles(join(root, 'missing'), now)).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
