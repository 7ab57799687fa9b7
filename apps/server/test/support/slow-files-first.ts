import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite's files that take a minute or so on a quiet two-core machine (a fresh clone's whole
 * `pnpm test`, 2026-12-01: 106 s for the demo script down to about 30 s), longest first. They
 * start before the rest so that none of them starts last: with two workers, the demo script
 * starting at the end of a run (where vitest's first-run order, larger files first, put it) kept
 * one worker busy for 106 s after the other had finished. A file missing from this list only
 * runs in the default order; a file listed that no longer exists is ignored.
 */
export const SLOW_FILES: readonly string[] = [
  'test/demo-script.test.ts',
  'test/bin.test.ts',
  'test/dashboard-browser.test.ts',
  'test/artifacts.test.ts',
  'src/seed/demo.test.ts',
  'src/platform/db/migrate.test.ts',
  'test/watches.test.ts',
  'test/webhooks.test.ts',
  'test/postgres-faults.test.ts',
  'test/policies.test.ts',
  'src/features/network/auth/signed-auth-plugin.test.ts',
  'test/s3-blobs.test.ts',
  'src/features/network/public-reads/public-read-service.test.ts',
  'test/benchmark-secrecy.test.ts',
  'src/features/network/attestations/attestations-batch.test.ts',
];

/**
 * Puts the files of SLOW_FILES first, in that order, and keeps vitest's own order for the rest
 * (on a fresh clone, where it knows no durations yet: larger files first). Where vitest has
 * durations from an earlier run in this checkout, it would put these files first too.
 */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = SLOW_FILES.indexOf(relativeTo(f.project.config.root, f.moduleId));
      return i === -1 ? SLOW_FILES.length : i;
    };
    // Array.prototype.sort is stable: the unlisted files keep vitest's order among themselves.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

function relativeTo(root: string, file: string): string {
  const base = root.endsWith('/') ? root : `${root}/`;
  return file.startsWith(base) ? file.slice(base.length) : file;
}
