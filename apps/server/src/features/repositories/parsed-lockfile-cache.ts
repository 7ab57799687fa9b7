import { createHash } from 'node:crypto';
import { LockfileError, parseLockfile, type ParsedLockfile } from '@vigil/lockfiles';
import { VigilError } from '../../platform/errors.js';

/** Parsed lockfiles kept per process, at most this many files… */
export const MAX_CACHED_LOCKFILES = 64;
/** …and at most this many packages over all of them (a parsed package is a few hundred bytes). */
export const MAX_CACHED_LOCKFILE_PACKAGES = 200_000;

const cache = new Map<string, ParsedLockfile>();
let cachedPackages = 0;

function keyOf(file: { path: string; content: string }): string {
  return createHash('sha256').update(file.path).update('\0').update(file.content).digest('hex');
}

/**
 * parseLockfile, remembered by the file's path and exact content: the same lockfile verified again
 * (CI jobs of one commit, a push that did not touch it) is not parsed again. Parsing is a pure
 * function of path and content, so a remembered result is never stale; verdicts are not remembered
 * here. A file that cannot be parsed is not remembered (its error is thrown each time).
 */
export function parseLockfileCached(file: { path: string; content: string }): ParsedLockfile {
  const key = keyOf(file);
  const known = cache.get(key);
  if (known !== undefined) {
    // Most recently used last: the first entry is the one to evict.
    cache.delete(key);
    cache.set(key, known);
    return known;
  }
  const parsed = parseOrRefuse(file);
  if (parsed.packages.length > MAX_CACHED_LOCKFILE_PACKAGES) return parsed;
  cache.set(key, parsed);
  cachedPackages += parsed.packages.length;
  while (cache.size > MAX_CACHED_LOCKFILES || cachedPackages > MAX_CACHED_LOCKFILE_PACKAGES) {
    const [oldestKey, oldest] = cache.entries().next().value as [string, ParsedLockfile];
    cache.delete(oldestKey);
    cachedPackages -= oldest.packages.length;
  }
  return parsed;
}

/** A refused lockfile as the server's error: the same catalogue code and exact detail. */
function parseOrRefuse(file: { path: string; content: string }): ParsedLockfile {
  try {
    return parseLockfile(file);
  } catch (error) {
    if (error instanceof LockfileError) throw new VigilError(error.code, { arg: error.detail, cause: error });
    throw error;
  }
}
