import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { describeError, HEADERS } from '@vigil/core';

/**
 * fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any route or hook runs
 * (a bad request line, broken headers, headers too large) still answers `{detail}` from the
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

/** Writes a catalogue error straight to the socket and closes it (no route or hook can run). */
export function endSocketWithError(socket: Socket, code: 'malformed_request' | 'headers_too_large' | 'request_timeout' | 'method_not_allowed'): void {
  const { status, detail } = describeError(code);
  const body = JSON.stringify({ detail });
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
}

export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // A client that went away mid-request needs no answer.
  if (error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const code =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'headers_too_large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : 'malformed_request';
  endSocketWithError(socket, code);
}
