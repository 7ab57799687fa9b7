import { describeError, type ErrorCode, type ValidationIssue } from '@vigil/core';

/**
 * The one error family of the server. Services and routes throw a `VigilError` with a catalogue
 * code (refusals of the signed endpoints add the sentence naming the argument at fault); the single
 * error handler (http/plugins/errors.ts) answers with its status and exact `detail` from
 * @vigil/core's ERROR_CATALOGUE. Nothing else writes an error response.
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
    // A string is the argument of a parameterised detail: the sentence of a refusal, a scope, an IP.
    init: string | { arg?: string; issues?: ValidationIssue[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    const options = typeof init === 'string' ? { arg: init } : init;
    const { status, detail } = describeError(code, options.arg);
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = status;
    this.detail = detail;
    this.issues = options.issues;
    this.headers = options.headers;
  }
}
