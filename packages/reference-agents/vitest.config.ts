import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The eval corpus is data (defanged malicious samples), never tests to run.
    exclude: ['eval/**', 'node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    // The corpus files analyze every sample in beforeAll (about 10 s idle, several times that beside other suites).
    hookTimeout: 180_000,
    // Test files share each worker's module cache: the analyzers and their parsers load once per
    // worker, not once per file, and a corpus sample analyzed by one file is read by the next
    // (src/test-support/corpus-analysis.ts). Safe because no test file changes module-level state
    // for the next: none calls vi.mock, vi.stubEnv, vi.stubGlobal or vi.spyOn, none sets
    // process.env, and the analyzers' module-level caches are keyed by their input
    // (docs/benchmarks.md, "Test suite time"). A file that needs a fresh module graph must say so
    // in a project of its own with isolate: true.
    isolate: false,
    // Removes each file's temporary directories after it (temp-dirs.ts is evaluated once per worker).
    setupFiles: ['src/test-support/after-each-file.ts'],
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
