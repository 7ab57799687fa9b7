import { describeError } from '@vigil/core';

/** The catalogue codes (@vigil/core ERROR_CATALOGUE, docs/errors.md) a lockfile is refused with. */
export type LockfileErrorCode = 'lockfile_unsupported' | 'lockfile_version_unsupported' | 'lockfile_malformed' | 'lockfile_too_large';

/**
 * A lockfile the readers refuse. It carries the catalogue code with its status and exact detail, so
 * a caller answering HTTP (the server) maps it onto its own error type without rewording, and a
 * caller reading a checkout (the repositories agent) reports the detail as it is.
 */
export class LockfileError extends Error {
  override name = 'LockfileError';
  readonly code: LockfileErrorCode;
  readonly status: number;
  readonly detail: string;

  constructor(code: LockfileErrorCode, sentence: string) {
    const { status, detail } = describeError(code, sentence);
    super(detail);
    this.code = code;
    this.status = status;
    this.detail = detail;
  }
}
