import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { SIGNED_REQUEST_SECURITY_SCHEMES, openApiTransform } from '../openapi.js';

export interface DebugDocsOptions {
  production: boolean;
  version: string;
}

const REDOC_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Vigil API (debug)</title></head>
<body><redoc spec-url="/openapi.json"></redoc>
<script src="https://cdn.redoc.ly/redoc/latest/bundles/redoc.standalone.js"></script></body></html>`;

const debugDocs: FastifyPluginAsync<DebugDocsOptions> = async (app, { production, version }) => {
  if (production) {
    // Config already refuses this; the check is repeated here because buildApp can be called directly.
    throw new Error('VIGIL_DEBUG: debug mode (/docs, /redoc, /openapi.json) is refused when NODE_ENV=production');
  }
  // Dynamic mode: the document is built from the routes as they are registered, each with its
  // zod schemas, so this plugin must be registered before the routes and outside their scopes.
  await app.register(fastifySwagger, {
    mode: 'dynamic',
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Vigil API', version, description: 'Debug-mode only; docs/ is the published contract.' },
      components: { securitySchemes: SIGNED_REQUEST_SECURITY_SCHEMES },
    },
    transform: openApiTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  app.get('/redoc', { schema: { hide: true } }, (_request, reply) => reply.type('text/html; charset=utf-8').send(REDOC_PAGE));
};

/**
 * /openapi.json, /docs (Swagger UI) and /redoc: registered only in debug mode, never in production.
 * Not encapsulated: the document generator must see the routes registered after it at the root.
 */
export const debugDocsPlugin = fp(debugDocs, { name: 'vigil-debug-docs', fastify: '5.x' });
