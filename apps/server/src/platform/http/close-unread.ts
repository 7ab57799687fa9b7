import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused client has to read its answer before its connection is cut. */
export const UNREAD_LINGER_MS = 1_000;
/** The most of an unread body discarded meanwhile: past it the connection is cut at once. */
export const UNREAD_LINGER_BYTES = 256 * 1024;

/**
 * For a request answered (refused) before its declared body arrived, sent with `Connection: close`:
 * close the connection after the answer without reading the body, and without losing the answer.
 * Node closes such a socket the moment the answer is flushed (`destroySoon`); with the client's
 * body still arriving, the kernel answers that close with a reset that can drop the answer before
 * the client read it (a probe saw half of its 401s lost). So, for this socket only, the close
 * half-closes (the client reads the answer, then end of stream) and lingers: it is cut once the
 * client closes, after UNREAD_LINGER_MS, or once UNREAD_LINGER_BYTES more of the body were
 * discarded, whichever comes first.
 */
export function closeWithoutReading(request: IncomingMessage): void {
  const socket: Socket = request.socket;
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const cut = () => socket.destroy();
    const timer = setTimeout(cut, UNREAD_LINGER_MS);
    let discarded = 0;
    request.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > UNREAD_LINGER_BYTES) cut();
    });
    socket.once('close', () => clearTimeout(timer));
  };
}
