import {
  MAX_LOCKFILE_ENTRIES,
  parsePackageRef,
  PackageRefError,
  type LockfileDependency,
  type LockfileEcosystem,
  type LockfileFormat,
  type LockfileSkip,
  type ParsedLockfile,
} from '@vigil/core';
import { lockfileMalformed, lockfileTooManyEntries } from './lockfile-errors.js';
import type { SkipReason } from './skip-reasons.js';

export interface FoundPackage {
  ecosystem: LockfileEcosystem;
  name: string;
  version: string;
  direct: boolean | null;
  dev: boolean | null;
  /** Where the entry is, for the error when its name or version cannot make a purl. */
  line: number | (() => number);
}

/** Direct when any occurrence is; unknown only when no occurrence says yes and one does not know. */
function mergeDirect(a: boolean | null, b: boolean | null): boolean | null {
  if (a === true || b === true) return true;
  if (a === null || b === null) return null;
  return false;
}

/** Development-only when every occurrence is; a production occurrence makes it production. */
function mergeDev(a: boolean | null, b: boolean | null): boolean | null {
  if (a === false || b === false) return false;
  if (a === null || b === null) return null;
  return true;
}

/**
 * Gathers what one reader finds: each purl once (the same package reached twice, say by two
 * workspace members, is merged), every skipped entry, and the entry bound checked as entries arrive
 * so that an oversized file stops early.
 */
export class LockfileCollector {
  private readonly packages = new Map<string, LockfileDependency>();
  private readonly skipped: LockfileSkip[] = [];

  constructor(readonly path: string) {}

  add(found: FoundPackage): void {
    let purl: string;
    try {
      purl = parsePackageRef(`${found.ecosystem}:${found.name}@${found.version}`).purl;
    } catch (error) {
      if (!(error instanceof PackageRefError)) throw error;
      const line = typeof found.line === 'function' ? found.line() : found.line;
      throw lockfileMalformed(this.path, line, `${JSON.stringify(`${found.name}@${found.version}`)} is not a package name and version`);
    }
    const existing = this.packages.get(purl);
    if (existing) {
      existing.direct = mergeDirect(existing.direct, found.direct);
      existing.dev = mergeDev(existing.dev, found.dev);
      return;
    }
    this.packages.set(purl, { ecosystem: found.ecosystem, name: found.name, version: found.version, purl, direct: found.direct, dev: found.dev });
    this.checkBound();
  }

  skip(name: string | null, line: number | null, reason: SkipReason): void {
    this.skipped.push({ name, line, reason });
    this.checkBound();
  }

  result(format: LockfileFormat, formatVersion: string | null): ParsedLockfile {
    const packages = [...this.packages.values()];
    return {
      path: this.path,
      format,
      format_version: formatVersion,
      packages,
      direct_count: packages.filter((p) => p.direct === true).length,
      dev_count: packages.filter((p) => p.dev === true).length,
      skipped: this.skipped,
    };
  }

  private checkBound(): void {
    if (this.packages.size + this.skipped.length > MAX_LOCKFILE_ENTRIES) throw lockfileTooManyEntries(this.path);
  }
}
