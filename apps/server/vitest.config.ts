import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/support/slow-files-first.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A hang guard, not a speed check. 30 s was too short on a machine of CI's kind that ran a whole
    // `pnpm test` at a load of 8 to 10 (2026-12-02): tests that take 5 to 15 s alone reached 27 to
    // 30 s, and four of bin.test.ts's failed at 30 s.
    testTimeout: 120_000,
    // Two test files at a time at least. vitest's default is one fewer worker than cores: one on
    // CI's two, where this suite (146 files, the most of any package) then ran them one by one and,
    // once the other packages were done, left a core idle; and many of its files wait on child
    // processes, sockets and timers rather than on the CPU. Every file already runs beside
    // others on a machine with more cores (own PostgreSQL schema, own data directories). (Tried
    // once before and taken back when @vigil/sandbox's escape tests, running beside, saw agents end
    // `crashed: exit 1`: the sandbox's stdin was non-blocking, fixed; docs/benchmarks.md.)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Test files share each worker's module cache: the server's modules (about 1,400 files with its
    // dependencies) load once per worker, not once per file. Importing them was most of a file's
    // CPU (ten files alone: 63 s of CPU isolated, 19 s shared), and a whole `pnpm test` from a new
    // clone on a quiet two-core machine took 9 min 51 s with it against 14 min 04 s before issue 25
    // (docs/benchmarks.md, "Test suite time"). Safe because no test file changes module-level state
    // for the next: each builds its own runtime, app and database (startTestApp,
    // describeEachDialect), none calls vi.mock, vi.stubEnv or vi.stubGlobal, and the three that spy
    // or fake timers restore them. A file that needs a fresh module graph must say so in a project
    // of its own with isolate: true.
    isolate: false,
    // A hang guard like testTimeout: a PostgreSQL file's beforeAll migrates a fresh schema, which
    // passed vitest's default 10 s on a loaded two-core machine running two files at once.
    hookTimeout: 120_000,
    // The files that take a minute or so start first, so that none of them starts last and keeps one
    // worker busy after the other is done (test/support/slow-files-first.ts).
    sequence: { sequencer: SlowFilesFirst },
    // The JSON report feeds the workspace summary line printed by scripts/run-tests.mjs.
    reporters: ['default', 'json', '../../scripts/vitest-suite-errors.mjs'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
