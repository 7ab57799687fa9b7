import { VigilApiError, VigilConnectionError, VigilError, VigilResponseError, VigilTimeoutError } from '@vigil/client';
import { printable as cut } from './printable.js';
import { ToolInputError } from './tool-result.js';

/**
 * A tool call that ran past its deadline (docs/mcp.md, "Failures"): `progress` says how far it got.
 */
export class CallDeadlineError extends Error {
  override name = 'CallDeadlineError';
  constructor(
    readonly deadlineMs: number,
    readonly progress: string,
  ) {
    super(`no answer within the ${deadlineMs / 1000} s deadline of a tool call`);
  }
}

/**
 * The message of a tool error for anything a tool call threw. A fault of the Vigil API (down,
 * unreachable, 5xx, an answer off the contract) says that it is the service's fault and that the
 * package is NOT known to be safe, so an agent does not read an outage as a clean bill; a refusal
 * (401, 403, 404, 422, 429) gives the server's status and detail; anything else is reported as an
 * internal error of this server (`unknownVerdict`: that sentence for what is not a verdict, a policy read). Never throws: one bad call must not stop the MCP server.
 * Whatever the API (or a proxy before it) wrote is redacted, then passed through `printable`: no control or bidi
 * characters, at most 500 characters, so an upstream cannot write text that reads as Vigil's advice.
 */
export function faultMessage(err: unknown, baseUrl: string, redact: (text: string) => string = (text) => text, unknownVerdict = 'No verdict is known: treat the package as unchecked, not as safe.'): string {
  // Redacted before it is cut: a cut must not leave half a key behind.
  const printable = (text: string, max?: number) => cut(redact(text), max);
  if (err instanceof ToolInputError) return err.message;
  if (err instanceof CallDeadlineError) return `The Vigil MCP server gave up on this call after ${err.deadlineMs / 1000} s (its deadline for a tool call); ${err.progress}. No verdict is known: treat it as unchecked, not as safe.`;
  if (err instanceof VigilConnectionError) return `The Vigil API at ${baseUrl} cannot be reached (${printable(err.detail)}). ${unknownVerdict}`;
  if (err instanceof VigilTimeoutError) return `The Vigil API at ${baseUrl} did not answer in time (${printable(err.detail)}). ${unknownVerdict}`;
  if (err instanceof VigilResponseError) return `The Vigil API at ${baseUrl} sent an answer this client does not understand (${printable(err.message)}). ${unknownVerdict}`;
  if (err instanceof VigilApiError) {
    const id = err.requestId ? ` (request id ${printable(err.requestId, 100)})` : '';
    const detail = printable(err.detail);
    if (err.status >= 500) return `The Vigil API at ${baseUrl} failed: ${err.status} ${detail}${id}. ${unknownVerdict}`;
    if (err.status === 401) return `The Vigil API refused the API key: 401 ${detail}${id}. Set VIGIL_API_KEY to a valid key, or run vigil login.`;
    if (err.status === 403) return `The Vigil API refused the request: 403 ${detail}${id}.`;
    return `The Vigil API refused the request: ${err.status} ${detail}${id}.`;
  }
  if (err instanceof VigilError) return `The Vigil API call failed: ${printable(err.message)}. ${unknownVerdict}`;
  return `Internal error of the Vigil MCP server: ${printable(err instanceof Error ? err.message : String(err))}`;
}
