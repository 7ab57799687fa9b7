import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SLOW_FILES } from './support/slow-files-first.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// The list orders the suite's run (vitest.config.ts); a renamed or removed file would silently fall
// back to the default order, so each entry must still name a test file of this package.
describe('the slow files the suite starts first', () => {
  it('each name a test file of this package, once', () => {
    for (const file of SLOW_FILES) {
      expect(file, file).toMatch(/\.test\.ts$/);
      expect(existsSync(`${ROOT}${file}`), file).toBe(true);
    }
    expect(new Set(SLOW_FILES).size).toBe(SLOW_FILES.length);
  });
});
