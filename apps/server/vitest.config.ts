import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    // vitest's default number of workers (one on CI's two cores). Two files at a time was tried
    // (docs/benchmarks.md, "Test suite time"): the added load on CI's two cores made
    // @vigil/sandbox's escape tests, which run beside this suite, end an agent with `crashed: exit 1`
    // in two fresh-clone runs out of two; back to one until that is understood.
    // A hang guard like testTimeout: a PostgreSQL file's beforeAll migrates a fresh schema, which
    // passed vitest's default 10 s on a loaded two-core machine running two files at once.
    hookTimeout: 30_000,
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
