import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// package.json `imports` point at dist (what ships); tests run the sources, so the Node branch of
// the seam is mapped to its source here. seam.test.ts checks the shipped map itself.
const nativeSource = fileURLToPath(new URL('./src/ed25519-native.ts', import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '#ed25519-default': nativeSource,
      '#ed25519-native': nativeSource,
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
