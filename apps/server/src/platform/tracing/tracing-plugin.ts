import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { FastifyPluginAsync, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';

const spans = new WeakMap<FastifyRequest, Span>();

/** The path without its query: a query may carry what does not belong in a trace backend. */
const pathOf = (url: string) => url.split('?')[0]!;

const tracing: FastifyPluginAsync<{ tracer: Tracer }> = async (app, { tracer }) => {
  // One SERVER span per request, from its arrival to its response, carrying its request id.
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    spans.set(
      request,
      tracer.startSpan(`${request.method} ${route ?? 'unmatched'}`, {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': pathOf(request.url),
          'http.route': route ?? 'unmatched',
          'vigil.request_id': request.id,
        },
      }),
    );
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      spans.delete(request);
    }
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute('vigil.aborted', true);
      span.end();
      spans.delete(request);
    }
    done();
  });
  // The handler runs with the request's span active, so the spans it opens (a database
  // transaction, an outbound call) are its children. Wrapping the handler, not a hook's `done`:
  // the body is parsed on socket events, which would lose a context entered in onRequest.
  app.addHook('onRoute', (route) => {
    const handler = route.handler as (this: unknown, ...args: Parameters<RouteHandlerMethod>) => unknown;
    route.handler = function traced(this: unknown, request, reply) {
      const span = spans.get(request);
      if (!span) return handler.call(this, request, reply);
      return context.with(trace.setSpan(context.active(), span), () => handler.call(this, request, reply));
    } as RouteHandlerMethod;
  });
};

/** Request spans (docs/operations.md, "Tracing"); registered only when a tracer provider is. */
export const tracingPlugin = fp(tracing, { name: 'vigil-tracing', fastify: '5.x' });
