import { describe, expect, it } from 'vitest';
import { generatedLockfile, type GeneratedFormat } from './test-support/generated-lockfiles.js';
import { parseLockfile } from './parse-lockfile.js';

const PATHS: Record<GeneratedFormat, string> = {
  'package-lock': 'package-lock.json',
  'pnpm-lock': 'pnpm-lock.yaml',
  'yarn-classic': 'yarn.lock',
  'yarn-berry': 'yarn.lock',
  'bun-lock': 'bun.lock',
  'uv-lock': 'uv.lock',
  'requirements-txt': 'requirements.txt',
};

/**
 * Lockfiles near the entry bound, each a 19,000-package dependency chain (the deepest graph walk).
 * Every reader is linear; a quadratic scan here takes minutes and fails on the suite's timeout.
 */
describe('a lockfile of 19,000 packages', () => {
  it.each(Object.entries(PATHS))('%s', (format, path) => {
    const result = parseLockfile({ path, content: generatedLockfile(format as GeneratedFormat, 19_000) });
    expect(result.packages).toHaveLength(19_000);
    const recordsDirect = format !== 'yarn-classic';
    expect(result.direct_count).toBe(!recordsDirect ? 0 : format === 'requirements-txt' ? 19_000 : 9_500);
    if (format === 'pnpm-lock' || format === 'bun-lock' || format === 'uv-lock') {
      // The chain hangs off production dependencies all the way down: nothing in it is development-only.
      expect(result.packages.every((p) => p.dev === false)).toBe(true);
    }
  });
});
