import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
