import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

const connectionDrain: FastifyPluginAsync = async (app) => {
  let draining = false;
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

/** During `app.close()`, every response closes its connection so the drain ends with the last request. */
export const connectionDrainPlugin = fp(connectionDrain, { name: 'vigil-connection-drain', fastify: '5.x' });
