import { afterThisTurn, checkReceiverOptions, receiveDelivery, reportError, tooLargeAnswer, type BodyRead, type WebhookReceiverOptions } from './webhook-receiver.js';

/** The parts of a fastify request the plugin reads. */
export interface FastifyWebhookRequest {
  method: string;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  body: unknown;
}

/** The parts of a fastify reply the plugin writes. */
export interface FastifyWebhookReply {
  code(statusCode: number): FastifyWebhookReply;
  header(name: string, value: string): FastifyWebhookReply;
  send(payload: string): FastifyWebhookReply;
}

/**
 * The parts of a fastify instance the plugin uses, written out so that fastify is not a
 * dependency: a fastify app (tested with fastify 5) passes for it.
 */
export interface FastifyWebhookInstance {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit: number },
    parser: (request: never, body: Uint8Array, done: (error: Error | null, body?: unknown) => void) => void,
  ): void;
  setErrorHandler(handler: (error: { statusCode?: number }, request: unknown, reply: FastifyWebhookReply) => void): unknown;
  route(route: {
    method: string[];
    url: string;
    handler: (request: FastifyWebhookRequest, reply: FastifyWebhookReply) => Promise<unknown>;
  }): unknown;
}

export interface FastifyWebhookPluginOptions extends WebhookReceiverOptions {
  /** The route's path, under the `prefix` the plugin is registered with, e.g. `/webhooks/vigil`. */
  path: string;
}

// HEAD comes with GET (fastify's exposeHeadRoutes); every other method is answered 405 by the handler.
const METHODS = ['DELETE', 'GET', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

function send(reply: FastifyWebhookReply, status: number, headers: Record<string, string>, body: string): FastifyWebhookReply {
  reply.code(status);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.send(body);
}

/**
 * A fastify plugin: `app.register(vigilWebhookPlugin, { path, secrets, handler })`. Inside its
 * own encapsulated context it replaces every content-type parser with one that keeps the raw
 * bytes (the app's JSON parsing elsewhere is untouched), adds the route for every method and
 * answers as `createNodeWebhookHandler` does, 413 included.
 */
export function vigilWebhookPlugin(instance: FastifyWebhookInstance, options: FastifyWebhookPluginOptions, done: (error?: Error) => void): void {
  try {
    const { maxBodyBytes } = checkReceiverOptions(options);
    if (typeof options.path !== 'string' || !options.path.startsWith('/')) throw new TypeError('path: expected a route path starting with /');
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBodyBytes }, (_request, body, parsed) => parsed(null, body));
    instance.setErrorHandler((error, _request, reply) => {
      // Fastify's own refusals before the handler: the body limit, a broken upload.
      if (error.statusCode === 413) {
        const tooLarge = tooLargeAnswer();
        send(reply, tooLarge.status, tooLarge.headers, tooLarge.body);
        return;
      }
      reportError(options, error, undefined);
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      send(reply, status, { 'content-type': 'text/plain; charset=utf-8' }, status === 500 ? 'internal error' : 'bad request');
    });
    instance.route({
      method: METHODS,
      url: options.path,
      handler: async (request, reply) => {
        const readBody = async (): Promise<BodyRead> => {
          const body = request.body;
          return { ok: true, body: body instanceof Uint8Array || typeof body === 'string' ? body : new Uint8Array(0) };
        };
        const answer = await receiveDelivery(options, { method: request.method, headers: request.headers, readBody });
        send(reply, answer.status, answer.headers, answer.body);
        if (answer.afterResponse) void afterThisTurn(answer.afterResponse);
        return reply;
      },
    });
    done();
  } catch (error) {
    done(error instanceof Error ? error : new Error(String(error)));
  }
}
