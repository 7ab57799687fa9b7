import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A hang guard, not a speed check: one test runs several CLI processes against a real server,
    // and on a loaded two-core machine that has taken over 30 s.
    testTimeout: 90_000,
    // Several files start a real server with the demo seed (CPU-heavy for a minute or more): one
    // file at a time, so on CI's two cores they do not starve each other and the server suite.
    // (Two at a time was tried: the suite alone took 455 s instead of 807 s, but beside the other
    // suites of a whole `pnpm test` it took 965 s and the phase was not shown shorter.)
    fileParallelism: false,
    // Seeds the demo once for the run; each file's server starts on a copy (test-support/demo-template.ts).
    globalSetup: ['../../test-support/demo-template-setup.ts'],
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
