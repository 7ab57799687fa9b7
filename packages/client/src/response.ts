import { ErrorBody, HEADERS } from '@vigil/core';
import type { z } from 'zod';
import { VigilApiError, VigilResponseError } from './errors.js';

export function parseRetryAfter(value: string | null, nowMs: number = Date.now()): number | null {
  if (value === null) return null;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/**
 * The one place a Vigil response becomes a value or an error, shared by the public and the
 * signed client so both report failures identically: non-2xx → VigilApiError (spec `detail`,
 * `x-request-id`, `Retry-After`); 2xx that fails `schema` → VigilResponseError.
 */
export async function readVigilResponse<S extends z.ZodType>(
  response: Response,
  path: string,
  schema: S | undefined,
): Promise<z.output<S>> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const body = ErrorBody.safeParse(json);
    throw new VigilApiError({
      status: response.status,
      detail: body.success ? body.data.detail : text.slice(0, 200) || response.statusText,
      requestId: response.headers.get(HEADERS.requestId) ?? (body.success ? (body.data.request_id ?? null) : null),
      retryAfterSeconds: parseRetryAfter(response.headers.get(HEADERS.retryAfter)),
      body: body.success ? body.data : null,
    });
  }
  if (schema === undefined) return json as z.output<S>;
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new VigilResponseError(path, parsed.error.message);
  return parsed.data;
}
