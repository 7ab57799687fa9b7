import * as z from 'zod';

export const ValidationIssue = z.object({ path: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/**
 * `{detail, code}` always; `request_id` on 500s; `errors` on 422s, naming each failing field.
 * `code` is the error's key in ERROR_CATALOGUE, the stable name to branch on (a `detail` may be a
 * sentence naming an argument). It is optional here so that a body from a server older than the
 * field still parses; a string rather than the enum so that a newer server's code does too.
 */
export const ErrorBody = z.object({
  detail: z.string(),
  code: z.string().optional(),
  request_id: z.string().optional(),
  errors: z.array(ValidationIssue).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
