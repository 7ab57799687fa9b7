import { MAX_LOCKFILE_BYTES, MAX_LOCKFILE_ENTRIES } from '@vigil/core';
import { LockfileError } from './lockfile-error.js';

/**
 * The refusals of the lockfile readers. Every detail starts with the file's path, so that a request
 * carrying several lockfiles says which one is at fault; a malformed file also names the 1-based
 * line (`pnpm-lock.yaml: line 12: …`), the format docs/lockfiles.md documents.
 */

export function lockfileMalformed(path: string, line: number, message: string): LockfileError {
  return new LockfileError('lockfile_malformed', `${path}: line ${line}: ${message}`);
}

export function lockfileUnsupported(path: string, message: string): LockfileError {
  return new LockfileError('lockfile_unsupported', `${path}: ${message}`);
}

export function lockfileVersionUnsupported(path: string, line: number, version: unknown, read: string): LockfileError {
  return new LockfileError('lockfile_version_unsupported', `${path}: line ${line}: lockfile version ${describeVersion(version)} is not read (Vigil reads ${read})`);
}

/**
 * A version value as the message shows it. Not `String(value)`: TOML tables are objects without a
 * prototype, which `String` cannot convert (a uv.lock whose `version` is an array of inline tables
 * threw a TypeError instead of this refusal).
 */
function describeVersion(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = Array.isArray(value) ? 'an array' : 'a table';
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

export function lockfileTooLargeBytes(path: string, bytes: number): LockfileError {
  return new LockfileError('lockfile_too_large', `${path}: ${bytes} bytes; Vigil reads lockfiles of at most ${MAX_LOCKFILE_BYTES} bytes`);
}

export function lockfileTooManyEntries(path: string): LockfileError {
  return new LockfileError(
    'lockfile_too_large',
    `${path}: more than ${MAX_LOCKFILE_ENTRIES} entries; Vigil reads at most ${MAX_LOCKFILE_ENTRIES} packages and skipped entries per file`,
  );
}
