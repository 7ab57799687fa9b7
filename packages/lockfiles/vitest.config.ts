import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A hang guard, not a speed target: the scale and property tests are CPU-bound (7–15 s alone) and
    // ran past 30 s in CI beside the server's suite on 2 cores. A quadratic reader still takes minutes.
    testTimeout: 120_000,
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
