export { parseLockfile } from './parse-lockfile.js';
export { lockfileFormatOf, LOCKFILE_NAMES } from './lockfile-format.js';
export { SKIP_REASONS } from './skip-reasons.js';
export type { SkipReason } from './skip-reasons.js';
export type { LockfileDependency, LockfileFormat, LockfileSkip, ParsedLockfile } from '@vigil/core';
