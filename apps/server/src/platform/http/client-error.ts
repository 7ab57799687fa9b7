import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describeError, HEADERS } from '@vigil/core';

/**
 * fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any route or hook runs
 * (a bad request line, broken headers, headers too large) still answers `{detail, code}` from the
 * catalogue with an `x-request-id`, instead of fastify's own body. The connection is closed: after
 * a parse error the rest of the stream cannot be trusted. A client that did not send its whole request
 * within VIGIL_REQUEST_TIMEOUT_MS gets 408 the same way.
 */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * Writes a catalogue error straight to the socket and closes it (no route or hook can run).
 * Returns the status sent, for the caller to count (vigil_http_requests_total, route `unmatched`).
 */
export function endSocketWithError(socket: Socket, code: 'malformed_request' | 'bad_request' | 'headers_too_large' | 'request_timeout' | 'method_not_allowed'): number {
  const { status, detail } = describeError(code);
  const body = JSON.stringify({ detail, code });
  const reason = REASONS[status] ?? 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      `${HEADERS.requestId}: ${randomUUID()}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      'cache-control: no-store\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
  return status;
}

/**
 * Keeps, per connection, the response of the request it is in the middle of, from the moment its
 * headers are parsed until it is answered: a parse error on the socket then belongs to that
 * request's body.
 */
export function trackRequestsInFlight(server: Server, inFlight: WeakMap<Socket, ServerResponse>): void {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    inFlight.set(request.socket, response);
    response.once('close', () => {
      if (inFlight.get(request.socket) === response) inFlight.delete(request.socket);
    });
  });
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** Answers a parser refusal; returns the status sent, or undefined when the socket was only closed. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket, inFlight?: ServerResponse): number | undefined {
  if (!socket.writable) {
    socket.destroy();
    return undefined;
  }
  // A client that went away mid-request needs no answer.
  if (error.code === 'ECONNRESET') {
    socket.destroy();
    return undefined;
  }
  // The request was answered already (a refusal before its body was read): nothing more to say.
  if (inFlight?.headersSent) {
    socket.destroy();
    return undefined;
  }
  // The connection ended inside a JSON body (shorter than its Content-Length, then a half-close):
  // what errors.md names for a body that cannot be read as JSON. Other bodies (an upload) keep
  // `malformed request` (docs/artifacts.md).
  const cutJsonBody = error.code === 'HPE_INVALID_EOF_STATE' && inFlight !== undefined && JSON_TYPE.test(inFlight.req.headers['content-type'] ?? '');
  const code =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'headers_too_large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : cutJsonBody
          ? 'bad_request'
          : 'malformed_request';
  return endSocketWithError(socket, code);
}
