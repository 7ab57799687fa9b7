import type { FastifyPluginAsync } from 'fastify';
import type { TransparencyLog } from './transparency-log.js';

/** Tiles and entry bundles never change once served (a partial one is named by its width). */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The checkpoint moves as entries are appended: a client may reuse it for a few seconds. */
const CHECKPOINT_MAX_AGE = 'public, max-age=5';

export interface LogRoutesOptions {
  log: TransparencyLog;
  now: () => Date;
}

/**
 * The transparency log as C2SP tlog-tiles (docs/log.md, "The log of this server"): public, no key.
 * A checkpoint is signed on each request, of the tree as committed then; tiles and entry bundles
 * are read from the stored hashes and entries.
 */
export const logRoutesPlugin: FastifyPluginAsync<LogRoutesOptions> = async (app, { log, now }) => {
  app.get(
    '/v1/log/checkpoint',
    { schema: { summary: "The transparency log's current checkpoint: a C2SP signed note (text/plain)" } },
    async (_request, reply) => {
      const signed = await log.checkpoint(now().getTime());
      return reply.header('cache-control', CHECKPOINT_MAX_AGE).type('text/plain; charset=utf-8').send(signed.note);
    },
  );

  app.get(
    '/v1/log/tile/*',
    { schema: { summary: 'A tile (tile/<L>/<N>[.p/<W>]) or entry bundle (tile/entries/<N>[.p/<W>]) of the transparency log (application/octet-stream)' } },
    async (request, reply) => {
      const rest = (request.params as { '*': string })['*'];
      const data = await log.tile(`tile/${rest}`);
      return reply.header('cache-control', IMMUTABLE).type('application/octet-stream').send(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    },
  );
};
