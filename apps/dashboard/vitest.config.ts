import { defineConfig } from 'vitest/config';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
