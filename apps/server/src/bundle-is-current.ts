import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Whether the esbuild bundle of main.js (dist/bundle/, scripts/build-bundle.mjs) may run: bin.ts
// runs the modules tsc wrote instead wherever it may not (docs/benchmarks.md, "Server start-up").

/** The record the build writes beside the bundle (build.json). */
interface BundleRecord {
  /** Every file the bundle was built from: its path from the bundle's directory, modification time (ms) and size. */
  inputs: [path: string, mtimeMs: number, size: number][];
  /** The files of this build in the bundle's directory. */
  outputs: string[];
}

/**
 * Whether the bundle in `bundleDir` was built from the files as they are now: each file its record
 * lists still has the modification time and size it had then. A source edited and compiled again
 * with `tsc -b` alone, a workspace package rebuilt on its own, a dependency installed anew, or a
 * missing record all answer false, so a stale bundle never runs.
 */
export function bundleIsCurrent(bundleDir: string): boolean {
  let record: BundleRecord;
  try {
    record = JSON.parse(readFileSync(join(bundleDir, 'build.json'), 'utf8')) as BundleRecord;
  } catch {
    return false;
  }
  if (!Array.isArray(record.inputs) || record.inputs.length === 0) return false;
  for (const [path, mtimeMs, size] of record.inputs) {
    const stats = statSync(join(bundleDir, path), { throwIfNoEntry: false });
    if (stats === undefined || stats.mtimeMs !== mtimeMs || stats.size !== size) return false;
  }
  return true;
}

/** The directory of the bundle beside dist/bin.js. */
export function bundleDirNextTo(moduleUrl: string): string {
  return fileURLToPath(new URL('./bundle/', moduleUrl));
}
