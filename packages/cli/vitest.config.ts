import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A hang guard, not a speed check: one test runs several CLI processes against a real server,
    // and on a loaded two-core machine that has taken over 30 s (and 83 s for `--wait`'s test in a
    // whole `pnpm test` at a load of 8 to 10, 2026-12-02).
    testTimeout: 240_000,
    // The same guard for hooks: a beforeAll that runs a few CLI processes against the server took
    // over vitest's default 10 s in a whole `pnpm test` on a loaded two-core machine (2026-12-01).
    hookTimeout: 240_000,
    // Several files start a real server with the demo seed (CPU-heavy for a minute or more): one
    // file at a time, so on CI's two cores they do not starve each other and the server suite.
    // (Two at a time was tried: the suite alone took 455 s instead of 807 s, but beside the other
    // suites of a whole `pnpm test` it took 965 s and the phase was not shown shorter.)
    fileParallelism: false,
    // Test files share the worker's module cache: the CLI's sources, the SDK and the test
    // support load once per run, not once per file (docs/benchmarks.md, "Test suite time").
    // Safe because no test file changes module-level state for the next: none calls vi.mock,
    // vi.stubEnv, vi.stubGlobal or vi.spyOn, fakes timers, sets process.env or chdirs; each
    // starts its own servers and temporary homes, and the test support's module-level state
    // is the run's demo template (made once either way). A file that needs a fresh module
    // graph must say so in a project of its own with isolate: true.
    isolate: false,
    // Seeds the demo once for the run; each file's server starts on a copy (test-support/demo-template.ts).
    globalSetup: ['../../test-support/demo-template-setup.ts'],
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
