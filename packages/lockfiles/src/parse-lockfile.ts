import { MAX_LOCKFILE_BYTES, type LockfileFormat, type ParsedLockfile } from '@vigil/core';
import { LockfileCollector } from './lockfile-collector.js';
import { LockfileError } from './lockfile-error.js';
import { lockfileMalformed, lockfileTooLargeBytes, lockfileUnsupported } from './lockfile-errors.js';
import { LOCKFILE_NAMES, lockfileFormatOf } from './lockfile-format.js';
import { readBunLock } from './read-bun-lock.js';
import { readPackageLock } from './read-package-lock.js';
import { readPipfileLock } from './read-pipfile-lock.js';
import { readPnpmLock } from './read-pnpm-lock.js';
import { readPoetryLock } from './read-poetry-lock.js';
import { readRequirementsTxt } from './read-requirements-txt.js';
import { readUvLock } from './read-uv-lock.js';
import { readYarnBerryLock } from './read-yarn-berry-lock.js';
import { readYarnClassicLock } from './read-yarn-classic-lock.js';

type Reader = (path: string, content: string, collector: LockfileCollector) => string | null;

const READERS: Record<LockfileFormat, Reader> = {
  'package-lock': readPackageLock,
  'npm-shrinkwrap': readPackageLock,
  'pnpm-lock': readPnpmLock,
  'yarn-classic': readYarnClassicLock,
  'yarn-berry': readYarnBerryLock,
  'bun-lock': readBunLock,
  'requirements-txt': readRequirementsTxt,
  'poetry-lock': readPoetryLock,
  'pipfile-lock': readPipfileLock,
  'uv-lock': readUvLock,
};

/**
 * Reads one lockfile: the registry packages it installs (each purl once, with direct and dev as far
 * as the format records them) and every entry it does not read as a registry package, with the
 * reason. Throws a LockfileError (`lockfile_unsupported`, `lockfile_version_unsupported`,
 * `lockfile_malformed`, `lockfile_too_large`) whose detail starts with `file.path`; never returns
 * an empty result for a file it could not read.
 */
export function parseLockfile(file: { path: string; content: string }): ParsedLockfile {
  const { path, content } = file;
  if (path.replace(/\\/g, '/').endsWith('/bun.lockb') || path === 'bun.lockb') {
    throw lockfileUnsupported(path, 'the binary lockfile of bun before 1.2 is not read; `bun install --save-text-lockfile` writes bun.lock');
  }
  const format = lockfileFormatOf(path, content);
  if (!format) throw lockfileUnsupported(path, `not a lockfile Vigil reads (it reads ${LOCKFILE_NAMES})`);
  // Length in UTF-16 units is at most the UTF-8 length, so a short string skips the exact count.
  if (content.length * 3 > MAX_LOCKFILE_BYTES) {
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > MAX_LOCKFILE_BYTES) throw lockfileTooLargeBytes(path, bytes);
  }
  const collector = new LockfileCollector(path);
  try {
    const version = READERS[format](path, content, collector);
    return collector.result(format, version);
  } catch (error) {
    if (error instanceof LockfileError) throw error;
    // Nesting deep enough to exhaust the parser's stack is no lockfile a tool writes.
    if (error instanceof RangeError) throw lockfileMalformed(path, 1, 'nested too deeply');
    throw error;
  }
}
