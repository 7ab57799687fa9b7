import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A hang guard, not a speed check: the suites start a real server with the demo seed and run
    // the sandboxed reference agent, which on a loaded two-core machine takes tens of seconds.
    testTimeout: 120_000,
    // Each file starts a real server (CPU-heavy for a minute or more): one file at a time.
    fileParallelism: false,
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
