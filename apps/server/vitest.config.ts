import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    // Two test files at a time at least. vitest's default is one fewer worker than cores: one on
    // CI's two, where this suite (146 files, the most of any package) then ran them one by one and,
    // once the other packages were done, left a core idle; and many of its files wait on child
    // processes, sockets and timers rather than on the CPU. Every file already runs beside
    // others on a machine with more cores (own PostgreSQL schema, own data directories). (Tried
    // once before and taken back when @vigil/sandbox's escape tests, running beside, saw agents end
    // `crashed: exit 1`: the sandbox's stdin was non-blocking, fixed; docs/benchmarks.md.)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each file in its own process (vitest's default isolation). `isolate: false` (files sharing a
    // worker's module cache) cut ten files' CPU from 63 s to 19 s, but in whole `pnpm test` runs on
    // two cores it showed no shorter wall time and more tests past their hang guards; kept off
    // until a clean A/B says otherwise (docs/benchmarks.md, "Test suite time").
    // A hang guard like testTimeout: a PostgreSQL file's beforeAll migrates a fresh schema, which
    // passed vitest's default 10 s on a loaded two-core machine running two files at once.
    hookTimeout: 30_000,
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
