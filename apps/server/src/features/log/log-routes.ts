import type { FastifyPluginAsync } from 'fastify';
import { formatHash } from '@vigil/tlog';
import { VigilError } from '../../platform/errors.js';
import type { TransparencyLog } from './transparency-log.js';

/** Tiles and entry bundles never change once served (a partial one is named by its width). */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The checkpoint moves as entries are appended: a client may reuse it for a few seconds. */
const CHECKPOINT_MAX_AGE = 'public, max-age=5';

/** A cosigned checkpoint is a few hundred bytes; a note holds at most 100 signature lines. */
const COSIGNATURE_BODY_LIMIT = 64 * 1024;

/** A tree size in a query: ASCII decimal, no sign, no leading zero (docs/log.md). */
function treeSize(value: unknown): number {
  if (typeof value !== 'string' || !/^(0|[1-9][0-9]{0,15})$/.test(value)) throw new VigilError('log_consistency_range');
  return Number(value);
}

export interface LogRoutesOptions {
  log: TransparencyLog;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
}

/**
 * The transparency log as C2SP tlog-tiles (docs/log.md, "The log of this server"): public, no key.
 * A checkpoint is signed on each request, of the tree as committed then; tiles and entry bundles
 * are read from the stored hashes and entries.
 */
export const logRoutesPlugin: FastifyPluginAsync<LogRoutesOptions> = async (app, { log, clock }) => {
  app.get(
    '/v1/log/checkpoint',
    { schema: { summary: "The transparency log's current checkpoint: a C2SP signed note (text/plain)" } },
    async (_request, reply) => {
      const signed = await log.checkpoint(clock());
      return reply.header('cache-control', CHECKPOINT_MAX_AGE).type('text/plain; charset=utf-8').send(signed.note);
    },
  );

  app.get(
    '/v1/log/consistency',
    { schema: { summary: 'The consistency proof between two tree sizes (?from=M&to=N, 1 ≤ M ≤ N ≤ size): one base64 hash per line (text/plain)' } },
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const proof = await log.consistency(treeSize(query.from), treeSize(query.to));
      // The proof between two sizes of an append-only log never changes.
      return reply
        .header('cache-control', IMMUTABLE)
        .type('text/plain; charset=utf-8')
        .send(proof.map((hash) => `${formatHash(hash)}\n`).join(''));
    },
  );

  // A witness posts the checkpoint it cosigned: the note as served, with its cosignature line added.
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: COSIGNATURE_BODY_LIMIT }, (_request, body, done) => done(null, body));
  app.post(
    '/v1/log/cosignature',
    {
      schema: { summary: "A witness's cosignature (C2SP tlog-cosignature) of a checkpoint this log signed; answers the checkpoint with every cosignature kept (text/plain)" },
      bodyLimit: COSIGNATURE_BODY_LIMIT,
      // Before any body parser: a note sent under another type (application/json included, which would
      // otherwise fail as malformed JSON, 400) is the documented 415, unread.
      onRequest: async (request) => {
        const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== 'text/plain') throw new VigilError('unsupported_media_type', { headers: { connection: 'close' } });
      },
    },
    async (request, reply) => {
      if (typeof request.body !== 'string') throw new VigilError('unsupported_media_type');
      const signed = await log.addCosignatures(request.body, clock());
      return reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(signed.note);
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
