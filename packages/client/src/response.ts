import { ErrorBody, HEADERS } from '@vigil/core';
import type * as z from 'zod';
import { apiErrorFor, issuePath, VigilResponseError } from './errors.js';
import type { VigilApiError, VigilErrorContext } from './errors.js';

export function parseRetryAfter(value: string | null, nowMs: number = Date.now()): number | null {
  if (value === null) return null;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

function parseJson(text: string): unknown {
  try {
    return text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The typed error for a non-2xx answer whose body was read as `text`. */
export function errorOfAnswer(response: Response, text: string, context: VigilErrorContext): VigilApiError {
  const body = ErrorBody.safeParse(parseJson(text));
  return apiErrorFor({
    ...context,
    status: response.status,
    detail: body.success ? body.data.detail : text.slice(0, 200) || response.statusText,
    requestId: response.headers.get(HEADERS.requestId) ?? (body.success ? (body.data.request_id ?? null) : null) ?? context.requestId ?? null,
    retryAfterSeconds: parseRetryAfter(response.headers.get(HEADERS.retryAfter)),
    body: body.success ? body.data : null,
  });
}

/** A 2xx body checked against its schema; a mismatch is VigilResponseError naming the first bad field. */
export function parseAnswer<S extends z.ZodType>(status: number, text: string, schema: S, context: VigilErrorContext): z.output<S> {
  let json: unknown;
  try {
    // 204 No Content has no body to parse: its schema is z.undefined().
    json = status === 204 ? undefined : JSON.parse(text);
  } catch {
    throw new VigilResponseError('', `not JSON: ${JSON.stringify(text.slice(0, 80))}`, { ...context, status });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new VigilResponseError(issue ? issuePath(issue.path) : '', issue?.message ?? 'invalid', { ...context, status });
  }
  return parsed.data;
}
