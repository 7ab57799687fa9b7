import { Server as NetServer } from 'node:net';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export interface ConnectionDrain {
  /**
   * Stops accepting connections but keeps the open ones: a request a keep-alive client already sent
   * (or sends within `idleMs`) is answered, with `Connection: close`, instead of meeting a reset.
   * Resolves when every connection has closed or `idleMs` has passed; `app.close()` then closes the
   * ones still idle and waits for those still answering.
   */
  drain(idleMs: number): Promise<void>;
}

const POLL_MS = 20;

const connectionDrain: FastifyPluginAsync = async (app) => {
  let draining = false;

  const openConnections = () =>
    new Promise<number>((resolve) => app.server.getConnections((error, count) => resolve(error ? 0 : count)));

  app.decorate('connectionDrain', {
    async drain(idleMs: number) {
      draining = true;
      // net.Server's close only stops listening; http.Server's would also cut idle keep-alive sockets
      // at once, resetting clients whose next request is already on the wire.
      const server = app.server;
      if (server.listening) NetServer.prototype.close.call(server);
      // fastify's close ends with http.Server#close, which also stops Node's check of
      // VIGIL_REQUEST_TIMEOUT_MS: an upload that stalls would then hold the shutdown until the grace
      // period ends (exit 1). Keep that check running; close only what is idle.
      server.close = function closeKeepingRequestTimeouts(callback?: (error?: Error) => void) {
        server.closeIdleConnections();
        NetServer.prototype.close.call(server, callback);
        return server;
      };
      const deadline = Date.now() + idleMs;
      while (Date.now() < deadline && (await openConnections()) > 0) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
  } satisfies ConnectionDrain);

  app.addHook('preClose', async () => {
    draining = true;
  });
  // server.close() only reaps sockets idle at that moment; a keep-alive socket whose request was in
  // flight would hold the close open until the client gives up. `Connection: close` ends it instead.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
};

/**
 * Draining like load balancers expect: stop accepting, answer what arrives on open connections with
 * `Connection: close`, then close what is idle. During `app.close()` every response closes its connection.
 */
export const connectionDrainPlugin = fp(connectionDrain, { name: 'vigil-connection-drain', fastify: '5.x' });

declare module 'fastify' {
  interface FastifyInstance {
    connectionDrain: ConnectionDrain;
  }
}
