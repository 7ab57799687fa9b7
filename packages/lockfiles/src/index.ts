export { parseLockfile } from './parse-lockfile.js';
export { lockfileFormatOf, LOCKFILE_NAMES } from './lockfile-format.js';
export { LockfileError } from './lockfile-error.js';
export type { LockfileErrorCode } from './lockfile-error.js';
export { SKIP_REASONS } from './skip-reasons.js';
export type { SkipReason } from './skip-reasons.js';
export type { LockfileDependency, LockfileFormat, LockfileSkip, ParsedLockfile } from '@vigil/core';
