import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { buildOpenApiDocument } from '../openapi.js';

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
  const document = buildOpenApiDocument(version);
  await app.register(fastifySwagger, {
    mode: 'static',
    specification: { document: document as never },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', () => app.swagger());
  app.get('/redoc', (_request, reply) => reply.type('text/html; charset=utf-8').send(REDOC_PAGE));
};

/** /openapi.json, /docs (Swagger UI) and /redoc: registered only in debug mode, never in production. */
export const debugDocsPlugin = fp(debugDocs, { name: 'vigil-debug-docs', fastify: '5.x', encapsulate: true });
