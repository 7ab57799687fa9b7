import * as z from 'zod';

export const ValidationIssue = z.object({ path: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** `{detail}` always; `request_id` on 500s; `errors` on 422s, naming each failing field. */
export const ErrorBody = z.object({
  detail: z.string(),
  request_id: z.string().optional(),
  errors: z.array(ValidationIssue).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
