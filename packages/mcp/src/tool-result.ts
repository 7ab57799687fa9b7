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

/** What a tool body gets: the call's signal (client cancellation, deadline, shutdown) and where to say how far it got. */
export interface ToolCall {
  signal: AbortSignal;
  progress(text: string): void;
}
