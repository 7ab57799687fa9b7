import { MAX_LOCKFILE_BYTES, MAX_LOCKFILE_ENTRIES } from '@vigil/core';
import { VigilError } from '../errors.js';

/**
 * The refusals of the lockfile readers. Every detail starts with the file's path, so that a request
 * carrying several lockfiles says which one is at fault; a malformed file also names the 1-based
 * line (`pnpm-lock.yaml: line 12: …`), the format docs/lockfiles.md documents.
 */

export function lockfileMalformed(path: string, line: number, message: string): VigilError {
  return new VigilError('lockfile_malformed', `${path}: line ${line}: ${message}`);
}

export function lockfileUnsupported(path: string, message: string): VigilError {
  return new VigilError('lockfile_unsupported', `${path}: ${message}`);
}

export function lockfileVersionUnsupported(path: string, line: number, version: string, read: string): VigilError {
  return new VigilError('lockfile_version_unsupported', `${path}: line ${line}: lockfile version ${version} is not read (Vigil reads ${read})`);
}

export function lockfileTooLargeBytes(path: string, bytes: number): VigilError {
  return new VigilError('lockfile_too_large', `${path}: ${bytes} bytes; Vigil reads lockfiles of at most ${MAX_LOCKFILE_BYTES} bytes`);
}

export function lockfileTooManyEntries(path: string): VigilError {
  return new VigilError(
    'lockfile_too_large',
    `${path}: more than ${MAX_LOCKFILE_ENTRIES} entries; Vigil reads at most ${MAX_LOCKFILE_ENTRIES} packages and skipped entries per file`,
  );
}
