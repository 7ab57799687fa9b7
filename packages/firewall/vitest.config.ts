import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A hang guard, not a speed target: the suites against a real server start one with the demo
    // seed and run the real npm and pnpm through the firewall.
    testTimeout: 180_000,
    hookTimeout: 660_000,
    // The demo is seeded once for the run; each file's Vigil server starts on a copy
    // (test-support/demo-template.ts), as in the SDK's and the CLI's suites.
    globalSetup: ['../../test-support/demo-template-setup.ts'],
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
