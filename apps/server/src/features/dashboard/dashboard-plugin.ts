import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { DASHBOARD_ROUTES, dashboardDistDir } from '@vigil/dashboard';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { DashboardSettings } from './dashboard-settings.js';

export interface DashboardPluginOptions {
  settings: DashboardSettings;
  /** The built dashboard (index.html, assets/); the `@vigil/dashboard` workspace's dist by default. */
  distDir?: string;
}

/** Vite names every file under assets/ by its content hash: a changed file is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** favicon.svg and other unhashed files: cached a little, revalidated after. */
const SHORT_LIVED = 'public, max-age=3600';
const API_URL_META = '<meta name="vigil-api-url" content="" />';
/** Pages, not API operations: kept out of /openapi.json (debug mode), like @fastify/static's own routes. */
const PAGE_ROUTE = { schema: { hide: true } };

/**
 * The page's policy: its own scripts and styles only (no inline script, no eval), data only from
 * this origin and the configured API, never framed.
 */
export function dashboardContentSecurityPolicy(apiUrl: string | undefined): string {
  const connect = apiUrl === undefined ? "'self'" : `'self' ${new URL(apiUrl).origin}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    `connect-src ${connect}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function escapeAttribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function withSecurityHeaders(reply: FastifyReply, csp: string): FastifyReply {
  return reply
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY');
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Vigil dashboard not built</title></head>
<body><h1>The Vigil dashboard has not been built</h1>
<p>This server serves the API under <code>/v1</code>. To get the dashboard here, build it
(<code>npx -y pnpm@10.34.8 build</code> at the repository root) and restart the server, or set
<code>VIGIL_DASHBOARD=false</code> to turn this page off.</p></body></html>
`;

const dashboard: FastifyPluginAsync<DashboardPluginOptions> = async (app, { settings, distDir = dashboardDistDir }) => {
  const csp = dashboardContentSecurityPolicy(settings.apiUrl);
  const indexFile = join(distDir, 'index.html');

  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'the web dashboard is not built: / answers 503 with how to build it (docs/dashboard.md)');
    for (const url of DASHBOARD_ROUTES) {
      app.get(url, PAGE_ROUTE, (_request, reply) =>
        withSecurityHeaders(reply, csp).code(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_BUILT_PAGE),
      );
    }
    return;
  }

  const built = readFileSync(indexFile, 'utf8');
  if (settings.apiUrl !== undefined && !built.includes(API_URL_META)) {
    throw new Error(`${indexFile}: no ${API_URL_META} to fill with VIGIL_DASHBOARD_API_URL; rebuild the dashboard`);
  }
  const html = settings.apiUrl === undefined ? built : built.replace(API_URL_META, `<meta name="vigil-api-url" content="${escapeAttribute(settings.apiUrl)}" />`);

  // One route per built file (no wildcard): a path that is neither a file nor a dashboard page
  // stays the API's JSON 404. index.html is served only through the page routes below, with its policy.
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    wildcard: false,
    index: false,
    // The .gz/.br copies (scripts/compress.mjs) are sent in place of their original, never by their own name.
    globIgnore: ['index.html', '**/*.gz', '**/*.br'],
    preCompressed: true,
    decorateReply: false,
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE : SHORT_LIVED);
      reply.header('x-content-type-options', 'nosniff');
    },
  });

  // The SPA fallback, for the dashboard's own routes only: each is index.html, revalidated on
  // every load (no-cache) so a new build's asset names are picked up at once.
  for (const url of DASHBOARD_ROUTES) {
    app.get(url, PAGE_ROUTE, (_request, reply) =>
      withSecurityHeaders(reply, csp).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html),
    );
  }
};

/**
 * The web dashboard (apps/dashboard) at `/`: its built files, its client routes answered with
 * index.html under a strict Content-Security-Policy. Encapsulated: @fastify/static stays inside.
 */
export const dashboardPlugin = fp(dashboard, { name: 'vigil-dashboard', fastify: '5.x', encapsulate: true });
