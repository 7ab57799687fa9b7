import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A bad argument a tool found itself (a malformed package reference, a lockfile it cannot read):
 * answered as a tool error (`isError: true`) with this message, for the calling agent to correct.
 */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

/** What a tool answers: the text for people and models, and the same facts as `structuredContent`. */
export function toolResult<T extends Record<string, unknown>>(text: string, structured: T): CallToolResult & { structuredContent: T } {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Replaces every secret (the API key) in `text` with `[redacted]`. Nothing this server writes
 * quotes the key, but an error from below (a proxy echoing a header, a URL with a password) could:
 * every text an agent sees passes through here.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join('[redacted]');
  return out;
}
