import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A hang guard, not a speed check: one test runs several CLI processes against a real server,
    // and on a loaded two-core machine that has taken over 30 s.
    testTimeout: 90_000,
    // Two files at a time. The demo is seeded once per run (globalSetup below) and each file's
    // server starts on a copy, so a file is no longer a minute of seeding; one at a time, this
    // suite outlasted the server's once that one stopped re-importing the server per file, and
    // left a core idle at the end of `pnpm test` (docs/benchmarks.md, "Test suite time").
    fileParallelism: true,
    maxWorkers: 2,
    // Seeds the demo once for the run; each file's server starts on a copy (test-support/demo-template.ts).
    globalSetup: ['../../test-support/demo-template-setup.ts'],
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
