import { VigilApiError, VigilConnectionError, VigilError, VigilResponseError, VigilTimeoutError } from '@vigil/client';
import { ToolInputError } from './tool-result.js';

/**
 * The message of a tool error for anything a tool call threw. A fault of the Vigil API (down,
 * unreachable, 5xx, an answer off the contract) says that it is the service's fault and that the
 * package is NOT known to be safe, so an agent does not read an outage as a clean bill; a refusal
 * (401, 403, 404, 422, 429) gives the server's status and detail; anything else is reported as an
 * internal error of this server. Never throws: one bad call must not stop the MCP server.
 */
export function faultMessage(err: unknown, baseUrl: string): string {
  const unknownVerdict = 'No verdict is known: treat the package as unchecked, not as safe.';
  if (err instanceof ToolInputError) return err.message;
  if (err instanceof VigilConnectionError) return `The Vigil API at ${baseUrl} cannot be reached (${err.detail}). ${unknownVerdict}`;
  if (err instanceof VigilTimeoutError) return `The Vigil API at ${baseUrl} did not answer in time (${err.detail}). ${unknownVerdict}`;
  if (err instanceof VigilResponseError) return `The Vigil API at ${baseUrl} sent an answer this client does not understand (${err.message}). ${unknownVerdict}`;
  if (err instanceof VigilApiError) {
    const id = err.requestId ? ` (request id ${err.requestId})` : '';
    if (err.status >= 500) return `The Vigil API at ${baseUrl} failed: ${err.status} ${err.detail}${id}. ${unknownVerdict}`;
    if (err.status === 401) return `The Vigil API refused the API key: 401 ${err.detail}${id}. Set VIGIL_API_KEY to a valid key, or run vigil login.`;
    if (err.status === 403) return `The Vigil API refused the request: 403 ${err.detail}${id}.`;
    return `The Vigil API refused the request: ${err.status} ${err.detail}${id}.`;
  }
  if (err instanceof VigilError) return `The Vigil API call failed: ${err.message}. ${unknownVerdict}`;
  return `Internal error of the Vigil MCP server: ${err instanceof Error ? err.message : String(err)}`;
}
