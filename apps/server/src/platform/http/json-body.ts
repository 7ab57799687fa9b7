import { jsonTextDepthExceeds } from '@vigil/core';
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { VigilError } from '../errors.js';

/**
 * fastify's JSON parser (a `__proto__` key or a `constructor.prototype` refused), behind one more
 * refusal: text nested deeper than MAX_JSON_DEPTH levels is 400 `malformed JSON body` before
 * JSON.parse sees it. Everything after the parser (the NUL scan, the schemas, the handlers, the
 * serializer, canonical JSON) may then walk a body without minding its depth. Every JSON body
 * Vigil reads goes through here, but for the GitHub hook's, which parses its own raw bytes with
 * the same bound (features/repositories/github-hooks.ts; docs/api.md, "JSON bodies").
 */
export function depthBoundedJsonParser(app: FastifyInstance): FastifyBodyParser<string> {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    if (jsonTextDepthExceeds(body)) {
      done(new VigilError('bad_request'), undefined);
      return;
    }
    parse(request, body, done);
  };
}
