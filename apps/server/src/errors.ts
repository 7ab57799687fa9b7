import { describeError, type ErrorCode, type ValidationIssue } from '@vigil/core';

/**
 * The one error family of the server. Domain code throws a `VigilError` with a catalogue code;
 * the single error handler (http/plugins/errors.ts) turns it into the status and exact `detail`
 * of @vigil/core's ERROR_CATALOGUE.
 */
export class VigilError extends Error {
  override name = 'VigilError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string;
  readonly issues: ValidationIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    options: { arg?: string; issues?: ValidationIssue[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    const { status, detail } = describeError(code, options.arg);
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = status;
    this.detail = detail;
    this.issues = options.issues;
    this.headers = options.headers;
  }
}
