/**
 * Request headers as each runtime hands them over: a Fetch `Headers` object (Deno, Bun, Workers,
 * Next.js), or a plain record such as Node's `req.headers` (lowercased names, an array for a
 * repeated header). Structural, so no runtime's types are needed to pass them.
 */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The header's value, or undefined when absent or empty; names match case-insensitively. */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  let value: string | readonly string[] | null | undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    value = (headers as { get(name: string): string | null }).get(name);
  } else {
    const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
    const wanted = name.toLowerCase();
    value = record[wanted] ?? record[name];
    if (value === undefined) {
      for (const key of Object.keys(record)) {
        if (key.toLowerCase() === wanted) {
          value = record[key];
          break;
        }
      }
    }
  }
  // A repeated header reads as one comma-joined value, as Fetch's Headers.get gives it: never a valid signature.
  const text = typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : undefined;
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
